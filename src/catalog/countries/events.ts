/** Events of the country stream (`country-<supplier id>`). */
import { z } from 'zod';
import { defineEvent } from '../../platform/events/catalogue';
import { idSchema } from '../../platform/ids';

export const countryStreamId = (id: string) => `country-${id}`;

export const CountryMirrored = defineEvent('CountryMirrored', 1, z.object({ countryId: idSchema, name: z.string().min(1), code: z.string() }));

/** Gone from the supplier's country list. */
export const CountryRemovedUpstream = defineEvent('CountryRemovedUpstream', 1, z.object({ countryId: idSchema }));

export const countryEvents = [CountryMirrored, CountryRemovedUpstream] as const;
