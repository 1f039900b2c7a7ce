/** Request shapes of /tags, each next to its type. */
import { z } from 'zod';
import { colourField } from '../../platform/http/fields';
import { pageQuery } from '../../platform/http/pagination';
import { idSchema } from '../../platform/ids';
import { nameField, sortOrderField } from '../request-fields';

const colorField = colourField().nullable();

export const createTagBody = z
  .object({
    name: nameField(),
    groupId: idSchema,
    /** default: after every existing tag */
    sortOrder: sortOrderField.optional(),
    color: colorField.default(null),
  })
  .strict();
export type CreateTagBody = z.infer<typeof createTagBody>;
/** What the create command takes from other slices too (organisation creates derived tags): colour optional. */
export type CreateTagInput = Omit<CreateTagBody, 'color'> & { color?: string | null };

export const updateTagBody = z.object({ name: nameField().optional(), groupId: idSchema.optional(), sortOrder: sortOrderField.optional(), color: colorField.optional() }).strict();
export type UpdateTagBody = z.infer<typeof updateTagBody>;

/** The full new order of all tags. */
export const sortTagsBody = z.object({ ids: z.array(idSchema).max(100_000) }).strict();
export type SortTagsBody = z.infer<typeof sortTagsBody>;

export const listTagsQuery = pageQuery.extend({ groupId: idSchema.optional() }).strict();
export type ListTagsQuery = z.infer<typeof listTagsQuery>;
