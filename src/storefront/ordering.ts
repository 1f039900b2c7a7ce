/**
 * The orders of the public goods list (docs/domain.md, Ordering):
 * - DEFAULT: country sortOrder, then the middle category's sortOrder, then the style category's
 *   sortOrder (each as a rank computed by the query, ties broken by id), then the representative's
 *   goodPriority descending, then the family id;
 * - PRICE_ASC / PRICE_DESC: the family's lowest price (no price last), then DEFAULT;
 * - NEWEST: the representative's createdAt descending, then DEFAULT.
 * Missing ranks (no country, no category, a top-level category) sort last. The order is total: the
 * family id decides last, so equal inputs always give the same list.
 */
import type { PublicSort } from './requests';
import { compareIds } from './views';

export interface ListSortKeys {
  id: string;
  country_rank: number | null;
  category_rank: number | null;
  priority: number;
  /** the representative's createdAt in microseconds; read for NEWEST only */
  created_us?: number;
  /** the lowest price (null: none); read for PRICE_ASC and PRICE_DESC only */
  price_key?: number | null;
}

type Compare = (a: ListSortKeys, b: ListSortKeys) => number;

const ascNullsLast = (a: number | null, b: number | null): number => (a === null ? (b === null ? 0 : 1) : b === null ? -1 : a - b);
const descNullsLast = (a: number | null, b: number | null): number => (a === null ? (b === null ? 0 : 1) : b === null ? -1 : b - a);

const byDefault: Compare = (a, b) =>
  ascNullsLast(a.country_rank, b.country_rank) || ascNullsLast(a.category_rank, b.category_rank) || b.priority - a.priority || compareIds(a.id, b.id);

export const COMPARE: Record<PublicSort, Compare> = {
  DEFAULT: byDefault,
  PRICE_ASC: (a, b) => ascNullsLast(a.price_key ?? null, b.price_key ?? null) || byDefault(a, b),
  PRICE_DESC: (a, b) => descNullsLast(a.price_key ?? null, b.price_key ?? null) || byDefault(a, b),
  NEWEST: (a, b) => (b.created_us ?? 0) - (a.created_us ?? 0) || byDefault(a, b),
};

/** Sorts in place and returns the array. */
export function sortFamilies<T extends ListSortKeys>(rows: T[], sort: PublicSort): T[] {
  return rows.sort(COMPARE[sort]);
}
