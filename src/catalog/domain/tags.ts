/**
 * Dimension tags of links (docs/domain.md, Tags and dimensions, rules 1–6, and its manual
 * takeover; Link names and Price matrix). Pure: derivation reads only the parsed name and
 * the synced detail it is given.
 */
import type { LinkDetail } from './values';
import type { ParsedLinkName } from './names';

export const DIMENSIONS = ['size', 'color', 'printCount', 'craft', 'logistics'] as const;
export type Dimension = (typeof DIMENSIONS)[number];

/** The closed vocabularies, in display order (docs/domain.md, Tags and dimensions). */
export const DISPLAY_ORDER = {
  printCount: ['单面印花', '双面印花'],
  craft: ['烫画', '直喷', '不打印', '热转印'],
  logistics: ['不包邮', '包邮'],
} as const satisfies Record<'printCount' | 'craft' | 'logistics', readonly string[]>;

export const SINGLE_SIDED = '单面印花';
export const DOUBLE_SIDED = '双面印花';
export const NO_PRINT = '不打印';

export type DimensionValues = Record<Dimension, string[]>;
/** What callers may pass: any dimension may be absent (treated as no tags). */
export type DimensionValuesInput = Partial<Record<Dimension, readonly string[]>>;

export function emptyDimensionValues(): DimensionValues {
  return { size: [], color: [], printCount: [], craft: [], logistics: [] };
}

/** Distinct values in first-encounter order. */
export function distinct(values: Iterable<string>): string[] {
  return [...new Set(values)];
}

/**
 * Words recognised inside descriptors, longest first so `单面印花` is read before `单面` (both mean the
 * same, the order only keeps the scan simple). 热转印 is its own craft, never 烫画 (rule 3); 光板
 * means 不打印 (rule 2); the bare words 单面 and 双面 name a side (rule 4).
 */
const PRINT_COUNT_WORDS: readonly (readonly [string, string])[] = [
  ['单面印花', SINGLE_SIDED],
  ['双面印花', DOUBLE_SIDED],
  ['单面', SINGLE_SIDED],
  ['双面', DOUBLE_SIDED],
];
const CRAFT_WORDS: readonly (readonly [string, string])[] = [
  ['热转印', '热转印'],
  ['烫画', '烫画'],
  ['直喷', '直喷'],
  ['不打印', NO_PRINT],
  ['光板', NO_PRINT],
];

/** Dimensions whose absence makes a link `incomplete` (it contributes no matrix cell). */
export const REQUIRED_FOR_MATRIX = ['craft', 'logistics'] as const satisfies readonly Dimension[];

export interface DerivedLinkTags {
  values: DimensionValues;
  /** `craft` and/or `logistics` when the derivation found none: organisation reports the link as incomplete. */
  missing: Dimension[];
}

/** What tag derivation reads of a link's detail: each variant's size and colour, in the detail's order. */
export interface VariantDimensions {
  variants: readonly Pick<LinkDetail['variants'][number], 'size' | 'color'>[];
}

/**
 * The single-link derivation used by organisation and by restore-auto.
 * - printCount and craft come from the descriptors only (a product name such as `双面绒卫衣` says
 *   nothing about printing); a descriptor may hold both (`直喷双面` → 直喷 + 双面印花).
 * - logistics is the parsed logistics as written, also outside the vocabulary (`海运`).
 * - Default fill (rule 5): no side named and a craft other than 不打印 (or no craft at all) →
 *   单面印花. A link whose only craft is 不打印 gets no printCount; the matrix puts a placeholder
 *   there (rule 6).
 * - size and color are the distinct sizes and colours of the detail's variants, first encounter
 *   first; none without a synced detail. Empty strings are not values.
 * Vocabulary dimensions come out in display order.
 */
export function deriveLinkTags(parsed: Pick<ParsedLinkName, 'logistics' | 'descriptors'>, detail: VariantDimensions | null): DerivedLinkTags {
  const printCounts = new Set<string>();
  const crafts = new Set<string>();
  for (const descriptor of parsed.descriptors) {
    for (const [word, value] of PRINT_COUNT_WORDS) if (descriptor.includes(word)) printCounts.add(value);
    for (const [word, value] of CRAFT_WORDS) if (descriptor.includes(word)) crafts.add(value);
  }
  const onlyNoPrint = crafts.size > 0 && [...crafts].every((c) => c === NO_PRINT);
  if (printCounts.size === 0 && !onlyNoPrint) printCounts.add(SINGLE_SIDED);

  const logistics = parsed.logistics.trim();
  const variants = detail?.variants ?? [];
  const values: DimensionValues = {
    size: distinct(variants.map((v) => v.size).filter((s) => s !== '')),
    color: distinct(variants.map((v) => v.color).filter((c) => c !== '')),
    printCount: sortDimensionValues('printCount', [...printCounts]),
    craft: sortDimensionValues('craft', [...crafts]),
    logistics: logistics === '' ? [] : [logistics],
  };
  return { values, missing: REQUIRED_FOR_MATRIX.filter((d) => values[d].length === 0) };
}

export interface FilledDimensionTag {
  dimension: Dimension;
  value: string;
}

/**
 * updateTags (docs/domain.md, Tags and dimensions: manual takeover): the administrator's tags are kept exactly; each dimension group
 * they leave empty is filled from the link's derivation. `filled` lists what was added, dimension
 * by dimension in DIMENSIONS order, so the answer's `filledDimensionTags` is stable.
 */
export function fillMissingDimensions(manual: DimensionValuesInput, derived: DimensionValuesInput): { values: DimensionValues; filled: FilledDimensionTag[] } {
  const values = emptyDimensionValues();
  const filled: FilledDimensionTag[] = [];
  for (const dimension of DIMENSIONS) {
    const own = manual[dimension] ?? [];
    if (own.length > 0) {
      values[dimension] = [...own];
      continue;
    }
    const fill = distinct(derived[dimension] ?? []);
    values[dimension] = fill;
    for (const value of fill) filled.push({ dimension, value });
  }
  return { values, filled };
}

/**
 * Orders one dimension's values, duplicates removed (first occurrence counts):
 * - printCount, craft, logistics by display order; values outside the vocabulary after them, in
 *   first-encounter order (rule 1: `海运` comes after 不包邮 and 包邮);
 * - size and color by the tags' sort order when one is given (values without one after those that
 *   have one; equal sort orders keep first encounter), else first encounter.
 * `tagSortOrder` is keyed by tag name.
 */
export function sortDimensionValues(dimension: Dimension, values: readonly string[], tagSortOrder?: ReadonlyMap<string, number>): string[] {
  const unique = distinct(values);
  const rank = (value: string): number | undefined => {
    switch (dimension) {
      case 'printCount':
      case 'craft':
      case 'logistics': {
        const i = (DISPLAY_ORDER[dimension] as readonly string[]).indexOf(value);
        return i < 0 ? undefined : i;
      }
      case 'size':
      case 'color':
        return tagSortOrder?.get(value);
      default: {
        const never: never = dimension;
        throw new Error(`unknown dimension ${String(never)}`);
      }
    }
  };
  return unique
    .map((value, encounter) => ({ value, encounter, rank: rank(value) }))
    .sort((a, b) => {
      if (a.rank !== undefined && b.rank !== undefined && a.rank !== b.rank) return a.rank - b.rank;
      if (a.rank !== undefined && b.rank === undefined) return -1;
      if (a.rank === undefined && b.rank !== undefined) return 1;
      return a.encounter - b.encounter;
    })
    .map((x) => x.value);
}
