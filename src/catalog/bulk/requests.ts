/** Request shapes of the bulk changes (docs/api.md, Bulk changes), each next to its type. */
import { z } from 'zod';
import { idSchema } from '../../platform/ids';
import { listGoodsQuery } from '../goods/requests';
import { listFamiliesQuery } from '../families/requests';

/** The most items one bulk change takes, named or matched by a filter. */
export const MAX_BULK_ITEMS = 20_000;

/**
 * What to do with each item. One case per kind: a new kind is one more case here and one in
 * actions.ts, whose table asks for a case of every kind.
 */
export const bulkAction = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('setCountry'), countryId: idSchema.nullable() }).strict(),
  z.object({ kind: z.literal('setCategory'), categoryId: idSchema.nullable() }).strict(),
  z
    .object({ kind: z.literal('setTags'), add: z.array(idSchema).max(200).default([]), remove: z.array(idSchema).max(200).default([]) })
    .strict()
    .refine((a) => a.add.length + a.remove.length > 0, { message: 'name at least one tag to add or remove', path: ['add'] }),
  // 上架 / 下架: a family's own state on the families list, each good's on the goods list.
  z.object({ kind: z.literal('setShelf'), state: z.enum(['on', 'off']) }).strict(),
  z.object({ kind: z.literal('delete') }).strict(),
]);
export type BulkAction = z.infer<typeof bulkAction>;

/** The list's filters as GET /goods takes them (paging and order left out: a selection is a set). */
export const goodsFilter = listGoodsQuery.pick({ countryId: true, categoryId: true, familyId: true, keyword: true, tagIds: true, custom: true, shelf: true }).strict();
export const familiesFilter = listFamiliesQuery.pick({ keyword: true, locked: true, manual: true, priced: true, countryId: true, shelf: true }).strict();

const ids = z
  .array(idSchema)
  .min(1)
  .max(MAX_BULK_ITEMS)
  .refine((a) => new Set(a).size === a.length, { message: 'name each item once' });

/** A selection named by ids, or "every item the list's filter matches now", and the action. */
const selection = <F extends z.ZodObject>(filter: F) => z.union([z.object({ ids, action: bulkAction }).strict(), z.object({ filter, action: bulkAction }).strict()]);

export const bulkGoodsBody = selection(goodsFilter);
export type BulkGoodsBody = z.infer<typeof bulkGoodsBody>;
export const bulkFamiliesBody = selection(familiesFilter);
export type BulkFamiliesBody = z.infer<typeof bulkFamiliesBody>;

/** The selection alone, for the impact a delete would have. */
export const goodsSelection = z.union([z.object({ ids }).strict(), z.object({ filter: goodsFilter }).strict()]);
export const familiesSelection = z.union([z.object({ ids }).strict(), z.object({ filter: familiesFilter }).strict()]);

/** POST /countries/:id/replace and the same of categories and tags: who takes over its users. */
export const replaceBody = z.object({ replaceWith: idSchema }).strict();
export type ReplaceBody = z.infer<typeof replaceBody>;
