/**
 * The bigram indexes of search (docs/domain.md, Search, Speed; migration 040): a word of two
 * characters, which holds no trigram, is looked up through `search_bigrams` indexes in every table
 * a keyword searches, while a typo still goes through the trigram indexes; and the bigram test never
 * drops a row that ILIKE keeps. The plans are read with sequential scans discouraged, on a few rows,
 * so the test is about which index can serve the query, not about timing.
 */
import type pg from 'pg';
import { SEARCH_TARGETS, hasTrigrams, prepareSearch, searchCondition } from '../../../src/catalog/search';
import { createTestDatabase, type TestDatabase } from '../../support/db';

jest.setTimeout(120_000);

const NAMES = ['美国（包邮）加绒连帽卫衣 G18500', '英国（不包邮）纯棉短袖T恤 G5000', 'Gildan 重磅卫衣 PC54', '帆布袋 100%棉', 'ABC İstanbul Σ'];

/** Every index a plan (EXPLAIN FORMAT JSON) reads. */
function indexNames(node: any, into = new Set<string>()): Set<string> {
  if (node && typeof node === 'object') {
    if (typeof node['Index Name'] === 'string') into.add(node['Index Name']);
    for (const v of Object.values(node)) indexNames(v, into);
  }
  return into;
}

describe('search through the bigram indexes', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
    await db.pool.query(
      `INSERT INTO origin_goods (id, name, price, status, revision, first_seen_at, updated_at, tags)
       SELECT i, n, 19.9, 'on_sale', 1, now(), now(),
              jsonb_build_object('size', to_jsonb(ARRAY['S', 'XL']), 'color', to_jsonb(ARRAY[(ARRAY['红色', '黑色'])[1 + i % 2]]),
                                 'printCount', '[]'::jsonb, 'craft', '[]'::jsonb, 'logistics', '[]'::jsonb)
         FROM unnest($1::text[]) WITH ORDINALITY AS t(n, i)`,
      [NAMES],
    );
    await db.pool.query(`INSERT INTO families (id, name, auto_managed, locked, created_at, updated_at, revision) SELECT id, name, true, false, now(), now(), 1 FROM origin_goods`);
    await db.pool.query(
      `INSERT INTO goods (id, name, origin_good_id, family_id, tag_ids, created_at, updated_at, revision) SELECT id, name, id, id, '{}', now(), now(), 1 FROM origin_goods`,
    );
    await db.pool.query(`UPDATE families SET representative_good_id = id, good_count = 1, member_count = 1`);
    await db.pool.query(`ANALYZE origin_goods, goods, families`);
  });
  afterAll(async () => {
    await db?.drop();
  });

  /** The indexes the plan of `SELECT … WHERE <keyword's condition>` reads, sequential scans off. */
  async function planIndexes(keyword: string, table: string, target: ReturnType<(typeof SEARCH_TARGETS)[keyof typeof SEARCH_TARGETS]>) {
    const search = await prepareSearch(db.pool, keyword);
    const params: unknown[] = [];
    const where = searchCondition(search, target, (v) => `$${params.push(v)}`);
    const client: pg.PoolClient = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL enable_seqscan = off');
      const r = await client.query(`EXPLAIN (FORMAT JSON) SELECT count(*) FROM ${table} WHERE ${where}`, params);
      return indexNames(r.rows[0]['QUERY PLAN']);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  }

  it('a two-character word is looked up in the bigram indexes of every searched text', async () => {
    // (On so few rows the planner may also AND in a trigram index read whole: cheap here, so allowed.)
    const links = await planIndexes('卫衣', 'origin_goods og', SEARCH_TARGETS.link('og'));
    expect(links).toContain('origin_goods_name_bigrams');
    expect(links).toContain('origin_goods_tag_text_bigrams');
    expect(await planIndexes('红色', 'goods g', SEARCH_TARGETS.good('g'))).toContain('goods_name_bigrams');
    // A family: its own name (its representative's name is a good's, above; on so few rows the
    // planner reaches the representatives by key instead).
    expect(await planIndexes('卫衣', 'families f', SEARCH_TARGETS.family('f'))).toContain('families_name_bigrams');
    // Both words of a keyword, each through the index.
    const both = await planIndexes('卫衣 红色', 'origin_goods og', SEARCH_TARGETS.link('og'));
    expect(both).toContain('origin_goods_name_bigrams');
    expect(both).toContain('origin_goods_tag_text_bigrams');
  });

  it('a typo still goes through the trigram indexes', async () => {
    if (!(await hasTrigrams(db.pool))) return; // without pg_trgm there is no typo path (docs/domain.md, Search, rule 4)
    const plan = await planIndexes('Gildna', 'origin_goods og', SEARCH_TARGETS.link('og'));
    expect(plan).toContain('origin_goods_name_trgm');
  });

  it('the bigram test keeps every row ILIKE keeps', async () => {
    // Case, a character lower() lengthens or changes by position, a wildcard taken literally, a
    // word of one character (no bigram test), and words found nowhere.
    for (const word of ['卫衣', '红色', 'gildan', 'GILDAN', 'g18500', 'İs', 'istanbul', 'σ', 'Σ', '0%', '%棉', 'T恤', '衣', 'xyz', '卫卫']) {
      const params: unknown[] = [];
      const where = searchCondition(
        { words: [{ word, expanded: { alternatives: [word], group: null }, tagIds: [] }], fuzzy: false },
        SEARCH_TARGETS.link('og'),
        (v) => `$${params.push(v)}`,
      );
      const found = await db.pool.query<{ id: string }>(`SELECT id FROM origin_goods og WHERE ${where} ORDER BY id`, params);
      const like = `%${word.replace(/[\\%_]/g, (c) => '\\' + c)}%`;
      const reference = await db.pool.query<{ id: string }>(
        `SELECT id FROM origin_goods WHERE name ILIKE $1 OR jsonb_path_query_array(tags, '$.*[*]')::text ILIKE $1 ORDER BY id`,
        [like],
      );
      expect({ word, ids: found.rows.map((r) => r.id) }).toEqual({ word, ids: reference.rows.map((r) => r.id) });
    }
  });
});
