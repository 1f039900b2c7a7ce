/**
 * Keywords in the list's cache key, folded exactly as the list query matches them (docs/api.md,
 * Public read caching, rule 5).
 *
 * A keyword is words, each matched on its own (docs/domain.md, Search; src/catalog/search.ts), so
 * the key holds the set of what each word means: the order of the words and a repeated word change
 * nothing. A synonym is keyed by its group (`tshirt`, `T-Shirt` and `t恤` match exactly alike). Any
 * other word is matched with ILIKE and pg_trgm, which on a UTF-8 database compare `lower()` of both
 * sides under the database's collation: so two words the database lowers alike select exactly the
 * same rows, and share a key; two it lowers differently may not. JavaScript's `toLowerCase` is not
 * that function: it maps `İ` to `i̇` (two characters) where glibc's lower() gives `i`, it lowers a
 * final `Σ` to `ς` where glibc gives `σ`, and a `C` or a Turkish collation lowers ASCII differently
 * again. So the fold is asked of the database itself (`lower()`), once per keyword a process sees,
 * and kept: a repeated keyword is folded without a round trip, and one not yet seen costs one tiny
 * query before a list load that costs far more.
 */
import type { Queryable } from '../platform/db';
import { expandWord, fuzzyWord, searchWords } from '../catalog/domain/search';

/** Keywords remembered per process (each at most 100 characters: a few MB at most). */
const KEPT = 10_000;

export class KeywordFolds {
  /** keyword → its key; Map order is recency (first: least recent) */
  private readonly kept = new Map<string, string>();
  private readonly asking = new Map<string, Promise<string>>();

  constructor(private readonly db: Queryable) {}

  /** What `keyword` matches, as a JSON text: equal for keywords that match the same rows. */
  async fold(keyword: string): Promise<string> {
    const known = this.kept.get(keyword);
    if (known !== undefined) {
      this.kept.delete(keyword);
      this.kept.set(keyword, known);
      return known;
    }
    let asking = this.asking.get(keyword);
    if (!asking) {
      asking = this.ask(keyword)
        .then((folded) => {
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

  private async ask(keyword: string): Promise<string> {
    const words = searchWords(keyword);
    const plain = words.filter((w) => expandWord(w).group === null);
    const r = plain.length
      ? await this.db.query<{ folded: string[] }>(`SELECT array(SELECT lower(w) FROM unnest($1::text[]) WITH ORDINALITY AS u(w, i) ORDER BY i) AS folded`, [plain])
      : null;
    const lowered = new Map(plain.map((w, i) => [w, r!.rows[0]!.folded[i]!]));
    // A word typed as is gets typo tolerance by its length (fuzzyWord): that is part of what it matches.
    const parts = words.map((w) => {
      const group = expandWord(w).group;
      return JSON.stringify(group !== null ? ['synonym', group] : ['word', lowered.get(w)!, fuzzyWord(w)]);
    });
    return `[${[...new Set(parts)].sort().join(',')}]`;
  }

  /** Keywords kept. */
  get size(): number {
    return this.kept.size;
  }
}
