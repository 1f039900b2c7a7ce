/**
 * Search as SQL (docs/domain.md, Search): the storefront's list and the administrators' goods,
 * families and links lists all match a keyword through here, so they agree. What a keyword means is
 * ./domain/search.ts.
 *
 * Each word becomes one condition: any of its alternatives found (ILIKE, case-insensitively) in one
 * of the row's names or in one of its tag names, or, for a word typed as is of FUZZY_MIN_CHARS or
 * more, a word of those texts close to it: `text %> word`, pg_trgm's word similarity at or above
 * `pg_trgm.word_similarity_threshold` (0.55: every connection sets it, src/platform/db.ts). Both
 * operators use the trigram indexes of migration 038. Without pg_trgm in the database the typo
 * clause is left out and matching is exact.
 *
 * An alternative of two characters is also asked as `search_bigrams(text) @>
 * search_bigrams(alternative)` (migration 040): every two-character piece of it is in the text. A
 * text that contains the alternative always holds its pieces, so the answer is the same; the test is
 * there for the bigram indexes, which serve a two-character word (卫衣) that holds no trigram.
 */
import type { Queryable } from '../platform/db';
import { likePattern } from '../platform/sql';
import { publicFamily } from './domain/public';
import { expandWord, fuzzyWord, searchWords, type SearchWord } from './domain/search';
import type { CategorySuggestion } from '../contract/page';

/** A keyword ready to be matched. */
export interface Search {
  words: readonly {
    word: string;
    expanded: SearchWord;
    /**
     * The live tags whose name matches the word, looked up before the list's query: given as a
     * constant, the planner estimates how many goods carry them (a sub-select would be guessed at 1%,
     * and a page ordered by id would then walk the whole table for a word that matches nothing).
     */
    tagIds: readonly string[];
  }[];
  /** pg_trgm is installed: typos are tolerated */
  fuzzy: boolean;
}

const trigrams = new WeakMap<object, Promise<boolean>>();

/**
 * Whether the database has pg_trgm, asked once per pool (migration 038 creates it where it can). A
 * failed question is asked again next time.
 */
export function hasTrigrams(db: Queryable): Promise<boolean> {
  let known = trigrams.get(db);
  if (!known) {
    known = db.query<{ ok: boolean }>(`SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') AS ok`).then((r) => r.rows[0]!.ok);
    known.catch(() => trigrams.delete(db));
    trigrams.set(db, known);
  }
  return known;
}

/** The placeholders of one alternative of a word: its ILIKE pattern, and its text when it has bigrams. */
interface Alternative {
  pattern: string;
  bigrams: string | null;
  /** whether the pattern holds a whole trigram, so that a trigram index can look it up */
  trigrams: boolean;
}

/**
 * An alternative's placeholders. Bigrams for one of two characters only: one shorter has none (`@>`
 * of an empty array holds for every row), and a longer one has trigrams, which the trigram index
 * looks up at least as well; asking both, the planner ANDs the two lookups, and since a trigram
 * lookup is approximate PostgreSQL then tests every row found again, bigram function included.
 */
function alternative(text: string, param: (value: unknown) => string): Alternative {
  const chars = [...text].length;
  return { pattern: param(likePattern(text)), bigrams: chars === 2 ? param(text) : null, trigrams: chars >= 3 };
}

/** One way a word can match: `match` decides; `bigrams`, when set, is a condition `match` implies. */
interface WordTest {
  match: string;
  bigrams: string | null;
}

/** The tests of one word against a text expression: its alternatives contained, or (fuzzy) close to it. */
function wordTests(text: string, alternatives: readonly Alternative[], fuzzyParam: string | null): WordTest[] {
  const tests = alternatives.map(({ pattern, bigrams, trigrams }) => ({
    // A pattern shorter than a trigram is tested on `text || ''`, the same text but not the indexed
    // expression: a trigram index would be read whole for it, and the planner, misjudging that, ANDs
    // that read with the bigram lookup, which then makes PostgreSQL test every row found again.
    match: `${trigrams ? text : `(${text} || '')`} ILIKE ${pattern}`,
    bigrams: bigrams ? `search_bigrams(${text}) @> search_bigrams(${bigrams}::text)` : null,
  }));
  if (fuzzyParam) tests.push({ match: `${text} %> ${fuzzyParam}`, bigrams: null });
  return tests;
}

