/** Request shapes of /origin-goods, each next to its type. */
import { z } from 'zod';
import { pageQuery } from '../../platform/http/pagination';
import { idListParam, idSchema } from '../../platform/ids';

export const linkTagsBody = z.object({ tagIds: z.array(idSchema).max(200) }).strict();
export type LinkTagsBody = z.infer<typeof linkTagsBody>;

const bool = z.enum(['true', 'false']).transform((v) => v === 'true');
export const listLinksQuery = pageQuery
  .extend({
    organised: bool.optional(),
    delisted: bool.optional(),
    familyId: idSchema.optional(),
    keyword: z.string().max(100).optional(),
    /** `1,2,3`: these links only (a client naming the links it shows, in one request) */
    ids: idListParam(1000).optional(),
  })
  .strict();
export type ListLinksQuery = z.infer<typeof listLinksQuery>;
