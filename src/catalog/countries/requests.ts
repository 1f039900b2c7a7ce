/** Request shapes of /countries, each next to its type. */
import { z } from 'zod';
import { pageQuery } from '../../platform/http/pagination';
import { idSchema } from '../../platform/ids';
import { nameField, sortOrderField } from '../request-fields';

/** Two letters (ISO 3166-1 alpha-2 style), stored upper-case (docs/domain.md, Countries). */
const codeField = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{2}$/, 'must be two letters, such as US')
  .transform((v) => v.toUpperCase());

export const createCountryBody = z.object({ name: nameField(), code: codeField, sortOrder: sortOrderField.default(0) }).strict();
export type CreateCountryBody = z.infer<typeof createCountryBody>;

export const updateCountryBody = z.object({ name: nameField().optional(), code: codeField.optional(), sortOrder: sortOrderField.optional() }).strict();
export type UpdateCountryBody = z.infer<typeof updateCountryBody>;

/** The full new order of all countries. */
export const sortCountriesBody = z.object({ ids: z.array(idSchema).max(100_000) }).strict();
export type SortCountriesBody = z.infer<typeof sortCountriesBody>;

export const listCountriesQuery = pageQuery;
export type ListCountriesQuery = z.infer<typeof listCountriesQuery>;