/**
 * A word's condition: any of its tests matches. With bigrams, also: any of them holds its
 * necessary condition (its bigrams, or the test itself). The answer is the same, since each test
 * implies its own part of the second. Two separate conditions rather than each test's ILIKE ANDed
 * with its bigrams: the planner then looks the second up in the bigram indexes and, the GIN answer
 * for `@>` being exact, does not evaluate it again on the rows, only the ILIKEs; and where it reads a
 * table whole it runs the cheaper ILIKEs first and the function only on the rows they keep.
 */
function anyOf(tests: readonly WordTest[]): string {
  const match = `(${tests.map((t) => t.match).join(' OR ')})`;
  if (!tests.some((t) => t.bigrams)) return match;
  return `(${match} AND (${tests.map((t) => t.bigrams ?? t.match).join(' OR ')}))`;
}

/** Whether typo tolerance applies to a word as typed (docs/domain.md, Search, rule 4). */
const typoTolerant = (fuzzy: boolean, word: string, expanded: SearchWord) => fuzzy && expanded.group === null && fuzzyWord(word);

export async function prepareSearch(db: Queryable, keyword: string): Promise<Search> {
  const fuzzy = await hasTrigrams(db);
  const words = searchWords(keyword).map((word) => ({ word, expanded: expandWord(word) }));
  const tagIds = await Promise.all(
    words.map(async ({ word, expanded }) => {
      const params: unknown[] = [];
      const param = (v: unknown) => `$${params.push(v)}`;
      // The small tags table is read whole: the bigram test would only cost.
      const patterns = expanded.alternatives.map((a) => ({ pattern: param(likePattern(a)), bigrams: null, trigrams: true }));
      const test = anyOf(wordTests('t.name', patterns, typoTolerant(fuzzy, word, expanded) ? param(word) : null));
      const r = await db.query<{ id: string }>(`SELECT id FROM tags t WHERE NOT t.deleted AND ${test} ORDER BY id`, params);
      return r.rows.map((t) => t.id);
    }),
  );
  return { words: words.map((w, i) => ({ ...w, tagIds: tagIds[i]! })), fuzzy };
}

/** Where a list's rows are searched. */
export interface SearchTarget {
  /** SQL expressions of the row's names (text) */
  names?: readonly string[];
  /** the row's tags by id: a condition, given the placeholder of the matching live tags' ids (a bigint[]) */
  tagIds?: (ids: string) => string;
  /** the row's tag names, as one text expression */
  tagText?: string;
  /**
   * Instead: the row's id (`id`) is among those a word selects, as SQL built from the word's test of
   * a text expression and the placeholder of its tags' ids (null when no tag matched). Each part of
   * that selection then uses its own table's index, where an OR across tables would test the typo
   * operator row by row.
   */
  idIn?: { id: string; select: (test: (text: string) => string, tagIds: string | null) => string };
}

/**
 * The condition a row meets: every word (`all`) or at least one (`any`, for suggestions). Values go
 * in through `param` (a placeholder per value), never into the SQL text.
 */
export function searchCondition(search: Search, target: SearchTarget, param: (value: unknown) => string, mode: 'all' | 'any' = 'all'): string {
  const texts = [...(target.names ?? []), ...(target.tagText ? [target.tagText] : [])];
  const perWord = search.words.map(({ word, expanded, tagIds }) => {
    const patterns = expanded.alternatives.map((a) => alternative(a, param));
    // Typo tolerance for the word as typed; a synonym's entries are matched as they are written.
    const fuzzy = typoTolerant(search.fuzzy, word, expanded) ? param(word) : null;
    // A placeholder only for a target that reads tags by id: every value sent must be used.
    const tags = () => (tagIds.length ? `${param(tagIds)}::bigint[]` : null);
    if (target.idIn) return `${target.idIn.id} IN (${target.idIn.select((text) => anyOf(wordTests(text, patterns, fuzzy)), tags())})`;
    const tests = texts.flatMap((text) => wordTests(text, patterns, fuzzy));
    const tagged = target.tagIds ? tags() : null;
    if (target.tagIds && tagged) tests.push({ match: target.tagIds(tagged), bigrams: null });
    return anyOf(tests);
  });
  if (!perWord.length) return 'true';
  return perWord.length === 1 ? perWord[0]! : `(${perWord.join(mode === 'all' ? ' AND ' : ' OR ')})`;
}

