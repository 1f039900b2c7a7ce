/**
 * Who the storefront shows (docs/domain.md, Public catalog), as SQL over the catalog projection's
 * tables: the one place the rule is written, for the storefront's reads, the search's and the admin
 * reads' `public`.
 *
 * A family is public when it is on the shelf and has a good on the shelf. The catalog projection
 * picks its representative among its goods on the shelf (null when none is), and the database keeps
 * `families.is_public` as `on_shelf AND representative_good_id IS NOT NULL` (migration 041), so the
 * predicate is a column and its partial index (`families_public`) serves every public read.
 */

/** The family `f` is public. */
export const publicFamily = (f: string) => `${f}.is_public`;

/** The good `g` of the public family `f` contributes to public reads (its tags, counts and names): it is on the shelf. */
export const publicGood = (g: string, f: string) => `(${publicFamily(f)} AND ${g}.on_shelf)`;
