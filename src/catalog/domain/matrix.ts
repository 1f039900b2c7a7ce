/**
 * A family's materialised aggregates (docs/domain.md, Price matrix,
 * Unions and media, Goods and delisting): the five-dimension price matrix and
 * the unions of variants, size charts, packaging specs, options and media (member links, then the
 * secondary origins of the family's goods).
 *
 * Who contributes: only organised links that are not delisted (a delisted link stays a member but
 * contributes nothing until relisted; a link not yet organised does not enter the matrix). Every
 * function here filters and orders its links itself (`contributingLinks`), so callers pass the
 * family's members as loaded, in any order, and get the same answer: links are traversed by id
 * ascending as 64-bit integers (`'9'` before `'10'`), which makes recompute deterministic.
 *
 * Pure: same input → structurally identical output (byte-identical under `stableJson`).
 */
import { createHash } from 'node:crypto';
import type { LinkDetail } from './values';
import { minMoney, normaliseMoney } from './money';
import { DIMENSIONS, NO_PRINT, SINGLE_SIDED, distinct, sortDimensionValues, type Dimension, type DimensionValuesInput } from './tags';

export interface MatrixLink {
  /** Supplier id, a decimal 64-bit integer. */
  id: string;
  organised: boolean;
  delisted: boolean;
  /** The link's current tags: derived, or manual once an administrator took it over. */
  tags: DimensionValuesInput;
  listPrice: string;
  detail: LinkDetail | null;
}

export interface MatrixCustomMember {
  goodId: string;
  tags: DimensionValuesInput;
  price: string;
}

export interface CellKey {
  size: string;
  color: string;
  printCount: string;
  craft: string;
  logistics: string;
}

export type Override = CellKey & { price: string };

export type CellSource = { linkId: string } | { goodId: string };

export interface MatrixCell extends CellKey {
  /** Effective price: the override when there is one, else `basePrice`. */
  price: string;
  /** What the contributing link or custom member says. */
  basePrice: string;
  overridden: boolean;
  source: CellSource;
}

/** A cell produced again by a later link or custom member; the first producer's price is kept. */
export type MatrixConflict = CellSource & { key: CellKey; keptFrom: CellSource };

export interface FamilyMatrix {
  sizes: string[];
  colors: string[];
  printCounts: string[];
  crafts: string[];
  logistics: string[];
  cells: MatrixCell[];
  conflicts: MatrixConflict[];
  lowestPrice: string | null;
  /** Overrides whose five-part key names no cell of the matrix; they change nothing. */
  invalidOverrides: Override[];
}

/** The matrix's array holding each dimension's values. */
export const AXIS_OF = {
  size: 'sizes',
  color: 'colors',
  printCount: 'printCounts',
  craft: 'crafts',
  logistics: 'logistics',
} as const satisfies Record<Dimension, keyof FamilyMatrix>;

