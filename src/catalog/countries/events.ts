/** Events of the country stream (`country-<supplier id>`). */
import { z } from 'zod';
import { defineEvent, type EventUnion } from '../../platform/events/registry';
import { idSchema } from '../../platform/ids';
import type { CountryAdminEvent } from './admin-events';

export const countryStreamId = (id: string) => `country-${id}`;

export const CountryMirrored = defineEvent('CountryMirrored', 1, z.object({ countryId: idSchema, name: z.string().min(1), code: z.string() }));

/** Gone from the supplier's country list. */
export const CountryRemovedUpstream = defineEvent('CountryRemovedUpstream', 1, z.object({ countryId: idSchema }));

export const countryEvents = [CountryMirrored, CountryRemovedUpstream] as const;
/** Every event a country stream holds: the supplier mirror's and the administrators'. */
export type CountryEvent = EventUnion<typeof countryEvents> | CountryAdminEvent;
