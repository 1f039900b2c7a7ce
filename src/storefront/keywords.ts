/**
 * Keywords in the list's cache key, folded exactly as the list query matches them.
 *
 * The list matches `name ILIKE '%keyword%'` (./queries.ts). On a UTF-8 database PostgreSQL's ILIKE is
 * `lower(name) LIKE lower(pattern)`, with `lower()` of the database's collation: so two keywords
 * whose patterns lower alike select exactly the same families, and may share one cache entry; two
 * whose patterns lower differently may not. JavaScript's `toLowerCase` is not that function: it maps
 * `İ` to `i̇` (two characters) where glibc's lower() gives `i`, it lowers a final `Σ` to `ς` where
 * glibc gives `σ`, and a `C` or a Turkish collation lowers ASCII differently again. So the fold is
 * asked of the database itself (`SELECT lower(pattern)`), once per keyword a process sees, and kept:
 * a repeated keyword is folded without a round trip, and a keyword not yet seen costs one tiny query
 * before a list load that costs far more. `T恤`, `t恤` and `Ｔ恤`/`ｔ恤` then share entries by what the
 * database makes of them, not by what this process guesses.
 */
import type { Queryable } from '../platform/db';
import { likePattern } from '../platform/sql';

/** Keywords remembered per process (each at most 100 characters: a few MB at most). */
const KEPT = 10_000;

export class KeywordFolds {
  /** keyword → its pattern as the database lowers it; Map order is recency (first: least recent) */
  private readonly kept = new Map<string, string>();
  private readonly asking = new Map<string, Promise<string>>();

  constructor(private readonly db: Queryable) {}

  /** The pattern `keyword` matches with, lowered as the database lowers it. */
  async fold(keyword: string): Promise<string> {
    const known = this.kept.get(keyword);
    if (known !== undefined) {
      this.kept.delete(keyword);
      this.kept.set(keyword, known);
      return known;
    }
    let asking = this.asking.get(keyword);
    if (!asking) {
      asking = this.db
        .query<{ folded: string }>(`SELECT lower($1::text) AS folded`, [likePattern(keyword)])
        .then((r) => {
          const folded = r.rows[0]!.folded;
          this.kept.set(keyword, folded);
          for (const oldest of this.kept.keys()) {
            if (this.kept.size <= KEPT) break;
            this.kept.delete(oldest);
          }
          return folded;
        })
        .finally(() => this.asking.delete(keyword));
      this.asking.set(keyword, asking);
    }
    return asking;
  }

  /** Keywords kept. */
  get size(): number {
    return this.kept.size;
  }
}
