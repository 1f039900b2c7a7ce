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
    /** 上架 (on) / 下架 (off) */
    shelf: z.enum(['on', 'off']),
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

/** POST /goods/batch: the goods made, and the items skipped with the reason. */
export const batchAnswer = z.object({
  created: z.array(z.string()).meta({ description: 'the ids of the goods made, in the order of the items they were made from' }),
  skipped: z.array(
    z
      .object({
        index: z
          .number()
          .int()
          .min(0)
          .meta({ description: 'the place of the item in the request, from 0: in `originGoodIds` (a link named again: its first place), or in `goods`' }),
        originGoodId: z.string().nullable().meta({ description: 'the link the item names; null for a custom good' }),
        code: z.string().meta({ description: 'why, as an error code: `GOOD.EXISTS_FOR_LINK`, `UNKNOWN_REFERENCE` (no such link), `GOOD.NAME_REQUIRED`, …' }),
        message: z.string(),
      })
      .strict(),
  ),
  goods: z
    .array(
      z
        .object({
          id: z.string(),
          index: z.number().int().min(0).meta({ description: 'the place of the item in the request, as `skipped` gives it' }),
          originGoodId: z.string().nullable().meta({ description: 'the link it was made from; null for a custom good' }),
          family: z
            .object({ id: z.string(), name: z.string() })
            .nullable()
            .meta({ description: 'the family it joined (its link’s); null: in no family, so the shop does not show it (docs/domain.md)' }),
        })
        .strict(),
    )
    .meta({ description: 'the goods made, as `created`, each with the item it was made from and the family it joined' }),
});
export type BatchAnswer = z.infer<typeof batchAnswer>;

/** GET /goods/tree */
export const goodsTree = z.object({ items: z.array(treeCountry) });
