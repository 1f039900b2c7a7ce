/**
 * The public shapes (docs/api.md, Public), built from read-model rows. Pure: the SQL lives in
 * ./queries.ts; everything here is testable without a database.
 */
import { DIMENSIONS, sortDimensionValues, type Dimension } from '../catalog/domain/tags';
import { minMoney } from '../catalog/domain/money';
import type { MediaImage, PublicCategoryNode, PublicCell, PublicGoodDetail, PublicGoodItem, PublicPriceMatrix, PublicTag } from '../contract/storefront';

// Declared once for the service and the H5 client, which shows these answers.
export type { MediaImage, PublicCategoryNode, PublicCell, PublicGoodDetail, PublicGoodItem, PublicPriceMatrix, PublicTag };

/** A live tag as the storefront names it. */
export interface TagInfo {
  id: string;
  name: string;
  sortOrder: number;
  /** the dimension of its group, if the group has one */
  dimension: string | null;
}

/** Live tags by id, plus the size and colour sort orders the price matrix needs (keyed by tag name). */
export class TagDictionary {
  private readonly byId = new Map<string, TagInfo>();
  private readonly byList = new Map<string, PublicTag[]>();
  readonly sizeOrder = new Map<string, number>();
  readonly colorOrder = new Map<string, number>();

  /** `tags` ordered by sortOrder, then id: names shared by two tags take the first one's order. */
  constructor(private readonly tags: readonly TagInfo[]) {
    for (const t of tags) {
      this.byId.set(t.id, t);
      const order = t.dimension === 'size' ? this.sizeOrder : t.dimension === 'color' ? this.colorOrder : null;
      if (order && !order.has(t.name)) order.set(t.name, t.sortOrder);
    }
  }

  /**
   * Equal for dictionaries of equal tags: what the list's kept items (./list-bytes.ts) were named
   * under. Written on first use: only a list load asks, not every detail or home load.
   */
  get key(): string {
    return (this.keyText ??= JSON.stringify(this.tags));
  }
  private keyText: string | undefined;

  /**
   * tagsOf for ids joined by commas, remembered per distinct list: goods repeat the same few tag sets
   * (sizes, colours), so a list of 30 000 families resolves a few hundred. Callers share the
   * returned arrays and must not change them.
   */
  tagsOfList(csv: string): PublicTag[] {
    let tags = this.byList.get(csv);
    if (!tags) this.byList.set(csv, (tags = csv === '' ? [] : this.tagsOf(csv.split(','))));
    return tags;
  }

  /** A good's tags as the storefront shows them: live ones only, by tag sort order, then id. */
  tagsOf(tagIds: readonly string[]): PublicTag[] {
    const found: TagInfo[] = [];
    const seen = new Set<string>();
    for (const id of tagIds) {
      const t = this.byId.get(id);
      if (t && !seen.has(id)) {
        seen.add(id);
        found.push(t);
      }
    }
    found.sort((a, b) => a.sortOrder - b.sortOrder || compareIds(a.id, b.id));
    return found.map((t) => ({ id: t.id, name: t.name }));
  }
}

