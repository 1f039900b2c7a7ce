/**
 * What a search keyword means (docs/domain.md, Search). Pure: the SQL that applies it is
 * src/catalog/search.ts.
 *
 * A keyword is split on white space into words, at most MAX_SEARCH_WORDS of them; every word must
 * match. A word matches a name or a tag name that contains it, ignoring case, or that contains one
 * of its synonyms (./synonyms.ts); a word of FUZZY_MIN_CHARS characters or more without a digit
 * also matches a word of the text that is close to it (a typo), where the database can tell (pg_trgm).
 */
import { SEARCH_SYNONYMS } from './synonyms';

/** More words than this is a 400: each one is a condition of the query. */
export const MAX_SEARCH_WORDS = 8;
/** Shorter words are matched exactly: one changed character of a short word leaves too little alike. */
export const FUZZY_MIN_CHARS = 4;

/** How synonyms are looked up: full-width forms folded (NFKC), then lower case. */
export const synonymForm = (word: string) => word.normalize('NFKC').toLowerCase();

const GROUPS = new Map<string, readonly string[]>();
for (const group of SEARCH_SYNONYMS) for (const entry of group) GROUPS.set(synonymForm(entry), group);

export interface SearchWord {
  /** the texts any one of which, found in a name or a tag name, satisfies the word */
  alternatives: readonly string[];
  /**
   * Set when the word is a synonym: the group's first entry. Two words of one group match exactly
   * the same, so they may share a cache entry; other words are keyed by the database's fold.
   */
  group: string | null;
}

/** The words of a keyword (already trimmed), duplicates once, in the order given. */
export function searchWords(keyword: string): string[] {
  return [...new Set(keyword.split(/\s+/).filter((w) => w !== ''))];
}

export function expandWord(word: string): SearchWord {
  const group = GROUPS.get(synonymForm(word));
  return group ? { alternatives: group, group: group[0]! } : { alternatives: [word], group: null };
}

/**
 * Whether a word gets typo tolerance: long enough, and not a code. A word with a digit is a style
 * code or a size (`G5000`, `3XL`), where one character apart is another product (`G5400`), not a typo.
 */
export const fuzzyWord = (word: string) => [...word].length >= FUZZY_MIN_CHARS && !/\p{Nd}/u.test(word);
