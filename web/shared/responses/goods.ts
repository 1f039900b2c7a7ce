/** Goods as the admin API answers them (docs/api.md). */

export interface Good {
  id: string; name: string; description: string | null; image: string | null; goodPriority: number; tagIds: string[]; tagFontColor: string | null;
  categoryId: string | null; countryId: string | null; familyId: string | null; originGoodId: string | null;
  secondaryOriginGoodIds: string[]; originGood?: { id: string; name: string; delisted: boolean; family: { id: string; memberCount: number } | null } | null;
  /** its own price (its link's, or as a custom member), and whether the storefront shows it (in a family) */
  price?: string | null; public?: boolean;
}

export interface TreeGood { id: string; name: string }
// GET /goods/tree: a category holds families (with their goods) and, in one node, the goods without a family.
export type TreeItem =
  | { kind: 'family'; id: string; name: string; configurationCount: number; memberCount: number; goods?: TreeGood[] }
  | { kind: 'goods'; goods: TreeGood[] };
export interface TreeCountry { id: string | null; name: string | null; categories: { id: string | null; name: string | null; items: TreeItem[] }[] }

/** POST /goods/batch: the goods made, and the links skipped with the reason. */
export interface BatchAnswer { created: string[]; skipped: { originGoodId: string; code: string; message: string }[] }