export function compareIds(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length; // canonical decimals: longer is larger
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A public family as read for the list and home: the family and its representative good's fields. */
export interface FamilyItemRow {
  id: string;
  name: string;
  image: string | null;
  price: string | null;
  country_id: string | null;
  category_id: string | null;
  /** the good's tag ids joined by commas ('' for none): cheaper to read than a PostgreSQL array */
  tag_ids: string;
  tag_font_color: string | null;
}

export function toItem(row: FamilyItemRow, tags: TagDictionary): PublicGoodItem {
  return {
    goodId: row.id,
    name: row.name,
    image: row.image,
    price: row.price,
    countryId: row.country_id,
    categoryId: row.category_id,
    tags: tags.tagsOfList(row.tag_ids),
    tagFontColor: row.tag_font_color,
  };
}

// ------------------------------------------------------------------------------------ price matrix

/** `families.price_matrix` as the catalog projection stores it (`{}` before the first recompute). */
export interface StoredPriceMatrix {
  sizes?: string[];
  colors?: string[];
  printCounts?: string[];
  crafts?: string[];
  logistics?: string[];
  cells?: PublicCell[];
  invalidOverrides?: unknown;
}

const AXES = { size: 'sizes', color: 'colors', printCount: 'printCounts', craft: 'crafts', logistics: 'logistics' } as const satisfies Record<Dimension, keyof PublicPriceMatrix>;

/**
 * The public `priceMatrix`. The family row stores sizes and colours in first-encounter order (the
 * catalog projection does not read tags), so they are ordered here by the size and colour tags' sort
 * order, then first encounter (docs/domain.md, Price matrix): a tag reorder then shows on the next read
 * without recomputing any family. printCounts, crafts and logistics are re-sorted by the display order
 * too, which leaves the stored order as it is. Cells follow the axes: size, colour, printCount,
 * craft, logistics. Only the public fields leave (no invalidOverrides, no base prices).
 */
export function publicPriceMatrix(stored: StoredPriceMatrix, tags: Pick<TagDictionary, 'sizeOrder' | 'colorOrder'>): PublicPriceMatrix {
  const axis = (d: Dimension): string[] => sortDimensionValues(d, stored[AXES[d]] ?? [], d === 'size' ? tags.sizeOrder : d === 'color' ? tags.colorOrder : undefined);
  const axes = {} as Record<Dimension, string[]>;
  const rank = {} as Record<Dimension, Map<string, number>>;
  for (const d of DIMENSIONS) {
    axes[d] = axis(d);
    rank[d] = new Map(axes[d].map((v, i) => [v, i]));
  }
  const cells = (stored.cells ?? []).map((c) => ({
    size: c.size,
    color: c.color,
    printCount: c.printCount,
    craft: c.craft,
    logistics: c.logistics,
    price: c.price,
  }));
  cells.sort((a, b) => {
    for (const d of DIMENSIONS) {
      const diff = (rank[d].get(a[d]) ?? Number.MAX_SAFE_INTEGER) - (rank[d].get(b[d]) ?? Number.MAX_SAFE_INTEGER);
      if (diff !== 0) return diff;
    }
    return 0;
  });
  return { sizes: axes.size, colors: axes.color, printCounts: axes.printCount, crafts: axes.craft, logistics: axes.logistics, cells };
}

// ----------------------------------------------------------------------------------- category tree

export interface CategoryRow {
  id: string;
  parent_id: string | null;
  name: string;
  effective_icon: string | null;
  sort_order: number;
}

export interface CategoryStatsRow {
  category_id: string;
  families: number;
  lowest_price: string | null;
}

const bySortOrder = (a: { sort_order: number; id: string }, b: { sort_order: number; id: string }) => a.sort_order - b.sort_order || compareIds(a.id, b.id);

/**
 * Children of each parent ("root" for the top level), by sortOrder then id, keeping only categories
 * reachable from the roots (a category under a removed one is not shown either). The category
 * tree, tree-order and the family counts all use this one walk, so they agree.
 */
export function categoryChildren(rows: readonly CategoryRow[]): Map<string, CategoryRow[]> {
  const ids = new Set(rows.map((r) => r.id));
  const children = new Map<string, CategoryRow[]>();
  for (const r of rows) {
    let parent: string;
    if (r.parent_id === null) parent = 'root';
    else if (ids.has(r.parent_id)) parent = r.parent_id;
    else continue; // its parent is removed (or unknown): so is the subtree, publicly
    let list = children.get(parent);
    if (!list) children.set(parent, (list = []));
    list.push(r);
  }
  for (const list of children.values()) list.sort(bySortOrder);
  // Drop what is not reachable from the root (a cycle would be, in a read model mid-rebuild).
  const reachable = new Map<string, CategoryRow[]>();
  const walk = (key: string, depth: number) => {
    const list = children.get(key);
    if (!list || depth > 32) return;
    reachable.set(key, list);
    for (const c of list) walk(c.id, depth + 1);
  };
  walk('root', 0);
  return reachable;
}

/**
 * The nested tree with, per node, the number of public families whose category is the node or one of
 * its descendants, and the lowest of their prices (null when none has a price).
 */
export function categoryTree(rows: readonly CategoryRow[], stats: readonly CategoryStatsRow[]): PublicCategoryNode[] {
  const children = categoryChildren(rows);
  const own = new Map(stats.map((s) => [s.category_id, s]));
  const build = (c: CategoryRow): PublicCategoryNode => {
    const kids = (children.get(c.id) ?? []).map(build);
    const mine = own.get(c.id);
    const prices = [mine?.lowest_price, ...kids.map((k) => k.lowestPrice)].filter((p): p is string => p !== null && p !== undefined);
    return {
      id: c.id,
      name: c.name,
      icon: c.effective_icon,
      sortOrder: c.sort_order,
      familyCount: (mine?.families ?? 0) + kids.reduce((n, k) => n + k.familyCount, 0),
      lowestPrice: minMoney(prices),
      children: kids,
    };
  };
  return (children.get('root') ?? []).map(build);
}

/** `{countries:[id…], categories:{<parentId or "root">:[id…]}}` (docs/api.md). */
export function treeOrder(countryIds: string[], rows: readonly CategoryRow[]): { countries: string[]; categories: Record<string, string[]> } {
  const categories: Record<string, string[]> = {};
  for (const [parent, list] of categoryChildren(rows)) categories[parent] = list.map((c) => c.id);
  return { countries: countryIds, categories };
}

// -------------------------------------------------------------------------------------------- home

export interface PositionGoodRow {
  position_id: string;
  position_name: string;
  /** null: the position holds no goods (or none with a public family) */
  family_id: string | null;
}

/**
 * Positions in the given order, each with one entry per family (the first good placed of a family
 * decides where the family shows; later goods of the same family add nothing). A family that is not
 * public (no item given for it) is left out.
 */
export function homePositions(rows: readonly PositionGoodRow[], items: ReadonlyMap<string, PublicGoodItem>): { id: string; name: string; items: PublicGoodItem[] }[] {
  const out: { id: string; name: string; items: PublicGoodItem[]; seen: Set<string> }[] = [];
  for (const r of rows) {
    let p = out[out.length - 1];
    if (!p || p.id !== r.position_id) out.push((p = { id: r.position_id, name: r.position_name, items: [], seen: new Set() }));
    if (r.family_id === null || p.seen.has(r.family_id)) continue;
    const item = items.get(r.family_id);
    if (!item) continue;
    p.seen.add(r.family_id);
    p.items.push(item);
  }
  return out.map(({ id, name, items: list }) => ({ id, name, items: list }));
}

// ------------------------------------------------------------------------------------------ detail

/** A public family's row: the family's materialised aggregates and its representative good's fields. */
export interface FamilyDetailRow {
  id: string;
  name: string;
  image: string | null;
  description: string | null;
  country_id: string | null;
  category_id: string | null;
  tag_ids: string[];
  lowest_price: string | null;
  variants: { size: string; color: string; price: string; sku: string }[];
  size_chart: unknown[];
  packaging_specs: unknown[];
  /** absent in rows read before the column existed */
  options?: { name: string; values: string[] }[];
  price_matrix: StoredPriceMatrix;
  media_by_color: Record<string, MediaImage[]>;
}

/**
 * The public detail (docs/api.md, Public): common fields from the representative good; variants, size chart,
 * packaging specs, options, matrix and media from the family's materialised unions (the catalog
 * projection merges every contributing member link and then the secondary origins of the family's
 * goods into them; the matrix alone comes from the member links' tags). The stored JSON is jsonb, whose object keys come back in
 * jsonb's own order, so colours are put in the matrix's colour order (tag sort order, then first
 * encounter), and each object is rebuilt with the field order of the contract.
 */
export function goodDetail(row: FamilyDetailRow, tags: TagDictionary): PublicGoodDetail {
  const priceMatrix = publicPriceMatrix(row.price_matrix, tags);
  const stored = row.media_by_color ?? {};
  const colorKeys = [...new Set([...priceMatrix.colors, ...sortDimensionValues('color', Object.keys(stored), tags.colorOrder)])].filter((c) =>
    Object.prototype.hasOwnProperty.call(stored, c),
  );
  // fromEntries defines own properties, so even a colour named `__proto__` stays data.
  const mediaByColor: Record<string, MediaImage[]> = Object.fromEntries(
    colorKeys.map((color) => [color, (stored[color] ?? []).map((m) => ({ id: m.id, url: m.url, sortOrder: m.sortOrder }))]),
  );
  return {
    goodId: row.id,
    name: row.name,
    image: row.image,
    description: row.description,
    countryId: row.country_id,
    categoryId: row.category_id,
    tags: tags.tagsOf(row.tag_ids),
    lowestPrice: row.lowest_price,
    variants: (row.variants ?? []).map((v) => ({ size: v.size, color: v.color, price: v.price, sku: v.sku })),
    sizeChart: row.size_chart ?? [],
    packagingSpecs: row.packaging_specs ?? [],
    options: (row.options ?? []).map((o) => ({ name: o.name, values: [...o.values] })),
    priceMatrix,
    mediaByColor,
  };
}
