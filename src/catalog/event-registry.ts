/** Every event type the service knows, in one registry. Slices add their definitions here. */
import { EventRegistry } from '../platform/events/registry';
import { categoryAdminEvents } from './categories/admin-events';
import { categoryEvents } from './categories/events';
import { countryAdminEvents } from './countries/admin-events';
import { countryEvents } from './countries/events';
import { familyEvents } from './families/events';
import { goodEvents } from './goods/events';
import { linkEvents } from './links/events';
import { positionEvents } from './positions/events';
import { tagGroupEvents } from './tag-groups/events';
import { tagEvents } from './tags/events';

export function createEventRegistry(): EventRegistry {
  return new EventRegistry([
    ...linkEvents,
    ...familyEvents,
    ...goodEvents,
    ...categoryEvents,
    ...countryEvents,
    ...categoryAdminEvents,
    ...countryAdminEvents,
    ...tagGroupEvents,
    ...tagEvents,
    ...positionEvents,
  ]);
}
