/** Goods as the admin API answers them (docs/api.md). */
import { z } from 'zod';

export const good = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    image: z.string().nullable(),
    goodPriority: z.number().int(),
    tagIds: z.array(z.string()),
    tagFontColor: z.string().nullable(),
    categoryId: z.string().nullable(),
    countryId: z.string().nullable(),
    familyId: z.string().nullable(),
    originGoodId: z.string().nullable(),
    secondaryOriginGoodIds: z.array(z.string()),
    originGood: z
      .object({ id: z.string(), name: z.string(), delisted: z.boolean(), family: z.object({ id: z.string(), memberCount: z.number().int() }).nullable() })
      .nullable()
      .optional(),
    /** its own price (its link's, or as a custom member), and whether the storefront shows it (in a family) */
    price: z.string().nullable().optional(),
    public: z.boolean().optional(),
    createdAt: z.string().optional(),
    updatedAt: z.string().optional(),
    revision: z.string(),
  })
  .meta({ id: 'Good' });
export type Good = z.infer<typeof good>;

export const treeGood = z.object({ id: z.string(), name: z.string() });
export type TreeGood = z.infer<typeof treeGood>;

// GET /goods/tree: a category holds families (with their goods) and, in one node, the goods without a family.
export const treeItem = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('family'),
    id: z.string(),
    name: z.string(),
    configurationCount: z.number().int(),
    memberCount: z.number().int(),
    goods: z.array(treeGood).optional(),
  }),
  z.object({ kind: z.literal('goods'), goods: z.array(treeGood) }),
]);
export type TreeItem = z.infer<typeof treeItem>;

export const treeCountry = z.object({
  id: z.string().nullable(),
  name: z.string().nullable(),
  categories: z.array(z.object({ id: z.string().nullable(), name: z.string().nullable(), items: z.array(treeItem) })),
});
export type TreeCountry = z.infer<typeof treeCountry>;

/** POST /goods/batch: the goods made, and the links skipped with the reason. */
export const batchAnswer = z.object({
  created: z.array(z.string()),
  skipped: z.array(z.object({ originGoodId: z.string(), code: z.string(), message: z.string() })),
});
export type BatchAnswer = z.infer<typeof batchAnswer>;

/** GET /goods/tree */
export const goodsTree = z.object({ items: z.array(treeCountry) });
