/** Request shapes of /origin-goods, each next to its type. */
import { z } from 'zod';
import { keywordField } from '../request-fields';
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
    keyword: keywordField.optional(),
    /** filed under this supplier category (that one, not its subcategories) */
    categoryId: idSchema.optional(),
    /** whose name organisation parsed to this country (by the country's name) */
    countryId: idSchema.optional(),
    /** whose tags hold this dimension tag's name in its group's dimension */
    tagId: idSchema.optional(),
    /** true: parsed, but missing a dimension a price needs (craft or logistics) */
    incomplete: bool.optional(),
    /** false: no good was made from it yet */
    hasGood: bool.optional(),
    /** true: in a family (a good made from it joins that family); false: in none (its good would not show in the shop) */
    hasFamily: bool.optional(),
    /** `1,2,3`: these links only (a client naming the links it shows, in one request) */
    ids: idListParam(1000).optional(),
  })
  .strict();
export type ListLinksQuery = z.infer<typeof listLinksQuery>;
