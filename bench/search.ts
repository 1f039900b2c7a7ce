/**
 * Search at catalog size (docs/domain.md, Search): the read models filled in SQL with N links, one
 * good per link and a family per 4 links (names, tags and dimension values as the supplier's are
 * made), then the admin lists and the storefront's filter query timed per keyword, each with the plan
 * PostgreSQL chose (which trigram or bigram indexes it used, or a full read).
 */
import type pg from 'pg';
import { performance } from 'node:perf_hooks';
import { createPool } from '../src/platform/db';
import { listFamilies } from '../src/catalog/families/queries';
import { listGoods } from '../src/catalog/goods/queries';
import { listLinks } from '../src/catalog/links/queries';
import { SEARCH_TARGETS, prepareSearch, searchCondition } from '../src/catalog/search';
import { PUBLIC_FAMILIES } from '../src/storefront/public-families';
import { type BenchContext, type Measure, type Suite, measure } from './harness';

const KEYWORDS = ['卫衣 红色', 'tshirt', 'G18500', 'Gildan', 'Gildna', 'hoodie 3XL', '不存在之物'];

/** Fills the read models with `links` links, goods and families: set-based, a few seconds at 100 000. */
async function fill(db: pg.Pool, links: number): Promise<void> {
  await db.query(
    `INSERT INTO tag_groups (id, name, dimension, created_at, updated_at, revision) VALUES (1, '颜色', 'color', now(), now(), 1), (2, '尺码', 'size', now(), now(), 1)`,
  );
  await db.query(
    `INSERT INTO tags (id, group_id, name, sort_order, created_at, updated_at, revision)
     SELECT i, CASE WHEN i <= 10 THEN 1 ELSE 2 END, n, i, now(), now(), 1
       FROM unnest(ARRAY['黑色','白色','红色','卡其','米白','灰色','军绿','藏青','酒红','浅蓝','S','M','L','XL','2XL','3XL']) WITH ORDINALITY AS t(n, i)`,
  );
  // Product names as the supplier's read: a country, logistics, a product name, a style code.
  await db.query(
    `INSERT INTO origin_goods (id, name, price, status, revision, first_seen_at, updated_at, tags)
     SELECT i, (ARRAY['美国','英国','德国'])[1 + i % 3] || '（' || (ARRAY['包邮','不包邮'])[1 + i % 2] || '）' ||
               (ARRAY['纯棉短袖T恤','加绒连帽卫衣','圆领卫衣','重磅T恤','长袖T恤','帆布袋','Gildan 重磅卫衣'])[1 + i % 7] || ' ' ||
               (ARRAY['G5000','G18500','JH001','DT6000','PC54','G2400'])[1 + (i / 7) % 6] || '-' || i,
            19.9 + i % 50, 'on_sale', 1, now(), now(),
            jsonb_build_object('size', to_jsonb(ARRAY['S','M','L', (ARRAY['XL','2XL','3XL'])[1 + i % 3]]),
                               'color', to_jsonb(ARRAY[(ARRAY['黑色','白色','红色','卡其','灰色'])[1 + i % 5], (ARRAY['米白','藏青','酒红'])[1 + i % 3]]),
                               'printCount', '[]'::jsonb, 'craft', '[]'::jsonb, 'logistics', '[]'::jsonb)
       FROM generate_series(1, $1::int) AS i`,
    [links],
  );
  await db.query(
    `INSERT INTO families (id, name, auto_managed, locked, created_at, updated_at, revision)
     SELECT f, regexp_replace(og.name, '-[0-9]+$', ''), true, false, now(), now(), 1
       FROM generate_series(1, ($1::int + 3) / 4) AS f JOIN origin_goods og ON og.id = (f - 1) * 4 + 1`,
    [links],
  );
  await db.query(
    `INSERT INTO goods (id, name, origin_good_id, family_id, tag_ids, created_at, updated_at, revision)
     SELECT og.id, og.name, og.id, (og.id - 1) / 4 + 1,
            ARRAY[1 + og.id % 5, 11 + og.id % 6]::bigint[], now(), now(), 1
       FROM origin_goods og`,
  );
  await db.query(`UPDATE origin_goods SET family_id = (id - 1) / 4 + 1`);
  await db.query(`UPDATE families f SET representative_good_id = f.id * 4 - 3, good_count = 4, member_count = 4`);
  await db.query(`VACUUM ANALYZE origin_goods`);
  await db.query(`VACUUM ANALYZE goods`);
  await db.query(`VACUUM ANALYZE families`);
  await db.query(`ANALYZE tags`);
}

