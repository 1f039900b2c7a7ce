/** Every event type the service knows, in one catalogue. Slices add their definitions here. */
import { EventCatalogue } from '../platform/events/catalogue';
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

export function createCatalogue(): EventCatalogue {
  return new EventCatalogue([...linkEvents, ...familyEvents, ...goodEvents, ...categoryEvents, ...countryEvents, ...categoryAdminEvents, ...countryAdminEvents, ...tagGroupEvents, ...tagEvents, ...positionEvents]);
}
