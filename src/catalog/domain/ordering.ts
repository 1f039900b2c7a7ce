/**
 * The catalog's public order (docs/domain.md, Ordering), shared by the storefront's list and the
 * admin goods list that sorts goods the same ways: the sorts, the cap on a tag filter, and how a
 * country's and a category's place in the default order is ranked.
 */

export const PUBLIC_SORTS = ['DEFAULT', 'PRICE_ASC', 'PRICE_DESC', 'NEWEST'] as const;
export type PublicSort = (typeof PUBLIC_SORTS)[number];

/** A filter naming more tags than any storefront shows is a client bug, not a query to run. */
export const MAX_TAG_FILTER = 20;

/**
 * The list's sort keys (src/storefront/ordering.ts sorts by them). Countries and categories are a few hundred rows,
 * so their place in the default order is ranked here once: a country by (sortOrder, id); a category
 * by its middle category's (sortOrder, id), then its style category's (sortOrder, id): a style
 * category's middle one is its parent, a middle category has no style. A top-level category, no
 * category or no country has no rank (it sorts last). dense_rank: equal keys, equal rank.
 * Prices, priorities and times travel as float8 for comparing only (exact for every amount with four
 * decimals below 10^11, for any goodPriority, which is a JSON number, and for microsecond times);
 * the answer shows the exact decimal `price`.
 */
export const RANKS = `
  co AS (SELECT id, (row_number() OVER (ORDER BY sort_order, id))::int AS r FROM countries),
  cat AS (SELECT c.id, CASE WHEN c.level IN (2, 3) THEN (dense_rank() OVER (ORDER BY
            (CASE c.level WHEN 3 THEN cp.sort_order WHEN 2 THEN c.sort_order END) NULLS LAST,
            (CASE c.level WHEN 3 THEN cp.id WHEN 2 THEN c.id END) NULLS LAST,
            (CASE c.level WHEN 3 THEN c.sort_order END) NULLS LAST,
            (CASE c.level WHEN 3 THEN c.id END) NULLS LAST))::int END AS r
            FROM categories c LEFT JOIN categories cp ON cp.id = c.parent_id)`;
