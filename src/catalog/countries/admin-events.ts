/**
 * Administrators' events on country streams (`country-<id>`, shared with the supplier mirror's events in
 * ./events.ts) and on the one stream that holds the order of all countries (`country-order`).
 * Countries an administrator makes get allocated ids, which never collide with the supplier's.
 */
import { z } from 'zod';
import { defineEvent, type EventUnion } from '../../platform/events/registry';
import { idSchema } from '../../platform/ids';

export const COUNTRY_ORDER_STREAM = 'country-order';

const fields = { name: z.string().min(1), code: z.string().min(1), sortOrder: z.number().int() };

export const CountryCreated = defineEvent('CountryCreated', 1, z.object({ countryId: idSchema, ...fields }));

/** Only the fields that changed are present. On a mirrored country they last until the supplier changes it. */
export const CountryUpdated = defineEvent(
  'CountryUpdated',
  1,
  z
    .object({ countryId: idSchema, ...fields })
    .partial()
    .required({ countryId: true }),
);

/** Hidden from every list; a supplier country the supplier still lists comes back at the next synchronisation. */
export const CountryDeleted = defineEvent('CountryDeleted', 1, z.object({ countryId: idSchema }));

/** The full new order of all live countries: `countryIds[i]` gets sort order i. */
export const CountriesReordered = defineEvent('CountriesReordered', 1, z.object({ countryIds: z.array(idSchema) }));

export const countryAdminEvents = [CountryCreated, CountryUpdated, CountryDeleted, CountriesReordered] as const;
export type CountryAdminEvent = EventUnion<typeof countryAdminEvents>;
