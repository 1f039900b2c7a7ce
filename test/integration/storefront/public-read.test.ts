/**
 * The public storefront over real HTTP on a catalog made the operator's way (simulator → sync →
 * organise → goods). Each answer is checked against a reference computed in the test from the read
 * models with the docs/domain.md rules written as plain SQL (./catalog-fixture.ts), not with src/storefront.
 * The tests run in order on one catalog and change it as an administrator would; every public read
 * right after an administrator's write must already show it.
 */
import { mediaId } from '../../../src/catalog/domain/matrix';
import { DISPLAY_ORDER } from '../../../src/catalog/domain/tags';
import type { TestService } from '../../support/service';
import { type Catalog, SORTS, populatedCatalog, publicGet, referenceListSql, wholeList } from './catalog-fixture';

const CACHE_CONTROL = 'public, max-age=0, must-revalidate';

describe('public storefront reads over HTTP', () => {
  let cat: Catalog;
  let svc: TestService;
  const q = async <T = any>(sql: string, params: unknown[] = []): Promise<T[]> => (await svc.db.pool.query(sql, params)).rows as T[];
  const reference = async (sort: (typeof SORTS)[number], where?: string) => q<{ goodId: string; repGoodId: string; [k: string]: any }>(referenceListSql(sort, where));
  const ok = async (method: string, path: string, body?: unknown) => {
    const r = await svc.request(method, path, body);
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  /** The live tags of a good as the storefront shows them, from the tables. */
  const tagsOfGoods = async () => {
    const rows = await q<{ id: string; tags: { id: string; name: string }[] }>(
      `SELECT g.id::text AS id,
              COALESCE(json_agg(json_build_object('id', t.id::text, 'name', t.name) ORDER BY t.sort_order, t.id) FILTER (WHERE t.id IS NOT NULL), '[]') AS tags
         FROM goods g
         LEFT JOIN tags t ON t.id = ANY(g.tag_ids) AND NOT t.deleted AND EXISTS (SELECT 1 FROM tag_groups tg WHERE tg.id = t.group_id AND NOT tg.deleted)
        GROUP BY g.id`,
    );
    return new Map(rows.map((r) => [r.id, r.tags]));
  };
  /** Families with at least two goods, their goods in representative order. */
  const familiesWithGoods = async (min = 2) =>
    q<{ id: string; goods: string[] }>(
      `SELECT family_id::text AS id, array_agg(id::text ORDER BY good_priority DESC, created_at DESC, id) AS goods
         FROM goods WHERE family_id IS NOT NULL GROUP BY family_id HAVING count(*) >= $1 ORDER BY family_id`,
      [min],
    );

  beforeAll(async () => {
    cat = await populatedCatalog();
    svc = cat.svc;
    // Give each sort key something to decide: countries in reverse id order, a middle category moved
    // last, a few priorities, a representative on a middle category and one without a country.
    const countries = await q<{ id: string }>(`SELECT id::text AS id FROM countries ORDER BY countries.id DESC`);
    await ok('PATCH', '/countries/sort', { ids: countries.map((c) => c.id) });
    await ok('PATCH', '/categories/201', { sortOrder: 50 });
    await ok('PATCH', '/categories/305', { sortOrder: -1 });
    const fams = await familiesWithGoods(1);
    await ok('PATCH', `/goods/${fams[0]!.goods[0]}`, { goodPriority: 5 });
    await ok('PATCH', `/goods/${fams[1]!.goods[0]}`, { goodPriority: -3 });
    await ok('PATCH', `/goods/${fams[2]!.goods[0]}`, { categoryId: '202' });
    await ok('PATCH', `/goods/${fams[3]!.goods[0]}`, { countryId: null });
  }, 240_000);

  afterAll(async () => {
    await cat?.close();
  });

  it('lists one entry per public family, grouped before paging, priced at the family’s lowest price', async () => {
    const ref = await reference('DEFAULT');
    const goods = await q<{ n: number }>(`SELECT count(*)::int AS n FROM goods`);
    expect(goods[0]!.n).toBeGreaterThan(ref.length); // families do group several goods
    const tags = await tagsOfGoods();

    const { items, total } = await wholeList(svc);
    expect(total).toBe(ref.length);
    expect(items).toEqual(
      ref.map((r) => ({
        goodId: r.goodId,
        name: r.name,
        image: r.image,
        price: r.price,
        countryId: r.countryId,
        categoryId: r.categoryId,
        tags: tags.get(r.repGoodId),
        tagFontColor: r.tagFontColor,
      })),
    );
    expect(items.map((i) => i.goodId)).not.toContain(cat.hiddenFamilyId);
    const prices = await q<{ id: string; price: string | null }>(`SELECT id::text AS id, lowest_price::text AS price FROM families`);
    for (const i of items) expect(i.price).toBe(prices.find((p) => p.id === i.goodId)!.price);

    // Pages are windows of that one list.
    const page = await publicGet(svc, '/public/goods?page=3&pageSize=7');
    expect(page.body).toEqual({ items: items.slice(14, 21), total, page: 3, pageSize: 7 });
    const first = await publicGet(svc, '/public/goods');
    expect(first.body).toEqual({ items: items.slice(0, 20), total, page: 1, pageSize: 20 });
    const beyond = await publicGet(svc, '/public/goods?page=1000');
    expect(beyond.body).toEqual({ items: [], total, page: 1000, pageSize: 20 });
    // A custom good has no family: it is in no list.
    const custom = await ok('POST', '/goods', { name: '自定义 短袖 T1000', countryId: '1', categoryId: '301' });
    expect((await wholeList(svc)).total).toBe(total);
    expect(JSON.stringify((await wholeList(svc, 'keyword=T1000')).items)).not.toContain(custom.id);
  });

  it('orders by each sort mode exactly as docs/domain.md says', async () => {
    for (const sort of SORTS) {
      const ref = await reference(sort);
      const { items } = await wholeList(svc, `sort=${sort}`);
      expect([sort, items.map((i) => i.goodId)]).toEqual([sort, ref.map((r) => r.goodId)]);
    }
    // The cases the set-up made: no country sorts last; a middle-category representative sorts by it.
    const byDefault = (await wholeList(svc)).items;
    expect(byDefault[byDefault.length - 1].countryId).toBeNull();
    expect(byDefault.some((i) => i.categoryId === '202')).toBe(true);
    const prices = (await wholeList(svc, 'sort=PRICE_ASC')).items
      .map((i) => i.price)
      .filter((p) => p !== null)
      .map(Number);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
  });

  it('filters by country, category at any level, tags (all of them, on any good of the family) and keyword', async () => {
    const check = async (query: string, where: string, sort: (typeof SORTS)[number] = 'DEFAULT') => {
      const ref = await reference(sort, where);
      const { items, total } = await wholeList(svc, `${query}&sort=${sort}`);
      expect([query, items.map((i) => i.goodId)]).toEqual([query, ref.map((r) => r.goodId)]);
      expect(total).toBe(ref.length);
      return items;
    };
    const subtree = (id: string) =>
      `rep.category_id IN (WITH RECURSIVE s AS (SELECT id FROM categories WHERE id = ${id} UNION SELECT k.id FROM categories k JOIN s ON k.parent_id = s.id) SELECT id FROM s)`;

    expect((await check('countryId=1', 'rep.country_id = 1')).length).toBeGreaterThan(1);
    expect((await check('countryId=2', 'rep.country_id = 2', 'PRICE_DESC')).length).toBeGreaterThan(0);
    expect(await check('countryId=999', 'FALSE')).toEqual([]);
    const top = await check('categoryId=101', subtree('101'));
    const middle = await check('categoryId=201', subtree('201'));
    const style = await check('categoryId=301', subtree('301'), 'NEWEST');
    expect(top.length).toBeGreaterThan(middle.length);
    expect(middle.length).toBeGreaterThan(style.length);
    expect(style.length).toBeGreaterThan(0);

    await check('keyword=短袖', `(f.name ILIKE '%短袖%' OR rep.name ILIKE '%短袖%')`);
    const caseless = await check('keyword=g5000', `(f.name ILIKE '%g5000%' OR rep.name ILIKE '%g5000%')`);
    expect(caseless.length).toBeGreaterThan(0);
    expect(await check(`keyword=${encodeURIComponent('%')}`, 'FALSE')).toEqual([]); // a literal %, not a wildcard

    // Tags: T1 on a non-representative good of F1 and on F2's representative; T2 on F2 and F3.
    const group = await ok('POST', '/tag-groups', { name: '店铺筛选' });
    const t1 = (await ok('POST', '/tags', { name: '热卖', groupId: group.id })).id as string;
    const t2 = (await ok('POST', '/tags', { name: '新品', groupId: group.id })).id as string;
    const [f1, f2, f3] = (await familiesWithGoods(2)).slice(-3);
    const addTags = async (goodId: string, ids: string[]) => {
      const good = await ok('GET', `/goods/${goodId}`);
      await ok('PATCH', `/goods/${goodId}`, { tagIds: [...good.tagIds, ...ids] });
    };
    await addTags(f1!.goods[1]!, [t1]);
    await addTags(f2!.goods[0]!, [t1, t2]);
    await addTags(f3!.goods[1]!, [t2]);
    const familiesOf = async (tagIds: string) => new Set((await wholeList(svc, `tagIds=${tagIds}`)).items.map((i) => i.goodId));
    expect(await familiesOf(t1)).toEqual(new Set([f1!.id, f2!.id]));
    expect(await familiesOf(t2)).toEqual(new Set([f2!.id, f3!.id]));
    expect(await familiesOf(`${t1},${t2}`)).toEqual(new Set([f2!.id]));
    expect(await familiesOf(`${t2},${t1}`)).toEqual(new Set([f2!.id]));
    await check(`tagIds=${t1}`, `f.id IN (${f1!.id}, ${f2!.id})`, 'PRICE_ASC');
    // Filters combine, and paging applies to the filtered list.
    const both = await wholeList(svc, `countryId=1&categoryId=201&sort=PRICE_ASC`);
    const page2 = await publicGet(svc, `/public/goods?countryId=1&categoryId=201&sort=PRICE_ASC&page=2&pageSize=2`);
    expect(page2.body).toEqual({ items: both.items.slice(2, 4), total: both.total, page: 2, pageSize: 2 });
  });

  it('answers the detail by family id, with the representative’s fields, the same one the list shows', async () => {
    const { items } = await wholeList(svc);
    for (const item of items.slice(0, 15)) {
      const d = await publicGet(svc, `/public/goods/${item.goodId}`);
      expect(d.status).toBe(200);
      const { tagFontColor: _notInDetail, price, ...common } = item;
      expect(d.body).toMatchObject({ ...common, lowestPrice: price });
      const [row] = await q(`SELECT variants, size_chart, packaging_specs FROM families WHERE id = $1`, [item.goodId]);
      expect(d.body.variants).toEqual(row.variants);
      expect(d.body.sizeChart).toEqual(row.size_chart);
      expect(d.body.packagingSpecs).toEqual(row.packaging_specs);
      expect(Object.keys(d.body.variants[0] ?? { size: 0, color: 0, price: 0, sku: 0 })).toEqual(['size', 'color', 'price', 'sku']);
    }
  });

  it('switches the representative when a goodPriority change makes another good win, in detail and list alike', async () => {
    const [family] = await familiesWithGoods(2);
    const [rep, other] = family!.goods as [string, string];
    const repGood = await ok('GET', `/goods/${rep}`);
    const show = async () => {
      const d = (await publicGet(svc, `/public/goods/${family!.id}`)).body;
      const item = (await wholeList(svc)).items.find((i) => i.goodId === family!.id);
      return { detail: { name: d.name, image: d.image, description: d.description }, item: { name: item.name, image: item.image } };
    };
    // Changing the other good's own fields changes nothing public: it is not the representative.
    await ok('PATCH', `/goods/${other}`, { name: '另一款 短袖 X900', image: 'https://img.example.com/other.jpg', description: '另一款' });
    expect(await show()).toEqual({
      detail: { name: repGood.name, image: repGood.image, description: repGood.description },
      item: { name: repGood.name, image: repGood.image },
    });
    // A higher goodPriority makes it the representative at once.
    await ok('PATCH', `/goods/${other}`, { goodPriority: repGood.goodPriority + 10 });
    expect(await show()).toEqual({
      detail: { name: '另一款 短袖 X900', image: 'https://img.example.com/other.jpg', description: '另一款' },
      item: { name: '另一款 短袖 X900', image: 'https://img.example.com/other.jpg' },
    });
    // Lower than the first one's again: the first one is back.
    await ok('PATCH', `/goods/${other}`, { goodPriority: repGood.goodPriority - 1 });
    expect((await show()).item).toEqual({ name: repGood.name, image: repGood.image });
    const ref = await reference('DEFAULT', `f.id = ${family!.id}`);
    expect(ref[0]!.repGoodId).toBe(rep);
  });

  it('answers 404 for a link id, an unknown id or a family without goods, and 400 for a malformed id or query', async () => {
    const link = (await q<{ id: string }>(`SELECT id::text AS id FROM origin_goods WHERE family_id IS NOT NULL LIMIT 1`))[0]!.id;
    for (const id of [link, '0', '999999999999', cat.hiddenFamilyId]) {
      const r = await publicGet(svc, `/public/goods/${id}`);
      expect([id, r.status, r.body.error.code]).toEqual([id, 404, 'PUBLIC_GOOD.NOT_FOUND']);
    }
    for (const id of ['abc', '-1', '1.5', '1e3', '9223372036854775808', '%20']) {
      const r = await publicGet(svc, `/public/goods/${id}`);
      expect([id, r.status, r.body.error.code]).toEqual([id, 400, 'INVALID_ID']);
    }
    for (const query of ['pageSize=101', 'page=0', 'sort=CHEAPEST', 'countryId=us', 'categoryId=1.5', 'tagIds=1,x', 'page=1&page=2', 'colour=red']) {
      const r = await publicGet(svc, `/public/goods?${query}`);
      expect([query, r.status]).toEqual([query, 400]);
    }
  });

  it('orders the matrix: sizes and colours by tag sort order, the other dimensions by display order, cells along the axes', async () => {
    const [row] = await q<{ id: string; price_matrix: any }>(
      `SELECT id::text AS id, price_matrix FROM families
        WHERE good_count > 0 AND jsonb_array_length(price_matrix->'sizes') >= 3 AND jsonb_array_length(price_matrix->'colors') >= 2
        ORDER BY jsonb_array_length(price_matrix->'cells') DESC LIMIT 1`,
    );
    const stored = row!.price_matrix;
    // Reverse the order of the family's sizes among the tags (PATCH /tags/sort takes all tags).
    const sizeTags = await q<{ id: string; name: string }>(
      `SELECT t.id::text AS id, t.name FROM tags t JOIN tag_groups g ON g.id = t.group_id
        WHERE g.dimension = 'size' AND NOT t.deleted AND NOT g.deleted AND t.name = ANY($1) ORDER BY t.sort_order, t.id`,
      [stored.sizes],
    );
    expect(sizeTags.length).toBe(stored.sizes.length);
    const all = await q<{ id: string }>(`SELECT id::text AS id FROM tags WHERE NOT deleted ORDER BY sort_order, tags.id`);
    const reversed = [...sizeTags].reverse().map((t) => t.id);
    const others = all.map((t) => t.id).filter((id) => !reversed.includes(id));
    await ok('PATCH', '/tags/sort', { ids: [...reversed, ...others] });

    const m = (await publicGet(svc, `/public/goods/${row!.id}`)).body.priceMatrix;
    expect(m.sizes).toEqual([...sizeTags].reverse().map((t) => t.name));
    const colorOrder = await q<{ name: string }>(
      `SELECT t.name FROM tags t JOIN tag_groups g ON g.id = t.group_id WHERE g.dimension = 'color' AND NOT t.deleted AND NOT g.deleted AND t.name = ANY($1)
        ORDER BY t.sort_order, t.id`,
      [stored.colors],
    );
    expect(m.colors).toEqual([...colorOrder.map((c) => c.name), ...stored.colors.filter((c: string) => !colorOrder.some((o) => o.name === c))]);
    for (const [axis, order] of [
      ['printCounts', DISPLAY_ORDER.printCount],
      ['crafts', DISPLAY_ORDER.craft],
      ['logistics', DISPLAY_ORDER.logistics],
    ] as const) {
      const known = m[axis].filter((v: string) => (order as readonly string[]).includes(v));
      expect(known).toEqual((order as readonly string[]).filter((v) => known.includes(v)));
      expect(m[axis].slice(0, known.length)).toEqual(known); // values outside the vocabulary come after
    }
    // Cells: the same cells and prices as stored, ordered size, colour, printCount, craft, logistics along the axes.
    const key = (c: any) => [c.size, c.color, c.printCount, c.craft, c.logistics].join('|');
    expect(new Map(m.cells.map((c: any) => [key(c), c.price]))).toEqual(new Map(stored.cells.map((c: any) => [key(c), c.price])));
    const rank = (c: any) => [m.sizes.indexOf(c.size), m.colors.indexOf(c.color), m.printCounts.indexOf(c.printCount), m.crafts.indexOf(c.craft), m.logistics.indexOf(c.logistics)];
    const sorted = [...m.cells].sort((a: any, b: any) => {
      const x = rank(a);
      const y = rank(b);
      for (let i = 0; i < 5; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
      return 0;
    });
    expect(m.cells).toEqual(sorted);
    expect(Object.keys(m.cells[0])).toEqual(['size', 'color', 'printCount', 'craft', 'logistics', 'price']);
  });

  it('answers mediaByColor as {id, url, sortOrder} images, one per URL, merged from secondary origins', async () => {
    const urlsOf = (media: Record<string, { url: string }[]>) =>
      Object.values(media)
        .flat()
        .map((m) => m.url);
    const [family] = await familiesWithGoods(2);
    const before = (await publicGet(svc, `/public/goods/${family!.id}`)).body.mediaByColor as Record<string, { id: string; url: string; sortOrder: number }[]>;
    expect(urlsOf(before).length).toBeGreaterThan(0);
    for (const images of Object.values(before)) {
      expect(images.map((m) => m.sortOrder)).toEqual(images.map((_, i) => i));
      for (const m of images) expect(m).toEqual({ id: mediaId(m.url), url: m.url, sortOrder: m.sortOrder });
    }
    expect(new Set(urlsOf(before)).size).toBe(urlsOf(before).length);

    // A link of another family as a secondary origin of the representative, and a member link of the
    // family itself whose images the family already shows.
    const [other] = await q<{ id: string; urls: string[] }>(
      `SELECT og.id::text AS id, array_agg(DISTINCT m->>'url') AS urls FROM origin_goods og CROSS JOIN LATERAL jsonb_array_elements(og.detail->'media') m
        WHERE og.family_id <> $1 AND NOT og.delisted GROUP BY og.id ORDER BY og.id LIMIT 1`,
      [family!.id],
    );
    const [sibling] = await q<{ id: string }>(
      `SELECT id::text AS id FROM origin_goods WHERE family_id = $1 AND id <> (SELECT origin_good_id FROM goods WHERE id = $2) ORDER BY id DESC LIMIT 1`,
      [family!.id, family!.goods[0]],
    );
    await ok('PUT', `/goods/${family!.goods[0]}/origins`, { secondaryOriginGoodIds: [other!.id, sibling!.id] });

    const after = (await publicGet(svc, `/public/goods/${family!.id}`)).body.mediaByColor;
    const urls = urlsOf(after);
    expect(new Set(urls).size).toBe(urls.length);
    expect(new Set(urls)).toEqual(new Set([...urlsOf(before), ...other!.urls]));
    for (const images of Object.values(after) as { sortOrder: number }[][]) expect(images.map((m) => m.sortOrder)).toEqual(images.map((_, i) => i));
  });

  it('home, category tree, tag groups, tree order and countries show public families only', async () => {
    const { items } = await wholeList(svc);
    const itemOf = (id: string) => items.find((i) => i.goodId === id);
    const [a, b] = await familiesWithGoods(2);
    const custom = await ok('POST', '/goods', { name: '自定义 帆布袋 TB9000', countryId: '1', categoryId: '312' });
    const hiddenGood = await ok('POST', '/goods', { name: '隐藏 短袖 Z1', categoryId: '301' }); // no family either
    await ok('POST', '/positions', { name: '首页推荐', sortOrder: 5, goodIds: [a!.goods[1], b!.goods[0], a!.goods[0], custom.id, hiddenGood.id] });
    await ok('POST', '/positions', { name: '新品', sortOrder: 1, goodIds: [b!.goods[1]] });
    await ok('POST', '/positions', { name: '空', sortOrder: 9, goodIds: [custom.id] });
    const home = (await publicGet(svc, '/public/home')).body;
    expect(home.positions.map((p: any) => [p.name, p.items.map((i: any) => i.goodId)])).toEqual([
      ['新品', [b!.id]],
      ['首页推荐', [a!.id, b!.id]],
      ['空', []],
    ]);
    expect(home.positions[1].items).toEqual([itemOf(a!.id), itemOf(b!.id)]);

    // Category tree: per node, the public families whose representative's category is under it.
    const tree = (await publicGet(svc, '/public/categories/tree')).body.items;
    const counts = await q<{ id: string; n: number; low: string | null }>(
      `WITH RECURSIVE up AS (
         SELECT f.id AS family, f.lowest_price, c.id AS node, c.parent_id FROM families f JOIN goods g ON g.id = f.representative_good_id
           JOIN categories c ON c.id = g.category_id WHERE f.good_count > 0
         UNION ALL SELECT up.family, up.lowest_price, p.id, p.parent_id FROM up JOIN categories p ON p.id = up.parent_id)
       SELECT node::text AS id, count(DISTINCT family)::int AS n, min(lowest_price)::text AS low FROM up GROUP BY node`,
    );
    const flat: any[] = [];
    const walk = (nodes: any[]) => nodes.forEach((n) => (flat.push(n), walk(n.children)));
    walk(tree);
    const live = await q<{ id: string; effective_icon: string | null }>(`SELECT id::text AS id, effective_icon FROM categories WHERE NOT removed`);
    expect(flat.map((n) => n.id).sort()).toEqual(live.map((c) => c.id).sort());
    for (const n of flat) {
      const c = counts.find((x) => x.id === n.id);
      expect([n.id, n.familyCount, n.lowestPrice === null ? null : Number(n.lowestPrice)]).toEqual([n.id, c?.n ?? 0, c?.low == null ? null : Number(c.low)]);
      expect(n.icon).toBe(live.find((l) => l.id === n.id)!.effective_icon);
      expect(Object.keys(n)).toEqual(['id', 'name', 'icon', 'sortOrder', 'familyCount', 'lowestPrice', 'children']);
    }
    expect(tree.reduce((s: number, n: any) => s + n.familyCount, 0)).toBe(items.filter((i) => i.categoryId !== null).length);

    // Tag groups: per tag, the public families with a good carrying it; the custom good counts for none.
    const group = await ok('POST', '/tag-groups', { name: '只在自定义商品上' });
    const lonely = await ok('POST', '/tags', { name: '孤单', groupId: group.id });
    await ok('PATCH', `/goods/${custom.id}`, { tagIds: [lonely.id] });
    const groups = (await publicGet(svc, '/public/tag-groups')).body.items;
    const tagCounts = await q<{ id: string; n: number }>(
      `SELECT t.id::text AS id, count(DISTINCT g.family_id) FILTER (WHERE f.good_count > 0)::int AS n
         FROM tags t LEFT JOIN goods g ON t.id = ANY(g.tag_ids) LEFT JOIN families f ON f.id = g.family_id
        WHERE NOT t.deleted GROUP BY t.id`,
    );
    const shown = groups.flatMap((g: any) => g.tags);
    expect(shown.length).toBe(tagCounts.length);
    for (const t of shown) expect([t.id, t.familyCount]).toEqual([t.id, tagCounts.find((c) => c.id === t.id)!.n]);
    expect(groups.find((g: any) => g.id === group.id)).toEqual({
      id: group.id,
      name: '只在自定义商品上',
      dimension: null,
      tags: [{ id: lonely.id, name: '孤单', sortOrder: lonely.sortOrder, familyCount: 0 }],
    });
    expect(groups.find((g: any) => g.dimension === 'size').tags.some((t: any) => t.familyCount > 0)).toBe(true);

    // Countries and the tree order: by sortOrder (the set-up reversed them), then id.
    const countries = (await publicGet(svc, '/public/countries')).body.items;
    const refCountries = await q(`SELECT id::text AS id, name, code, sort_order AS "sortOrder" FROM countries WHERE NOT removed ORDER BY sort_order, id`);
    expect(countries.map(({ familyCount: _, ...c }: any) => c)).toEqual(refCountries);
    // Per country, the public families the list finds with that country (the filter panel shows it).
    for (const c of countries) expect([c.id, c.familyCount]).toEqual([c.id, items.filter((i) => i.countryId === c.id).length]);
    expect(countries.some((c: any) => c.familyCount > 0)).toBe(true);
    expect(countries[0].id).toBe('10');
    const order = (await publicGet(svc, '/public/tree-order')).body;
    expect(order.countries).toEqual(refCountries.map((c) => c.id));
    const refChildren = await q<{ parent: string; ids: string[] }>(
      `SELECT COALESCE(parent_id::text, 'root') AS parent, array_agg(id::text ORDER BY sort_order, id) AS ids FROM categories WHERE NOT removed GROUP BY parent_id`,
    );
    expect(order.categories).toEqual(Object.fromEntries(refChildren.map((r) => [r.parent, r.ids])));
    expect(order.categories['101'].at(-1)).toBe('201'); // moved last by the set-up
  });

  it('every endpoint carries an ETag and Cache-Control, answers 304 to If-None-Match, and shows a write on the next request', async () => {
    const [family] = await familiesWithGoods(1);
    const paths = [
      '/public/goods',
      '/public/goods?page=2&pageSize=5&sort=NEWEST',
      `/public/goods/${family!.id}`,
      '/public/home',
      '/public/categories/tree',
      '/public/tag-groups',
      '/public/tree-order',
      '/public/countries',
    ];
    const etags = new Map<string, string>();
    for (const p of paths) {
      const r = await publicGet(svc, p);
      expect([p, r.status, r.headers.get('cache-control')]).toEqual([p, 200, CACHE_CONTROL]);
      const etag = r.headers.get('etag')!;
      expect(etag).toMatch(/^"[^"]+"$/);
      etags.set(p, etag);
      const again = await publicGet(svc, p, { 'if-none-match': etag });
      expect([p, again.status, again.body, again.headers.get('etag'), again.headers.get('cache-control')]).toEqual([p, 304, null, etag, CACHE_CONTROL]);
      expect((await publicGet(svc, p, { 'if-none-match': `"other", W/${etag}` })).status).toBe(304);
      expect((await publicGet(svc, p, { 'if-none-match': '"other"' })).status).toBe(200);
    }
    expect(new Set(etags.values()).size).toBe(paths.length);

    // Writes: each shows on the very next request, with a new ETag (and a 200 to the old one).
    const changed = async (p: string) => {
      const r = await publicGet(svc, p, { 'if-none-match': etags.get(p)! });
      expect([p, r.status]).toEqual([p, 200]);
      etags.set(p, r.headers.get('etag')!);
      return r.body;
    };
    const countries = await q<{ id: string }>(`SELECT id::text AS id FROM countries ORDER BY countries.id`);
    await ok('PATCH', '/countries/sort', { ids: countries.map((c) => c.id) });
    expect((await changed('/public/countries')).items[0].id).toBe('1');
    expect((await changed('/public/tree-order')).countries[0]).toBe('1');
    expect((await changed('/public/goods')).items[0].countryId).toBe('1');

    const detail = (await publicGet(svc, `/public/goods/${family!.id}`)).body;
    const cell = detail.priceMatrix.cells[0];
    await ok('PUT', `/product-families/${family!.id}/price-overrides`, { ...cell, price: '0.01' });
    const d = await changed(`/public/goods/${family!.id}`);
    expect(d.lowestPrice).toBe('0.01');
    expect(
      d.priceMatrix.cells.find(
        (c: any) => c.size === cell.size && c.color === cell.color && c.printCount === cell.printCount && c.craft === cell.craft && c.logistics === cell.logistics,
      ).price,
    ).toBe('0.01');
    expect((await publicGet(svc, '/public/goods?sort=PRICE_ASC&pageSize=1')).body.items[0]).toMatchObject({ goodId: family!.id, price: '0.01' });
    const tree = await changed('/public/categories/tree');
    expect(tree.items.map((n: any) => n.lowestPrice)).toContain('0.01');

    const group = await ok('POST', '/tag-groups', { name: '最后一组' });
    expect((await changed('/public/tag-groups')).items.map((g: any) => g.id)).toContain(group.id);
    const position = await ok('POST', '/positions', { name: '最后', sortOrder: 100, goodIds: [family!.goods[0]] });
    expect((await changed('/public/home')).positions.at(-1)).toMatchObject({ id: position.id, items: [{ goodId: family!.id, price: '0.01' }] });
  });

  it('keeps every sort and filter right across writes after the first read: reorders, priorities, a good moved, a family emptied', async () => {
    const index = svc.services.storefront.families;
    const check = async (label: string) => {
      for (const sort of SORTS) {
        const ref = await reference(sort);
        const { items } = await wholeList(svc, `sort=${sort}`);
        expect([label, sort, items.map((i) => i.goodId)]).toEqual([label, sort, ref.map((r) => r.goodId)]);
      }
      const country = (await q<{ id: string }>(`SELECT country_id::text AS id FROM goods WHERE country_id IS NOT NULL LIMIT 1`))[0]!.id;
      const ref = await reference('DEFAULT', `rep.country_id = ${country}`);
      expect([label, (await wholeList(svc, `countryId=${country}`)).items.map((i) => i.goodId)]).toEqual([label, ref.map((r) => r.goodId)]);
      const counts = await q<{ id: string; n: number }>(
        `SELECT c.id::text AS id, count(g.id)::int AS n FROM countries c
           LEFT JOIN (families f JOIN goods g ON g.id = f.representative_good_id AND f.good_count > 0) ON g.country_id = c.id
          WHERE NOT c.removed GROUP BY c.id ORDER BY c.sort_order, c.id`,
      );
      expect([label, (await publicGet(svc, '/public/countries')).body.items.map((c: any) => [c.id, c.familyCount])]).toEqual([label, counts.map((c) => [c.id, c.n])]);
    };
    await check('before');
    const fullReads = index.stats().fullReads;

    const countries = await q<{ id: string }>(`SELECT id::text AS id FROM countries ORDER BY sort_order DESC, id DESC`);
    await ok('PATCH', '/countries/sort', { ids: countries.map((c) => c.id) });
    await check('countries reordered');
    await ok('PATCH', '/categories/201', { sortOrder: -5 });
    await check('a middle category moved first');

    const fams = await familiesWithGoods(1);
    await ok('PATCH', `/goods/${fams[5]!.goods[0]}`, { goodPriority: 99 });
    await ok('PATCH', `/goods/${fams[6]!.goods[0]}`, { countryId: countries[0]!.id, categoryId: '305', name: '改名之后的商品' });
    await check('a priority, a country, a category and a name changed');
    expect((await wholeList(svc)).items.find((i) => i.goodId === fams[6]!.id)).toMatchObject({ name: '改名之后的商品', categoryId: '305' });

    // A family whose every good is deleted leaves the list (and its country's count).
    const emptied = fams[7]!;
    for (const good of emptied.goods) await ok('DELETE', `/goods/${good}`);
    await check('a family emptied');
    expect((await wholeList(svc)).items.map((i) => i.goodId)).not.toContain(emptied.id);

    // None of it read every family again: each write named the families it changed.
    expect(index.stats().fullReads).toBe(fullReads);
  });
});
