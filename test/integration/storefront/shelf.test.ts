/**
 * 上架 / 下架 over HTTP (docs/domain.md, Public catalog; docs/api.md): a family appears publicly when
 * it is on the shelf and has a good on the shelf, shown through its representative among those goods;
 * a good off the shelf adds nothing to any public read, a family off the shelf leaves them all. Each
 * public read right after a shelf write must already show it (the cache domains are bumped).
 */
import { populatedCatalog, publicGet, wholeList, type Catalog } from './catalog-fixture';
import type { TestService } from '../../support/service';

describe('shelf state: what the storefront shows', () => {
  let cat: Catalog;
  let svc: TestService;
  const q = async <T = any>(sql: string, params: unknown[] = []): Promise<T[]> => (await svc.db.pool.query(sql, params)).rows as T[];
  const ok = async (method: string, path: string, body?: unknown) => {
    const r = await svc.request(method, path, body);
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const listed = async () => new Set((await wholeList(svc)).items.map((i: { goodId: string }) => i.goodId));
  /** every node of the public category tree, by id */
  const treeNodes = async () => {
    const out = new Map<string, { familyCount: number; lowestPrice: string | null }>();
    const walk = (nodes: any[]) => {
      for (const n of nodes) {
        out.set(n.id, { familyCount: n.familyCount, lowestPrice: n.lowestPrice });
        walk(n.children ?? []);
      }
    };
    walk((await publicGet(svc, '/public/categories/tree')).body.items);
    return out;
  };
  const tagCounts = async () => {
    const out = new Map<string, number>();
    for (const g of (await publicGet(svc, '/public/tag-groups')).body.items) for (const t of g.tags) out.set(t.id, t.familyCount);
    return out;
  };
  const countryCounts = async () => new Map<string, number>((await publicGet(svc, '/public/countries')).body.items.map((c: any) => [c.id, c.familyCount]));

  /** A public family with at least two goods, its goods in representative order (priority, newest, id). */
  let family: { id: string; goods: string[] };
  let positionId: string;

  beforeAll(async () => {
    cat = await populatedCatalog({ links: 60 });
    svc = cat.svc;
    const rows = await q<{ id: string; goods: string[] }>(
      `SELECT family_id::text AS id, array_agg(id::text ORDER BY good_priority DESC, created_at DESC, id) AS goods
         FROM goods WHERE family_id IS NOT NULL GROUP BY family_id HAVING count(*) >= 2 ORDER BY family_id LIMIT 1`,
    );
    family = rows[0]!;
    positionId = (await ok('POST', '/positions', { name: '首页推荐', goodIds: [family.goods[0]] })).id;
  }, 240_000);

  afterAll(async () => {
    await cat?.close();
  });

  it('everything starts on the shelf: the admin reads say so, and the family is public', async () => {
    const f = await ok('GET', `/product-families/${family.id}`);
    expect(f).toMatchObject({ shelf: 'on', public: true, representativeGoodId: family.goods[0] });
    expect(await ok('GET', `/goods/${family.goods[0]}`)).toMatchObject({ shelf: 'on', public: true });
    expect(await listed()).toContain(family.id);
  });

  it('a representative taken off the shelf: the next good on the shelf represents the family everywhere', async () => {
    const [first, second] = family.goods as [string, string];
    const secondGood = await ok('GET', `/goods/${second}`);
    const answer = await ok('PUT', `/goods/${first}/shelf`, { state: 'off' });
    expect(answer).toMatchObject({ id: first, shelf: 'off', public: false });

    const detail = await publicGet(svc, `/public/goods/${family.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.name).toBe(secondGood.name);
    const item = (await wholeList(svc)).items.find((i: { goodId: string }) => i.goodId === family.id);
    expect(item.name).toBe(secondGood.name);
    expect((await ok('GET', `/product-families/${family.id}`)).representativeGoodId).toBe(second);
    // Home lists the family by the good placed there, shown through its representative.
    const home = (await publicGet(svc, '/public/home')).body.positions.find((p: { id: string }) => p.id === positionId);
    expect(home.items.map((i: { goodId: string; name: string }) => [i.goodId, i.name])).toEqual([[family.id, secondGood.name]]);

    // Admin lists filter by shelf state.
    const off = await ok('GET', `/goods?shelf=off&pageSize=100`);
    expect(off.items.map((g: { id: string }) => g.id)).toEqual([first]);
    const on = await ok('GET', `/goods?shelf=on&familyId=${family.id}&pageSize=100`);
    expect(on.items.map((g: { id: string }) => g.id).sort()).toEqual(family.goods.filter((g) => g !== first).sort());
  });

  it('a good off the shelf lends its tags to no public read: tag counts, the tag filter, search', async () => {
    // A tag only the good off the shelf carries: given to it by hand, so nothing else has it.
    const groups = (await ok('GET', '/tag-groups')).items as { id: string; dimension: string | null }[];
    const group = groups.find((g) => g.dimension === null) ?? (await ok('POST', '/tag-groups', { name: '专属' }));
    const tag = await ok('POST', '/tags', { groupId: group.id, name: '下架专属标签' });
    const [first, second] = family.goods as [string, string];
    const own = (await ok('GET', `/goods/${first}`)).tagIds as string[];
    await ok('PATCH', `/goods/${first}`, { tagIds: [...own, tag.id] });

    expect((await tagCounts()).get(tag.id)).toBe(0);
    expect((await wholeList(svc, `tagIds=${tag.id}`)).total).toBe(0);
    expect((await wholeList(svc, `keyword=${encodeURIComponent('下架专属标签')}`)).total).toBe(0);

    // The same tag on a good on the shelf counts the family again.
    const secondTags = (await ok('GET', `/goods/${second}`)).tagIds as string[];
    await ok('PATCH', `/goods/${second}`, { tagIds: [...secondTags, tag.id] });
    expect((await tagCounts()).get(tag.id)).toBe(1);
    expect((await wholeList(svc, `tagIds=${tag.id}`)).items.map((i: { goodId: string }) => i.goodId)).toEqual([family.id]);
    await ok('PATCH', `/goods/${second}`, { tagIds: secondTags });
    expect((await tagCounts()).get(tag.id)).toBe(0);
  });

  it('a family off the shelf leaves the list, the detail, home, the category tree, tag and country counts', async () => {
    const rep = await ok('GET', `/goods/${family.goods[1]}`);
    const treeBefore = await treeNodes();
    const tagsBefore = await tagCounts();
    const countriesBefore = await countryCounts();
    const total = (await wholeList(svc)).total;

    const answer = await ok('PUT', `/product-families/${family.id}/shelf`, { state: 'off' });
    expect(answer).toMatchObject({ id: family.id, shelf: 'off', public: false });

    const after = await wholeList(svc);
    expect(after.total).toBe(total - 1);
    expect(after.items.map((i: { goodId: string }) => i.goodId)).not.toContain(family.id);
    const detail = await publicGet(svc, `/public/goods/${family.id}`);
    expect(detail.status).toBe(404);
    expect(detail.body.error.code).toBe('PUBLIC_GOOD.NOT_FOUND');
    const home = (await publicGet(svc, '/public/home')).body.positions.find((p: { id: string }) => p.id === positionId);
    expect(home.items).toEqual([]);
    const tree = await treeNodes();
    expect(tree.get(rep.categoryId)!.familyCount).toBe(treeBefore.get(rep.categoryId)!.familyCount - 1);
    const tags = await tagCounts();
    for (const t of rep.tagIds as string[]) if (tagsBefore.has(t)) expect(tags.get(t)).toBe(tagsBefore.get(t)! - 1);
    if (rep.countryId) expect((await countryCounts()).get(rep.countryId)).toBe(countriesBefore.get(rep.countryId)! - 1);
    expect((await wholeList(svc, `keyword=${encodeURIComponent(rep.name)}`)).items.map((i: { goodId: string }) => i.goodId)).not.toContain(family.id);

    // The admin still sees it, and can find it by its shelf state; its goods are no longer public.
    const offList = await ok('GET', '/product-families?shelf=off&pageSize=100');
    expect(offList.items.map((f: { id: string }) => f.id)).toEqual([family.id]);
    expect(offList.items[0]).toMatchObject({ shelf: 'off', public: false });
    expect((await ok('GET', `/goods/${family.goods[1]}`)).public).toBe(false);

    // Back on the shelf: back in every read.
    await ok('PUT', `/product-families/${family.id}/shelf`, { state: 'on' });
    expect((await wholeList(svc)).total).toBe(total);
    expect((await publicGet(svc, `/public/goods/${family.id}`)).status).toBe(200);
    expect((await treeNodes()).get(rep.categoryId)!.familyCount).toBe(treeBefore.get(rep.categoryId)!.familyCount);
  });

  it('a family on the shelf whose every good is off it is not public', async () => {
    for (const g of family.goods) await ok('PUT', `/goods/${g}/shelf`, { state: 'off' });
    expect(await ok('GET', `/product-families/${family.id}`)).toMatchObject({ shelf: 'on', public: false, representativeGoodId: null });
    expect(await listed()).not.toContain(family.id);
    expect((await publicGet(svc, `/public/goods/${family.id}`)).status).toBe(404);
    await ok('PUT', `/goods/${family.goods[1]}/shelf`, { state: 'on' });
    expect(await listed()).toContain(family.id);
    expect((await ok('GET', `/product-families/${family.id}`)).representativeGoodId).toBe(family.goods[1]);
  });

  it('setting the state a family or good is already in appends nothing', async () => {
    const before = (await ok('GET', `/product-families/${family.id}`)).revision;
    expect((await ok('PUT', `/product-families/${family.id}/shelf`, { state: 'on' })).revision).toBe(before);
  });

  it('the histories say who took it off or put it on the shelf, and when', async () => {
    const h = await ok('GET', `/product-families/${family.id}/history`);
    const shelf = h.items.filter((i: { type: string }) => i.type === 'FamilyShelfSet');
    expect(shelf.map((i: any) => i.data.state)).toEqual(['off', 'on']);
    const users = (await ok('GET', '/users')).items as { id: string; username: string }[];
    const admin = users.find((u) => u.username === 'admin')!;
    for (const i of shelf) {
      expect(i.by).toBe(admin.id);
      expect(i.why).toBe('SetFamilyShelf');
      expect(Number.isNaN(Date.parse(i.at))).toBe(false);
    }
    expect(shelf[0].changes).toMatchObject({ shelf: { from: 'on', to: 'off' }, public: { from: true, to: false } });
    expect(shelf[1].changes).toMatchObject({ shelf: { from: 'off', to: 'on' }, public: { from: false, to: true } });
    // The goods' shelf events are in the family's history too, with the representative they moved.
    const goodShelf = h.items.filter((i: { type: string }) => i.type === 'GoodShelfSet');
    expect(goodShelf[0]).toMatchObject({ stream: `good-${family.goods[0]}`, data: { state: 'off' }, by: admin.id, why: 'SetGoodShelf' });
    expect(goodShelf[0].changes.representative.to.goodId).toBe(family.goods[1]);

    const g = await ok('GET', `/goods/${family.goods[0]}/history`);
    const own = g.items.filter((i: { type: string }) => i.type === 'GoodShelfSet');
    expect(own[0].changes).toMatchObject({ shelf: { from: 'on', to: 'off' }, public: { from: true, to: false } });
  });

  it('a manual family can be created off the shelf', async () => {
    const made = await svc.request('POST', '/product-families', { name: '下架系列', shelf: 'off' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ shelf: 'off', public: false });
    const h = await ok('GET', `/product-families/${made.body.id}/history`);
    expect(h.items[0]).toMatchObject({ type: 'FamilyCreated', data: { shelf: 'off' } });
    const plain = await ok('POST', '/product-families', { name: '上架系列' });
    expect(plain.shelf).toBe('on');
  });

  it('bad input is a 4xx with a code, never a 500', async () => {
    const cases: [string, string, unknown, number, string][] = [
      ['PUT', `/product-families/${family.id}/shelf`, { state: 'maybe' }, 400, 'VALIDATION_FAILED'],
      ['PUT', `/product-families/${family.id}/shelf`, {}, 400, 'VALIDATION_FAILED'],
      ['PUT', `/product-families/${family.id}/shelf`, { state: 'off', extra: 1 }, 400, 'VALIDATION_FAILED'],
      ['PUT', `/product-families/${family.id}/shelf`, { state: true }, 400, 'VALIDATION_FAILED'],
      ['PUT', `/product-families/abc/shelf`, { state: 'off' }, 400, 'INVALID_ID'],
      ['PUT', `/product-families/1/shelf`, { state: 'off' }, 404, 'FAMILY.NOT_FOUND'],
      ['PUT', `/goods/${family.goods[0]}/shelf`, { state: 'OFF' }, 400, 'VALIDATION_FAILED'],
      ['PUT', `/goods/abc/shelf`, { state: 'off' }, 400, 'INVALID_ID'],
      ['PUT', `/goods/1/shelf`, { state: 'off' }, 404, 'GOOD.NOT_FOUND'],
      ['POST', `/product-families`, { name: '坏', shelf: 'hidden' }, 400, 'VALIDATION_FAILED'],
      ['GET', `/goods?shelf=maybe`, undefined, 400, 'VALIDATION_FAILED'],
      ['GET', `/product-families?shelf=1`, undefined, 400, 'VALIDATION_FAILED'],
    ];
    for (const [method, path, body, status, code] of cases) {
      const r = await svc.request(method, path, body);
      expect([method, path, r.status, r.body.error?.code]).toEqual([method, path, status, code]);
    }
  });
});
