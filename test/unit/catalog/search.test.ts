/**
 * What a search keyword means (docs/domain.md, Search), and the condition it becomes with and
 * without pg_trgm: without it, matching is exact (no typo clause at all).
 */
import { expandWord, fuzzyWord, searchWords } from '../../../src/catalog/domain/search';
import { SEARCH_SYNONYMS } from '../../../src/catalog/domain/synonyms';
import { SEARCH_TARGETS, searchCondition, type Search } from '../../../src/catalog/search';

const searchOf = (keyword: string, fuzzy: boolean, tagIds: string[] = []): Search => ({
  words: searchWords(keyword).map((word) => ({ word, expanded: expandWord(word), tagIds })),
  fuzzy,
});
const conditionOf = (keyword: string, fuzzy: boolean) => {
  const params: unknown[] = [];
  const sql = searchCondition(searchOf(keyword, fuzzy), SEARCH_TARGETS.good('g'), (v) => `$${params.push(v)}`);
  return { sql, params };
};

describe('search words', () => {
  it('splits on white space, each word once, in the order given', () => {
    expect(searchWords('卫衣 红色')).toEqual(['卫衣', '红色']);
    expect(searchWords('红色\t卫衣  红色')).toEqual(['红色', '卫衣']);
    expect(searchWords('')).toEqual([]);
  });

  it('expands a synonym to its whole group, ignoring case and full-width forms', () => {
    const tee = SEARCH_SYNONYMS.find((g) => g[0] === 'T恤')!;
    for (const w of ['tshirt', 'TSHIRT', 'T-Shirt', 't恤', 'Ｔ恤', 'ｔｓｈｉｒｔ']) expect([w, expandWord(w)]).toEqual([w, { alternatives: tee, group: 'T恤' }]);
    expect(expandWord('hoodie').group).toBe('卫衣');
    expect(expandWord('Zephyrine')).toEqual({ alternatives: ['Zephyrine'], group: null });
  });

  it('every synonym entry is one word, and in one group only', () => {
    const seen = new Map<string, string>();
    for (const g of SEARCH_SYNONYMS) {
      for (const e of g) {
        expect([e, searchWords(e)]).toEqual([e, [e]]);
        const key = e.normalize('NFKC').toLowerCase();
        expect([e, seen.get(key) ?? g[0]]).toEqual([e, g[0]]);
        seen.set(key, g[0]!);
      }
    }
  });

  it('tolerates typos in words of 4 characters or more without a digit', () => {
    expect(fuzzyWord('hoodei')).toBe(true);
    expect(fuzzyWord('加绒卫依')).toBe(true);
    expect(fuzzyWord('卫衣')).toBe(false);
    expect(fuzzyWord('tee')).toBe(false);
    expect(fuzzyWord('G5000')).toBe(false);
    expect(fuzzyWord('３XL尺码')).toBe(false);
  });
});

describe('the search condition', () => {
  it('one clause per word, all required; values only as parameters', () => {
    const { sql, params } = conditionOf("卫衣衫 O'Neil%", true);
    expect(sql.match(/\) AND \(/g)).toHaveLength(1);
    expect(sql).not.toContain("O'Neil");
    expect(params).toContain("%O'Neil\\%%");
  });

  it('a two-character word also asks for its bigrams, as a condition apart; other lengths do not', () => {
    const two = conditionOf('重磅', false);
    expect(two.params).toEqual(['%重磅%', '重磅']);
    // The word's ILIKE, and apart from it the bigram containment the index answers.
    expect(two.sql).toBe(`(((g.name || '') ILIKE $1) AND (search_bigrams(g.name) @> search_bigrams($2::text)))`);
    for (const other of ['磅', '重磅款', 'Zephyrine']) {
      const { sql } = conditionOf(other, false);
      expect([other, sql]).toEqual([other, expect.not.stringContaining('search_bigrams')]);
    }
    // On the index's own expression for three characters or more: the trigram index serves them.
    expect(conditionOf('重磅款', false).sql).toBe('(g.name ILIKE $1)');
    // A synonym: its two-character entries by bigrams, the others by trigrams, in one condition apart.
    const hoodie = conditionOf('hoodie', false).sql;
    expect(hoodie).toContain('search_bigrams(g.name) @> search_bigrams(');
    expect(hoodie).toMatch(/ OR g\.name ILIKE \$\d+/);
  });

  it('with pg_trgm: a typo clause for a long word typed as is, none for a synonym or a short word', () => {
    expect(conditionOf('Zephyrine', true).sql).toContain('%>');
    expect(conditionOf('hoodie', true).sql).not.toContain('%>');
    expect(conditionOf('卫衣', true).sql).not.toContain('%>');
  });

  it('tags by the ids found beforehand, and no tag clause when none matched', () => {
    const params: unknown[] = [];
    const sql = searchCondition(searchOf('红色', false, ['7', '9']), SEARCH_TARGETS.good('g'), (v) => `$${params.push(v)}`);
    expect(sql).toContain('g.tag_ids && $');
    expect(params).toContainEqual(['7', '9']);
    expect(conditionOf('红色', false).sql).not.toContain('tag_ids');
  });

  it('without pg_trgm: exact matching only, never the operator the database would not know', () => {
    const { sql, params } = conditionOf('Zephyrine hoodie', false);
    expect(sql).not.toContain('%>');
    expect(params).toContain('%Zephyrine%');
    expect(params).toContain('%卫衣%');
  });
});

describe('the search condition of each list', () => {
  it('uses every value it is given a placeholder for (a link reads tag names, not ids)', () => {
    for (const [name, target] of Object.entries({ good: SEARCH_TARGETS.good('g'), family: SEARCH_TARGETS.family('f'), link: SEARCH_TARGETS.link('og') })) {
      const params: unknown[] = [];
      const sql = searchCondition(searchOf('Zephyrine 红色', true, ['7']), target, (v) => `$${params.push(v)}`);
      const used = new Set([...sql.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
      expect([name, [...used].sort((a, b) => a - b)]).toEqual([name, params.map((_, i) => i + 1)]);
    }
  });
});
