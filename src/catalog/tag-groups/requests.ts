/** Request shapes of /tag-groups, each next to its type. */
import { z } from 'zod';
import { pageQuery } from '../../platform/http/pagination';
import { nameField } from '../request-fields';
import { dimensionSchema } from './events';

export const createTagGroupBody = z.object({ name: nameField(), dimension: dimensionSchema.nullable().default(null) }).strict();
export type CreateTagGroupBody = z.infer<typeof createTagGroupBody>;

export const updateTagGroupBody = z.object({ name: nameField().optional(), dimension: dimensionSchema.nullable().optional() }).strict();
export type UpdateTagGroupBody = z.infer<typeof updateTagGroupBody>;

export const listTagGroupsQuery = pageQuery.extend({ dimension: dimensionSchema.optional() }).strict();
export type ListTagGroupsQuery = z.infer<typeof listTagGroupsQuery>;