/** The index scans of a plan, or "full read" when it reads a table whole. */
function indexesOf(plan: string): string {
  const used = [...new Set([...plan.matchAll(/Index (?:Only )?Scan (?:using|on) (\w+)/g)].map((m) => m[1]))];
  const seq = [...new Set([...plan.matchAll(/Seq Scan on (\w+)/g)].map((m) => m[1]))];
  return [used.length ? `indexes ${used.join(', ')}` : '', seq.length ? `full read of ${seq.join(', ')}` : ''].filter(Boolean).join('; ');
}

export const searchSuite: Suite = {
  name: 'search',
  title: 'search on the admin lists and the storefront filter',
  flags: {
    'search-links': { default: 100_000, help: 'links (one good each, a family per 4)' },
    'search-rounds': { default: 5, help: 'timed rounds per keyword and list' },
  },

  async run(ctx: BenchContext) {
    const links = ctx.flag('search-links');
    const rounds = ctx.flag('search-rounds');
    const scratch = await ctx.freshDatabase('search');
    const pool = createPool(scratch.url, 4, 'bench-search');
    try {
      const trigrams = (await pool.query<{ ok: boolean }>(`SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') AS ok`)).rows[0]!.ok;
      ctx.progress(`search: filling ${links} links (pg_trgm ${trigrams ? 'present' : 'absent'})`);
      await fill(pool, links);
      const rows: Measure[] = [];
      const notes: string[] = [`${links} links, ${links} goods, ${Math.ceil(links / 4)} families; pg_trgm ${trigrams ? 'present' : 'ABSENT: exact matching'}.`];
      const lists = {
        links: (keyword: string) => listLinks(pool, { page: 1, pageSize: 50, keyword } as never),
        goods: (keyword: string) => listGoods(pool, { page: 1, pageSize: 50, keyword } as never),
        families: (keyword: string) => listFamilies(pool, { page: 1, pageSize: 50, keyword } as never),
      };
      for (const keyword of KEYWORDS) {
        for (const [name, list] of Object.entries(lists)) {
          const seconds: number[] = [];
          let total = 0;
          for (let r = 0; r < rounds; r++) {
            const t0 = performance.now();
            total = (await list(keyword)).total;
            seconds.push((performance.now() - t0) / 1000);
          }
          rows.push(measure(`${name} "${keyword}": ${total} found (count + page)`, 1, seconds, 'lists'));
        }
        // The storefront's filter: the ids of the public families the keyword keeps.
        const search = await prepareSearch(pool, keyword);
        const params: unknown[] = [];
        const where = searchCondition(search, SEARCH_TARGETS.family('f'), (v) => `$${params.push(v)}`);
        const sql = `SELECT f.id ${PUBLIC_FAMILIES} AND ${where}`;
        const seconds: number[] = [];
        let found = 0;
        for (let r = 0; r < rounds; r++) {
          const t0 = performance.now();
          found = (await pool.query(sql, params)).rowCount ?? 0;
          seconds.push((performance.now() - t0) / 1000);
        }
        rows.push(measure(`storefront filter "${keyword}": ${found} families`, 1, seconds, 'lists'));
        const linkParams: unknown[] = [];
        const linkWhere = searchCondition(search, SEARCH_TARGETS.link('og'), (v) => `$${linkParams.push(v)}`);
        const plans = {
          links: (await pool.query(`EXPLAIN SELECT count(*) FROM origin_goods og WHERE ${linkWhere}`, linkParams)).rows.map((r) => r['QUERY PLAN']).join('\n'),
          storefront: (await pool.query(`EXPLAIN ${sql}`, params)).rows.map((r) => r['QUERY PLAN']).join('\n'),
        };
        notes.push(`"${keyword}": links list plan: ${indexesOf(plans.links)}; storefront plan: ${indexesOf(plans.storefront)}`);
      }
      return { rows, notes };
    } finally {
      await pool.end();
    }
  },
};
