/** Every event type the service knows, in one catalogue. Slices add their definitions here. */
import { EventCatalogue } from '../platform/events/catalogue';
import { categoryEvents } from './categories/events';
import { countryEvents } from './countries/events';
import { linkEvents } from './links/events';

export function createCatalogue(): EventCatalogue {
  return new EventCatalogue([...linkEvents, ...categoryEvents, ...countryEvents]);
}
