/**
 * Search over HTTP (docs/domain.md, Search): several words all matched, each in a name or a tag
 * name; synonyms; a typo; categories suggested when nothing is found; the storefront's list and the
 * administrators' lists agreeing. On a catalog made the operator's way, with a few names and tags
 * set here; every answer is held to a reference written in SQL in this file.
 */
import { SEARCH_SYNONYMS } from '../../../src/catalog/domain/synonyms';
import type { TestService } from '../../support/service';
import { type Catalog, populatedCatalog, publicGet, referenceListSql, wholeList } from './catalog-fixture';

jest.setTimeout(300_000);

/** ILIKE's pattern for a word, its wildcards taken literally (written here, not imported). */
const like = (w: string) => `%${w.replace(/[\\%_]/g, (c) => '\\' + c)}%`;

describe('search on the storefront and in the admin lists', () => {
  let cat: Catalog;
  let svc: TestService;
  const q = async <T = any>(sql: string, params: unknown[] = []): Promise<T[]> => (await svc.db.pool.query(sql, params)).rows as T[];
  const ok = async (method: string, path: string, body?: unknown) => {
    const r = await svc.request(method, path, body);
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  /** The public families a word matches exactly: in the family's or its representative's name, or a live tag name on one of its goods. */
  const familyWord = (alternatives: readonly string[]) =>
    '(' +
    alternatives
      .map((a) => {
        const p = `'${like(a).replace(/'/g, "''")}'`;
        return `f.name ILIKE ${p} OR rep.name ILIKE ${p} OR EXISTS (SELECT 1 FROM goods sg JOIN tags t ON t.id = ANY(sg.tag_ids) AND NOT t.deleted
                  WHERE sg.family_id = f.id AND t.name ILIKE ${p})`;
      })
      .join(' OR ') +
    ')';
  const referenceIds = async (...words: (readonly string[])[]) =>
    (await q<{ goodId: string }>(referenceListSql('DEFAULT', words.map(familyWord).join(' AND ')))).map((r) => r.goodId);
  const listed = async (keyword: string) => (await wholeList(svc, `keyword=${encodeURIComponent(keyword)}`)).items.map((i) => i.goodId as string);
  /** Every item of an admin list, page by page. */
  const adminAll = async (path: string, keyword: string) => {
    const items: any[] = [];
    for (let page = 1; ; page++) {
      const r = await ok('GET', `${path}?pageSize=1000&page=${page}&keyword=${encodeURIComponent(keyword)}`);
      items.push(...r.items);
      if (r.items.length < 1000) return { items, body: r };
    }
  };
  const groupOf = (word: string) => SEARCH_SYNONYMS.find((g) => g.some((e) => e.toLowerCase() === word.toLowerCase()))!;

  let red: string;
  let fRed: { id: string; goods: string[] };
  let fPlain: { id: string; goods: string[] };

  beforeAll(async () => {
    cat = await populatedCatalog({ links: 200 });
    svc = cat.svc;
    const fams = await q<{ id: string; goods: string[] }>(
      `SELECT family_id::text AS id, array_agg(id::text ORDER BY good_priority DESC, created_at DESC, id) AS goods
         FROM goods WHERE family_id IS NOT NULL GROUP BY family_id HAVING count(*) >= 2 ORDER BY family_id`,
    );
    [fRed, fPlain] = [fams[0]!, fams[1]!];
    // Two hoodies named alike; only one carries the tag 红色 (on a good that is not its representative).
    const group = await ok('POST', '/tag-groups', { name: '搜索颜色' });
    red = (await ok('POST', '/tags', { name: '红色', groupId: group.id })).id;
    await ok('PATCH', `/product-families/${fRed.id}`, { name: '加绒连帽卫衣 Zephyrine' });
    await ok('PATCH', `/product-families/${fPlain.id}`, { name: '加绒连帽卫衣 Zephyrine 经典' });
    const good = await ok('GET', `/goods/${fRed.goods[1]}`);
    await ok('PATCH', `/goods/${fRed.goods[1]}`, { tagIds: [...good.tagIds, red] });
  }, 280_000);
  afterAll(async () => {
    await cat?.close();
  });

  it('several words must all match, each in a name or a tag name', async () => {
    const both = await listed('卫衣 红色');
    expect(both).toContain(fRed.id);
    expect(both).not.toContain(fPlain.id);
    expect(both).toEqual(await referenceIds(groupOf('卫衣'), groupOf('红色')));
    // Each word alone finds more: the second word narrows, it does not widen.
    const hoodies = await listed('卫衣');
    expect(hoodies).toContain(fPlain.id);
    expect(hoodies.length).toBeGreaterThan(both.length);
    expect(new Set(hoodies)).toEqual(new Set([...hoodies, ...both]));
    // Order and repetition change nothing, and neither do spaces around.
    expect(await listed('  红色   卫衣 红色 ')).toEqual(both);
    // A word found in the name only, one in a tag only: Zephyrine is in both families' names.
    expect(new Set(await listed('Zephyrine 红色'))).toEqual(new Set([fRed.id]));
    // The admin families list, on the same words.
    const admin = await adminAll('/product-families', '卫衣 红色');
    expect(new Set(admin.items.filter((f) => f.goodCount > 0).map((f) => f.id as string))).toEqual(new Set(both));
    // More than eight words is refused, with a code.
    const many = await publicGet(svc, `/public/goods?keyword=${encodeURIComponent('a b c d e f g h i')}`);
    expect(many.status).toBe(400);
    expect(many.body.error.code).toBeTruthy();
  });

  it('synonyms: tshirt, t-shirt, TSHIRT and t恤 find what T恤 finds, and share one cache entry', async () => {
    const tee = await listed('T恤');
    expect(tee.length).toBeGreaterThan(0);
    expect(tee).toEqual(await referenceIds(groupOf('T恤')));
    for (const k of ['tshirt', 'T-Shirt', 'TSHIRT', 't恤', 'T恤 ']) expect([k, await listed(k)]).toEqual([k, tee]);
    expect(await listed('hoodie')).toEqual(await listed('卫衣'));
    // One load for all of those spellings: a new one is a cache hit.
    const loads = svc.services.cache.stats().loads;
    expect(await listed('Tee')).toEqual(tee);
    expect(svc.services.cache.stats().loads).toBe(loads);
    // Admin goods: every good whose own name or tags hold an entry of the group, no other.
    const goods = await adminAll('/goods', 'tshirt');
    const refGoods = await q<{ id: string }>(
      `SELECT g.id::text AS id FROM goods g WHERE g.name ILIKE ANY($1::text[])
          OR EXISTS (SELECT 1 FROM tags t WHERE t.id = ANY(g.tag_ids) AND NOT t.deleted AND t.name ILIKE ANY($1::text[])) ORDER BY g.id`,
      [groupOf('T恤').map(like)],
    );
    expect(goods.items.map((g) => g.id)).toEqual(refGoods.map((g) => g.id));
    expect(goods.body.suggestions).toBeUndefined();
  });

  it('tolerates a typo in a longer word, never in a code', async () => {
    const exact = await listed('Zephyrine');
    expect(new Set(exact)).toEqual(new Set([fRed.id, fPlain.id]));
    // One letter changed, one left out: still found, on the storefront and in the admin lists.
    expect(new Set(await listed('Zephyrlne'))).toEqual(new Set(exact));
    expect(new Set(await listed('Zephrine'))).toEqual(new Set(exact));
    const admin = await adminAll('/product-families', 'zephyrlne');
    expect(new Set(admin.items.map((f) => f.id))).toEqual(new Set(exact));
    // Too far is not a typo; a code one digit apart is another product.
    expect(await listed('Zqxwvbnm')).toEqual([]);
    const g5000 = await listed('G5000');
    expect(g5000.length).toBeGreaterThan(0);
    expect(g5000).toEqual(await referenceIds(['G5000']));
  });

  it('an empty result suggests categories, on the storefront and in the admin lists alike', async () => {
    const keyword = '卫衣 不存在之物';
    const r = await publicGet(svc, `/public/goods?keyword=${encodeURIComponent(keyword)}`);
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(0);
    const suggestions = r.body.suggestions as { id: string; name: string; familyCount: number }[];
    expect(suggestions.length).toBeGreaterThan(0);
    expect(suggestions.length).toBeLessThanOrEqual(5);
    // Each a live category with public families, counted right; the first holds hoodies (one word matched).
    const counts = new Map(
      (
        await q<{ id: string; name: string; n: number }>(
          `SELECT c.id::text AS id, c.name, count(*)::int AS n FROM families f JOIN goods g ON g.id = f.representative_good_id
             JOIN categories c ON c.id = g.category_id AND NOT c.removed WHERE f.good_count > 0 GROUP BY c.id, c.name`,
        )
      ).map((c) => [c.id, c]),
    );
    for (const s of suggestions) expect(s).toEqual({ id: s.id, name: counts.get(s.id)!.name, familyCount: counts.get(s.id)!.n });
    const hoodieCats = new Set((await wholeList(svc, `keyword=${encodeURIComponent('卫衣')}`)).items.map((i) => i.categoryId));
    expect(hoodieCats.has(suggestions[0]!.id)).toBe(true);
    // A page beyond, and a second request (cached): the same suggestions; the ETag differs from another empty search's.
    const again = await publicGet(svc, `/public/goods?keyword=${encodeURIComponent(keyword)}`);
    expect(again.body).toEqual(r.body);
    const other = await publicGet(svc, `/public/goods?keyword=${encodeURIComponent('Zqxwvbnm')}`);
    expect(other.body.total).toBe(0);
    expect(other.headers.get('etag')).not.toBe(r.headers.get('etag'));
    // A list with results has no suggestions field; nor does a list without a keyword.
    expect((await publicGet(svc, `/public/goods?keyword=${encodeURIComponent('卫衣')}`)).body).not.toHaveProperty('suggestions');
    expect((await publicGet(svc, `/public/goods?countryId=999`)).body).not.toHaveProperty('suggestions');
    // The admin lists answer the same suggestions.
    for (const path of ['/goods', '/product-families', '/origin-goods']) {
      const a = await ok('GET', `${path}?keyword=${encodeURIComponent(keyword)}`);
      expect([path, a.total, a.suggestions]).toEqual([path, 0, suggestions]);
    }
  });

  it('the storefront and the admin lists agree, word by word', async () => {
    for (const keyword of ['卫衣', 'hoodie 红色', 'T恤', 'Zephyrlne', '短袖 g5000', '帆布']) {
      const pub = new Set(await listed(keyword));
      const fams = await adminAll('/product-families', keyword);
      expect([keyword, new Set(fams.items.filter((f) => f.goodCount > 0).map((f) => f.id))]).toEqual([keyword, pub]);
      // Every public family found has its name or a good found in the goods list, or a tag matched.
      const links = await adminAll('/origin-goods', keyword);
      const linkRef = await q<{ id: string }>(
        `SELECT og.id::text AS id FROM origin_goods og WHERE ${keyword
          .split(/\s+/)
          .map((w) => groupOf(w) ?? [w])
          .map(
            (alts) =>
              '(' +
              alts.map((a) => `og.name ILIKE '${like(a)}' OR jsonb_path_query_array(og.tags, '$.*[*]')::text ILIKE '${like(a)}'`).join(' OR ') +
              (alts.length === 1 && /^[A-Za-z]{4,}$/.test(alts[0]!) ? ` OR og.name %> '${alts[0]}'` : '') +
              ')',
          )
          .join(' AND ')} ORDER BY og.id`,
      );
      expect([keyword, links.items.map((l) => l.id)]).toEqual([keyword, linkRef.map((l) => l.id)]);
    }
  });
});
