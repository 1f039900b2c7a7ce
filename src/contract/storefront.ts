/** The public shapes the storefront answers and the H5 client shows (docs/api.md, Public). */
import { z } from 'zod';
import { searchPageOf } from './page';

export const publicTag = z.object({ id: z.string(), name: z.string() });
export type PublicTag = z.infer<typeof publicTag>;

/** One entry of the list and of home positions: a family, shown through its representative good. */
export const publicGoodItem = z
  .object({
    goodId: z.string(),
    name: z.string(),
    image: z.string().nullable(),
    price: z.string().nullable(),
    countryId: z.string().nullable(),
    categoryId: z.string().nullable(),
    tags: z.array(publicTag),
    tagFontColor: z.string().nullable(),
  })
  .meta({ id: 'PublicGoodItem' });
export type PublicGoodItem = z.infer<typeof publicGoodItem>;

/** A cell of a price matrix: its five dimension values and its price. */
export const publicCell = z
  .object({ size: z.string(), color: z.string(), printCount: z.string(), craft: z.string(), logistics: z.string(), price: z.string() })
  .meta({ id: 'PriceCell' });
export type PublicCell = z.infer<typeof publicCell>;

export const publicPriceMatrix = z.object({
  sizes: z.array(z.string()),
  colors: z.array(z.string()),
  printCounts: z.array(z.string()),
  crafts: z.array(z.string()),
  logistics: z.array(z.string()),
  cells: z.array(publicCell),
});
export type PublicPriceMatrix = z.infer<typeof publicPriceMatrix>;

export interface PublicCategoryNode {
  id: string;
  name: string;
  icon: string | null;
  sortOrder: number;
  familyCount: number;
  lowestPrice: string | null;
  children: PublicCategoryNode[];
}
export const publicCategoryNode: z.ZodType<PublicCategoryNode> = z
  .object({
    id: z.string(),
    name: z.string(),
    icon: z.string().nullable(),
    sortOrder: z.number().int(),
    familyCount: z.number().int(),
    lowestPrice: z.string().nullable(),
    get children() {
      return z.array(publicCategoryNode);
    },
  })
  .meta({ id: 'PublicCategoryNode' });

export const mediaImage = z.object({ id: z.string(), url: z.string(), sortOrder: z.number().int() });
export type MediaImage = z.infer<typeof mediaImage>;

export const publicGoodDetail = z
  .object({
    goodId: z.string(),
    name: z.string(),
    image: z.string().nullable(),
    description: z.string().nullable(),
    countryId: z.string().nullable(),
    categoryId: z.string().nullable(),
    tags: z.array(publicTag),
    lowestPrice: z.string().nullable(),
    variants: z.array(z.object({ size: z.string(), color: z.string(), price: z.string(), sku: z.string() })),
    sizeChart: z.array(z.unknown()),
    packagingSpecs: z.array(z.unknown()),
    options: z.array(z.object({ name: z.string(), values: z.array(z.string()) })),
    priceMatrix: publicPriceMatrix,
    mediaByColor: z.record(z.string(), z.array(mediaImage)),
  })
  .meta({ id: 'PublicGoodDetail' });
export type PublicGoodDetail = z.infer<typeof publicGoodDetail>;

/** GET /public/goods: one item per family, filtered, sorted, paged. */
export const publicGoodsPage = searchPageOf(publicGoodItem);

/** GET /public/home: the home positions with their items. */
export const publicHome = z.object({ positions: z.array(z.object({ id: z.string(), name: z.string(), items: z.array(publicGoodItem) })) });

/** GET /public/categories/tree */
export const publicCategoryTree = z.object({ items: z.array(publicCategoryNode) });

/** GET /public/tag-groups: the groups with their tags, each with the number of public families carrying it. */
export const publicTagGroups = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      dimension: z.string().nullable(),
      tags: z.array(z.object({ id: z.string(), name: z.string(), sortOrder: z.number().int(), familyCount: z.number().int() })),
    }),
  ),
});

/** GET /public/tree-order: the countries' order, and each parent's categories (`root`: the top level). */
export const publicTreeOrder = z.object({ countries: z.array(z.string()), categories: z.record(z.string(), z.array(z.string())) });

/** GET /public/countries, by sort order. */
export const publicCountries = z.object({
  items: z.array(z.object({ id: z.string(), name: z.string(), code: z.string(), sortOrder: z.number().int(), familyCount: z.number().int() })),
});