/**
 * A link's tag values (`{"size": ["S"], "color": ["红色"]}`) as one text, `["S", "红色"]`: the
 * expression migrations 038 and 040 index, written exactly so, or the indexes are not used.
 */
export const LINK_TAG_TEXT = (og: string) => `(jsonb_path_query_array(${og}.tags, '$.*[*]')::text)`;

/**
 * A family: its name, its representative good's name, and the tags any of its goods carries (as
 * the storefront's tag filter reads them); `shelved`: only goods on the shelf count.
 */
function familyTarget(f: string, shelved: boolean): SearchTarget {
  return {
    idIn: {
      id: `${f}.id`,
      select: (test, tagIds) =>
        [
          `SELECT fn.id FROM families fn WHERE ${test('fn.name')}`,
          // The representative, chosen among the goods on the shelf; only public families are in `families_public`.
          shelved
            ? `SELECT fr.id FROM families fr JOIN goods rg ON rg.id = fr.representative_good_id WHERE ${publicFamily('fr')} AND ${test('rg.name')}`
            : `SELECT fr.id FROM families fr JOIN goods rg ON rg.id = fr.representative_good_id WHERE fr.representative_good_id IS NOT NULL AND ${test('rg.name')}`,
          ...(tagIds ? [`SELECT sg.family_id FROM goods sg WHERE sg.tag_ids && ${tagIds} AND sg.family_id IS NOT NULL${shelved ? ' AND sg.on_shelf' : ''}`] : []),
        ].join(' UNION ALL '),
    },
  };
}

/** The targets of each list, so the lists search alike. */
export const SEARCH_TARGETS = {
  /** a good: its name, its tags */
  good: (g: string): SearchTarget => ({ names: [`${g}.name`], tagIds: (ids) => `${g}.tag_ids && ${ids}` }),
  /**
   * A family: its name, its representative good's name, and the tags any of its goods carries (as
   * the storefront's tag filter reads them).
   */
  family: (f: string): SearchTarget => familyTarget(f, false),
  /** a public family, as the storefront searches it: only its goods on the shelf lend it their tags (docs/domain.md, Public catalog) */
  publicFamily: (f: string): SearchTarget => familyTarget(f, true),
  /** a link: its name, its dimension tags' values (LINK_TAG_TEXT) */
  link: (og: string): SearchTarget => ({ names: [`${og}.name`], tagText: LINK_TAG_TEXT(og) }),
};

/** How many categories an empty result suggests. */
export const SUGGESTIONS = 5;

/**
 * Categories to offer when a search finds nothing (docs/api.md, Paging): categories with public
 * families, those holding the most families that match at least one of the words first, then those
 * whose name matches a word, then the largest. Each with its number of public families.
 */
export async function suggestCategories(db: Queryable, search: Search): Promise<CategorySuggestion[]> {
  const params: unknown[] = [];
  const param = (v: unknown) => `$${params.push(v)}`;
  const hits = searchCondition(search, SEARCH_TARGETS.publicFamily('f'), param, 'any');
  const named = searchCondition(search, { names: ['c.name'] }, param, 'any');
  const r = await db.query<CategorySuggestion>(
    `SELECT c.id, c.name, count(*)::int AS "familyCount"
       FROM families f JOIN goods g ON g.id = f.representative_good_id JOIN categories c ON c.id = g.category_id AND NOT c.removed
      WHERE ${publicFamily('f')}
      GROUP BY c.id, c.name
      ORDER BY count(*) FILTER (WHERE ${hits}) DESC, bool_or(${named}) DESC, count(*) DESC, c.id
      LIMIT ${SUGGESTIONS}`,
    params,
  );
  return r.rows;
}

/** A list's page, with `suggestions` when its search found nothing (docs/api.md, Paging). */
export async function withSuggestions<P extends { total: number }>(db: Queryable, search: Search | null, page: P): Promise<P & { suggestions?: CategorySuggestion[] }> {
  if (!search || page.total > 0 || !search.words.length) return page;
  return { ...page, suggestions: await suggestCategories(db, search) };
}