/** Orders decimal 64-bit ids numerically (`'9'` < `'10'`), which string order does not. */
export function compareIds(a: string, b: string): -1 | 0 | 1 {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * The links that feed a family's matrix and unions: organised, not delisted, by id ascending
 * (stable for equal ids).
 */
export function contributingLinks<L extends Pick<MatrixLink, 'id' | 'organised' | 'delisted'>>(links: readonly L[]): L[] {
  return links.filter((l) => l.organised && !l.delisted).sort((a, b) => compareIds(a.id, b.id));
}

/** A cell's identity; a JSON array so no value can make two keys collide. */
export function cellKey(key: CellKey): string {
  return JSON.stringify([key.size, key.color, key.printCount, key.craft, key.logistics]);
}

const keyOf = (k: CellKey): CellKey => ({
  size: k.size,
  color: k.color,
  printCount: k.printCount,
  craft: k.craft,
  logistics: k.logistics,
});

interface Contribution {
  tags: DimensionValuesInput;
  priceOf: (size: string, color: string) => string;
  source: CellSource;
}

/**
 * The printCount values one craft combines with: the member's printCount tags; without any, the
 * single-sided placeholder for 不打印 (rule 6). Another craft without a printCount tag has no
 * combination (organisation's default fill gives it 单面印花, so only hand-edited tags get here).
 */
function printCountsFor(craft: string, printCounts: readonly string[]): readonly string[] {
  if (printCounts.length > 0) return printCounts;
  return craft === NO_PRINT ? [SINGLE_SIDED] : [];
}

export interface ComputeFamilyMatrixInput {
  links: readonly MatrixLink[];
  customMembers: readonly MatrixCustomMember[];
  overrides: readonly Override[];
  /** Sort order of size and colour tags, keyed by tag name. */
  tagSortOrder?: ReadonlyMap<string, number>;
}

/**
 * The family price matrix (docs/domain.md, Price matrix):
 * - contributing links by id ascending, then custom members by goodId ascending (so the database's
 *   row order never changes the answer);
 * - each member's printCount × craft × logistics tags give its combinations; each size × colour tag
 *   pair a cell; a link's cell price is its detail's variant price for that size and colour, else
 *   its list price; a custom member's cells all take its own price;
 * - a member lacking sizes, colours, crafts or logistics contributes nothing (incomplete);
 * - the first producer of a cell wins; later ones are listed in `conflicts`, in traversal order;
 * - an override replaces the price of an existing cell (the last override of a key wins, as repeated
 *   PUTs would); an override of a missing cell is listed in `invalidOverrides`;
 * - axes hold the values that occur in cells: sizes and colours by tag sort order then first
 *   encounter, the other three by display order with unknown values after in first-encounter order;
 * - cells are ordered by size, colour, printCount, craft, logistics along those axes;
 * - prices are normalised (`'39.9'` → `'39.90'`); lowestPrice is the minimum effective price, null
 *   without cells.
 */
export function computeFamilyMatrix(input: ComputeFamilyMatrixInput): FamilyMatrix {
  const contributions: Contribution[] = [];
  for (const link of contributingLinks(input.links)) {
    const variantPrice = new Map<string, string>();
    for (const v of link.detail?.variants ?? []) {
      const k = JSON.stringify([v.size, v.color]);
      if (!variantPrice.has(k)) variantPrice.set(k, v.price);
    }
    contributions.push({
      tags: link.tags,
      priceOf: (size, color) => variantPrice.get(JSON.stringify([size, color])) ?? link.listPrice,
      source: { linkId: link.id },
    });
  }
  for (const member of [...input.customMembers].sort((a, b) => compareIds(a.goodId, b.goodId))) {
    contributions.push({ tags: member.tags, priceOf: () => member.price, source: { goodId: member.goodId } });
  }

  const produced = new Map<string, { key: CellKey; basePrice: string; source: CellSource }>();
  const conflicts: MatrixConflict[] = [];
  for (const { tags, priceOf, source } of contributions) {
    const sizes = distinct(tags.size ?? []);
    const colors = distinct(tags.color ?? []);
    const printCounts = distinct(tags.printCount ?? []);
    const crafts = distinct(tags.craft ?? []);
    const logistics = distinct(tags.logistics ?? []);
    for (const size of sizes) {
      for (const color of colors) {
        for (const craft of crafts) {
          for (const printCount of printCountsFor(craft, printCounts)) {
            for (const lg of logistics) {
              const key: CellKey = { size, color, printCount, craft, logistics: lg };
              const id = cellKey(key);
              const first = produced.get(id);
              if (first) conflicts.push({ ...source, key, keptFrom: first.source });
              else produced.set(id, { key, basePrice: normaliseMoney(priceOf(size, color)), source });
            }
          }
        }
      }
    }
  }

  const overrideByKey = new Map<string, string>();
  const invalidOverrides: Override[] = [];
  for (const o of input.overrides) {
    const id = cellKey(o);
    if (produced.has(id)) overrideByKey.set(id, normaliseMoney(o.price));
    else invalidOverrides.push({ ...keyOf(o), price: o.price });
  }

  const seen = [...produced.values()].map((c) => c.key);
  const axis = (d: Dimension): string[] =>
    sortDimensionValues(
      d,
      seen.map((k) => k[d]),
      input.tagSortOrder,
    );
  const axes = Object.fromEntries(DIMENSIONS.map((d) => [d, axis(d)])) as Record<Dimension, string[]>;
  const index = Object.fromEntries(DIMENSIONS.map((d) => [d, new Map(axes[d].map((v, i) => [v, i]))])) as Record<Dimension, Map<string, number>>;

  const cells: MatrixCell[] = [...produced.entries()].map(([id, c]) => {
    const override = overrideByKey.get(id);
    return {
      ...c.key,
      price: override ?? c.basePrice,
      basePrice: c.basePrice,
      overridden: override !== undefined,
      source: c.source,
    };
  });
  cells.sort((a, b) => {
    for (const d of DIMENSIONS) {
      const diff = index[d].get(a[d])! - index[d].get(b[d])!;
      if (diff !== 0) return diff;
    }
    return 0;
  });

  return {
    sizes: axes.size,
    colors: axes.color,
    printCounts: axes.printCount,
    crafts: axes.craft,
    logistics: axes.logistics,
    cells,
    conflicts,
    lowestPrice: minMoney(cells.map((c) => c.price)),
    invalidOverrides,
  };
}

export interface OverrideKeyIssue {
  /** The dimension whose value is not in the matrix, or `cell` when all five are but the combination is not. */
  dimension: Dimension | 'cell';
  /** The offending value; for `cell`, the five parts joined by ` / `. */
  value: string;
}

/**
 * Checks an override's five-part key against the family's matrix (docs/domain.md, Price matrix: each part must
 * be a value of its dimension in the matrix and the cell must exist; otherwise 400). Null when the
 * key names a cell; else what is wrong, for the 400 answer's details.
 */
export function validateOverrideKey(matrix: Pick<FamilyMatrix, 'sizes' | 'colors' | 'printCounts' | 'crafts' | 'logistics' | 'cells'>, key: CellKey): OverrideKeyIssue[] | null {
  const issues: OverrideKeyIssue[] = DIMENSIONS.filter((d) => !matrix[AXIS_OF[d]].includes(key[d])).map((d) => ({
    dimension: d,
    value: key[d],
  }));
  if (issues.length > 0) return issues;
  const id = cellKey(key);
  if (matrix.cells.some((c) => cellKey(c) === id)) return null;
  return [{ dimension: 'cell', value: DIMENSIONS.map((d) => key[d]).join(' / ') }];
}

/** The public detail's `priceMatrix` (docs/api.md, Public): the five axes and cells with their effective price. */
export function toPublicPriceMatrix(matrix: FamilyMatrix): {
  sizes: string[];
  colors: string[];
  printCounts: string[];
  crafts: string[];
  logistics: string[];
  cells: (CellKey & { price: string })[];
} {
  return {
    sizes: [...matrix.sizes],
    colors: [...matrix.colors],
    printCounts: [...matrix.printCounts],
    crafts: [...matrix.crafts],
    logistics: [...matrix.logistics],
    cells: matrix.cells.map((c) => ({ ...keyOf(c), price: c.price })),
  };
}

type UnionLink = Pick<MatrixLink, 'id' | 'organised' | 'delisted' | 'detail'>;

/**
 * A secondary origin merged into a family: a link that one of the family's goods lists as a merged
 * origin (docs/domain.md, Unions and media). The caller passes only those not delisted, ordered by
 * good id, then by their position in the good's list; they come after the contributing member links.
 */
export interface SecondaryOrigin {
  id: string;
  detail: Pick<LinkDetail, 'variants' | 'sizeChart' | 'packagingSpecs' | 'options'> | null;
}

/** The details the unions read, in their order: contributing member links by id, then secondary origins as given. */
function unionDetails(links: readonly UnionLink[], secondary: readonly SecondaryOrigin[]) {
  return [...contributingLinks(links).map((l) => l.detail), ...secondary.map((s) => s.detail)];
}

export interface UnionVariant {
  size: string;
  color: string;
  price: string;
  sku: string;
}

/**
 * The family's variants: one per (size, colour), taken from the first source that has it (member
 * links by id, then secondary origins), in first-encounter order (source by source, then the
 * detail's own order). Prices normalised.
 */
export function unionVariants(links: readonly UnionLink[], secondary: readonly SecondaryOrigin[] = []): UnionVariant[] {
  const byKey = new Map<string, UnionVariant>();
  for (const detail of unionDetails(links, secondary)) {
    for (const v of detail?.variants ?? []) {
      const k = JSON.stringify([v.size, v.color]);
      if (!byKey.has(k)) byKey.set(k, { size: v.size, color: v.color, price: normaliseMoney(v.price), sku: v.sku });
    }
  }
  return [...byKey.values()];
}

export type SizeChartRow = LinkDetail['sizeChart'][number];

/**
 * The family's size chart: one row per size, from the first source that has it, in first-encounter
 * order. A row without a `size` column is keyed by its whole content, so it is de-duplicated but
 * never silently dropped.
 */
export function unionSizeChart(links: readonly UnionLink[], secondary: readonly SecondaryOrigin[] = []): SizeChartRow[] {
  const byKey = new Map<string, SizeChartRow>();
  for (const detail of unionDetails(links, secondary)) {
    for (const row of detail?.sizeChart ?? []) {
      const k = typeof row.size === 'string' ? JSON.stringify(['size', row.size]) : JSON.stringify(['row', sortedEntries(row)]);
      if (!byKey.has(k)) byKey.set(k, { ...row });
    }
  }
  return [...byKey.values()];
}

function sortedEntries(row: Record<string, string>): [string, string][] {
  return Object.entries(row).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

export type PackagingSpec = LinkDetail['packagingSpecs'][number];

/** The family's packaging specs: one per name, from the first source that has it, first-encounter order. */
export function unionPackagingSpecs(links: readonly UnionLink[], secondary: readonly SecondaryOrigin[] = []): PackagingSpec[] {
  const byName = new Map<string, PackagingSpec>();
  for (const detail of unionDetails(links, secondary)) {
    for (const spec of detail?.packagingSpecs ?? []) if (!byName.has(spec.name)) byName.set(spec.name, { ...spec });
  }
  return [...byName.values()];
}

export type ProductOption = LinkDetail['options'][number];

/**
 * The family's options: one per name, in first-encounter order, its values those of every source
 * that has the option, each value once, in first-encounter order. Unlike a packaging spec (one
 * source's measurements), an option's values add up: a buyer can pick any value some member offers.
 */
export function unionOptions(links: readonly UnionLink[], secondary: readonly SecondaryOrigin[] = []): ProductOption[] {
  const byName = new Map<string, Set<string>>();
  for (const detail of unionDetails(links, secondary)) {
    for (const option of detail?.options ?? []) {
      let values = byName.get(option.name);
      if (!values) byName.set(option.name, (values = new Set()));
      for (const v of option.values) values.add(v);
    }
  }
  return [...byName.entries()].map(([name, values]) => ({ name, values: [...values] }));
}

const MEDIA_ID_FLOOR = 1n << 62n;

/**
 * A media image's id: 2^62 + the first 60 bits of sha256(url), as a decimal string. Deterministic,
 * so recompute gives an image the same id every time; the range [2^62, 2^62 + 2^60) lies above the
 * service's time-based ids (2^50 + ms << 22, below 2^62 for decades) and the supplier's ids, and
 * within int64.
 */
export function mediaId(url: string): string {
  const first60 = BigInt(`0x${createHash('sha256').update(url, 'utf8').digest('hex').slice(0, 15)}`);
  return (MEDIA_ID_FLOOR + first60).toString();
}

export interface MediaImage {
  id: string;
  url: string;
  sortOrder: number;
}

export type MediaSource = { linkId: string; media: readonly LinkDetail['media'][number][] };

/**
 * The public detail's `mediaByColor`: every source merged in the order given (the caller lists the
 * family's contributing member links by id ascending, then the secondary origins of its goods — use
 * `contributingLinks` for the first part), the same URL kept once (first wins), grouped by colour
 * in first-encounter order. Within a colour, images are ordered by the supplier's `sort`, then first
 * encounter, and `sortOrder` is the 0-based position.
 */
export function mediaByColor(sources: readonly MediaSource[]): Record<string, MediaImage[]> {
  const seenUrls = new Set<string>();
  const byColor = new Map<string, { url: string; sort: number; encounter: number }[]>();
  let encounter = 0;
  for (const source of sources) {
    for (const m of source.media) {
      if (seenUrls.has(m.url)) continue;
      seenUrls.add(m.url);
      let list = byColor.get(m.color);
      if (!list) byColor.set(m.color, (list = []));
      list.push({ url: m.url, sort: m.sort, encounter: encounter++ });
    }
  }
  return Object.fromEntries(
    [...byColor.entries()].map(([color, list]) => [
      color,
      list.sort((a, b) => a.sort - b.sort || a.encounter - b.encounter).map((m, i) => ({ id: mediaId(m.url), url: m.url, sortOrder: i })),
    ]),
  );
}
