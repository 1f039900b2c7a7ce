/** Request shapes of /goods, each next to its type. */
import { z } from 'zod';
import { keywordField } from '../request-fields';
import { colourField, imageField, int32Field, visibleName } from '../../platform/http/fields';
import { pageQuery } from '../../platform/http/pagination';
import { idListParam, idSchema } from '../../platform/ids';
import { MAX_TAG_FILTER, PUBLIC_SORTS } from '../domain/ordering';
import type { GoodFields } from './state';

/** The values the storefront shows follow src/platform/http/fields.ts (docs/http-contract.md). */
const fields = {
  name: visibleName(200),
  description: z.string().max(5000).nullable(),
  image: imageField().nullable(),
  goodPriority: int32Field(),
  tagIds: z.array(idSchema).max(200),
  tagFontColor: colourField().nullable(),
  categoryId: idSchema.nullable(),
  countryId: idSchema.nullable(),
};

export const createGoodBody = z
  .object({ originGoodId: idSchema.optional(), ...fields })
  .partial()
  .strict();
/** What the create commands take (the batch and the start-up demo too): the body's fields, all optional. */
export type CreateGoodInput = Partial<GoodFields> & { originGoodId?: string };

export const updateGoodBody = z.object(fields).partial().strict();
export type UpdateGoodBody = z.infer<typeof updateGoodBody>;

export const batchGoodsBody = z.union([
  z.object({ originGoodIds: z.array(idSchema).min(1).max(1000) }).strict(),
  z.object({ goods: z.array(createGoodBody).min(1).max(1000) }).strict(),
]);
export type BatchGoodsBody = z.infer<typeof batchGoodsBody>;

export const goodOriginsBody = z.object({ secondaryOriginGoodIds: z.array(idSchema).max(100) }).strict();
export type GoodOriginsBody = z.infer<typeof goodOriginsBody>;

/** 上架 (`on`) / 下架 (`off`) (docs/domain.md, Public catalog). */
export const goodShelfBody = z.object({ state: z.enum(['on', 'off']) }).strict();

export const listGoodsQuery = pageQuery
  .extend({
    countryId: idSchema.optional(),
    categoryId: idSchema.optional(),
    familyId: idSchema.optional(),
    keyword: keywordField.optional(),
    /** `1,2,3`: goods carrying every one of these tags (the public filter, on the good's own tags) */
    tagIds: idListParam(MAX_TAG_FILTER).optional(),
    /** the public sorts, on goods (docs/api.md, Administrator); without it, by id */
    sort: z.enum(PUBLIC_SORTS).optional(),
    /** true: custom goods only (no primary link); false: goods made from a link only */
    custom: z.enum(['true', 'false']).optional(),
    /** `1,2,3`: these goods only (a client naming the goods it shows, in one request) */
    ids: idListParam(1000).optional(),
    /** on: 上架; off: 下架 */
    shelf: z.enum(['on', 'off']).optional(),
  })
  .strict();
export type ListGoodsQuery = z.infer<typeof listGoodsQuery>;
