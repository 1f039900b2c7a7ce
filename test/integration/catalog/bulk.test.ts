/**
 * Bulk changes over real HTTP (docs/api.md, Bulk changes): many goods or families, named by id or
 * by the list's filter, each changed by its own command with a result per item; a large selection
 * as a run whose progress is read over HTTP; a replacement that moves every user of a country,
 * category or tag and then deletes it; and the moves of a category and a tag.
 */
import { startSimulator, type RunningSimulator } from '../../../src/sync/simulator';
import { eventually } from '../../support/eventually';
import { expectNoFailedProjections, startTestService, type TestService } from '../../support/service';

describe('bulk changes', () => {
  let svc: TestService;
  const api = (method: string, path: string, body?: unknown) => svc.request(method, path, body);
  const make = async (path: string, body: Record<string, unknown>) => {
    const r = await api('POST', path, body);
    expect(r.status).toBe(201);
    return r.body.id as string;
  };
  const good = async (name: string, fields: Record<string, unknown> = {}) => make('/goods', { name, ...fields });
  const goodOf = async (id: string) => (await api('GET', `/goods/${id}`)).body;
  const group = async (name: string) => make('/tag-groups', { name });

  beforeAll(async () => {
    svc = await startTestService({ env: { COMMAND_WAIT_MS: '30000' } });
  });
  afterAll(async () => {
    await expectNoFailedProjections(svc);
    await svc.close();
  });

  it('by ids: each item its own command, a result per item with its index; an unknown good is skipped, the others go on', async () => {
    const de = await make('/countries', { name: '德国', code: 'DE' });
    const a = await good('批量甲 BK01');
    const b = await good('批量乙 BK02', { countryId: de });
    const r = await api('POST', '/goods/bulk', { ids: [a, '12345', b], action: { kind: 'setCountry', countryId: de } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ target: 'goods', state: 'succeeded', done: 3, total: 3, counts: { done: 2, changed: 1, skipped: 1 }, error: null });
    expect(r.body.results).toEqual([
      { index: 0, id: a, outcome: 'done', changed: true },
      { index: 1, id: '12345', outcome: 'skipped', code: 'GOOD.NOT_FOUND', message: expect.any(String) },
      { index: 2, id: b, outcome: 'done', changed: false },
    ]);
    // Answered once the read models show it, and recorded as an ordinary edit in the good's history.
    expect((await goodOf(a)).countryId).toBe(de);
    const history = (await api('GET', `/goods/${a}/history`)).body.items as { type: string; why: string; changes: Record<string, unknown> | null }[];
    expect(history.at(-1)).toMatchObject({ type: 'GoodUpdated', why: 'UpdateGood', changes: { countryId: { from: null, to: de } } });
    expect((await api('GET', `/bulk-runs/${r.body.runId}`)).body).toEqual(r.body);
  });

  it("by the list's filter: every good it matches now; tags are added and removed on each good's own tags", async () => {
    const g = await group('批量组');
    const [old, neu] = [await make('/tags', { name: '旧标', groupId: g }), await make('/tags', { name: '新标', groupId: g })];
    const cat = await make('/categories', { name: '批量类目' });
    const ids = [await good('筛选甲 FT01', { categoryId: cat, tagIds: [old] }), await good('筛选乙 FT02', { categoryId: cat })];
    const outside = await good('筛选外 FT03', { tagIds: [old] });
    const r = await api('POST', '/goods/bulk', { filter: { categoryId: cat }, action: { kind: 'setTags', add: [neu], remove: [old] } });
    expect(r.status).toBe(200);
    expect(r.body.results.map((x: { id: string }) => x.id)).toEqual(ids);
    for (const id of ids) expect((await goodOf(id)).tagIds).toEqual([neu]);
    expect((await goodOf(outside)).tagIds).toEqual([old]);
    // The list filter's own names and values: the keyword as the list takes it.
    const byKeyword = await api('POST', '/goods/bulk', { filter: { keyword: '筛选外' }, action: { kind: 'setCategory', categoryId: cat } });
    expect(byKeyword.body.results).toEqual([{ index: 0, id: outside, outcome: 'done', changed: true }]);
  });

  it('a large selection answers 202 at once with its run, whose progress GET /bulk-runs/:runId reads until it has succeeded', async () => {
    const batch = await api('POST', '/goods/batch', { goods: Array.from({ length: 60 }, (_, i) => ({ name: `大批量 LG${100 + i}` })) });
    const ids: string[] = batch.body.created;
    const cat = await make('/categories', { name: '大批量类目' });
    const r = await api('POST', '/goods/bulk', { ids, action: { kind: 'setCategory', categoryId: cat } });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ state: 'running', total: 60 });
    const end = await eventually(
      async () => {
        const run = (await api('GET', `/bulk-runs/${r.body.runId}`)).body;
        expect(run.state).toBe('succeeded');
        return run;
      },
      120_000,
      100,
    );
    expect(end).toMatchObject({ done: 60, counts: { done: 60, changed: 60, skipped: 0 } });
    expect(end.results.map((x: { index: number }) => x.index)).toEqual(ids.map((_, i) => i));
    const listed = await api('GET', `/goods?categoryId=${cat}&pageSize=100`);
    expect(listed.body.total).toBe(60);
  });

  it('a delete states its impact first (positions, custom memberships, families leaving the shop), then deletes each good', async () => {
    const [a, b] = [await good('删甲 DL01'), await good('删乙 DL02')];
    const fam = await make('/product-families', { name: '删除系列' });
    const none = { size: [], color: [], printCount: [], craft: [], logistics: [] };
    expect((await api('POST', `/product-families/${fam}/custom-members`, { goodId: a, tags: none, price: '9.90' })).status).toBe(201);
    await make('/positions', { name: '首页位', goodIds: [a, b] });
    // The family's only good is a: deleting it takes the family out of the shop.
    const impact = await api('POST', '/goods/bulk/impact', { ids: [a, b] });
    expect(impact.body).toEqual({ counts: { goods: 2, positions: 1, customMemberOf: 1, familiesLeaving: 1 }, blockedBy: [] });
    const r = await api('POST', '/goods/bulk', { ids: [a, b], action: { kind: 'delete' } });
    expect(r.body.counts).toEqual({ done: 2, changed: 2, skipped: 0 });
    expect((await api('GET', `/goods/${a}`)).status).toBe(404);
    expect((await api('GET', `/product-families/${fam}`)).body.customMembers).toEqual([]);
  });

  it("families: country, category and tags go to each family's goods; a delete skips families that are not empty", async () => {
    const none = { size: [], color: [], printCount: [], craft: [], logistics: [] };
    const full = await make('/product-families', { name: '有商品系列' });
    const g = await good('系列商品 FM01');
    expect((await api('POST', `/product-families/${full}/custom-members`, { goodId: g, tags: none, price: '5.00' })).status).toBe(201);
    const empty = await make('/product-families', { name: '空系列' });
    const cat = await make('/categories', { name: '系列类目' });
    const set = await api('POST', '/product-families/bulk', { ids: [full, empty], action: { kind: 'setCategory', categoryId: cat } });
    expect(set.body.results).toEqual([
      { index: 0, id: full, outcome: 'done', changed: true },
      { index: 1, id: empty, outcome: 'skipped', code: 'FAMILY.NO_GOODS', message: expect.any(String) },
    ]);
    expect((await goodOf(g)).categoryId).toBe(cat);
    const impact = await api('POST', '/product-families/bulk/impact', { ids: [full, empty] });
    expect(impact.body).toEqual({ counts: { families: 2, notEmpty: 1, overrides: 0 }, blockedBy: ['notEmpty'] });
    const del = await api('POST', '/product-families/bulk', { filter: { manual: 'true', keyword: '系列' }, action: { kind: 'delete' } });
    const byId = Object.fromEntries(del.body.results.map((x: { id: string }) => [x.id, x]));
    expect(byId[full]).toMatchObject({ outcome: 'skipped', code: 'FAMILY.NOT_EMPTY' });
    expect(byId[empty]).toMatchObject({ outcome: 'done' });
    expect((await api('GET', `/product-families/${empty}`)).status).toBe(404);
  });

  it('on and off the shelf: a family its own state, each good its own; the shop follows and each history says so', async () => {
    const none = { size: [], color: [], printCount: [], craft: [], logistics: [] };
    const fam = await make('/product-families', { name: '上架系列' });
    const [a, b] = [await good('上架甲 SH01'), await good('上架乙 SH02')];
    for (const g of [a, b]) expect((await api('POST', `/product-families/${fam}/custom-members`, { goodId: g, tags: none, price: '7.00' })).status).toBe(201);
    const publicDetail = async () => (await api('GET', `/public/goods/${fam}`)).status;
    await eventually(async () => ((await publicDetail()) === 200 ? true : null), 30_000);

    // Both goods off: the family has no good on the shelf, so it leaves the shop.
    const off = await api('POST', '/goods/bulk', { ids: [a, b], action: { kind: 'setShelf', state: 'off' } });
    expect(off.body.counts).toEqual({ done: 2, changed: 2, skipped: 0 });
    expect([(await goodOf(a)).shelf, (await goodOf(b)).shelf]).toEqual(['off', 'off']);
    expect(await publicDetail()).toBe(404);
    const again = await api('POST', '/goods/bulk', { ids: [a], action: { kind: 'setShelf', state: 'off' } });
    expect(again.body.results).toEqual([{ index: 0, id: a, outcome: 'done', changed: false }]);
    await api('POST', '/goods/bulk', { filter: { shelf: 'off', keyword: '上架' }, action: { kind: 'setShelf', state: 'on' } });
    expect(await publicDetail()).toBe(200);

    // The family's own state; its goods keep theirs.
    const famOff = await api('POST', '/product-families/bulk', { ids: [fam], action: { kind: 'setShelf', state: 'off' } });
    expect(famOff.body.results).toEqual([{ index: 0, id: fam, outcome: 'done', changed: true }]);
    expect((await api('GET', `/product-families/${fam}`)).body).toMatchObject({ shelf: 'off', public: false });
    expect((await goodOf(a)).shelf).toBe('on');
    expect(await publicDetail()).toBe(404);
    const history = (await api('GET', `/product-families/${fam}/history`)).body.items as { type: string; why: string }[];
    expect(history.at(-1)).toMatchObject({ type: 'FamilyShelfSet', why: 'SetFamilyShelf' });
  });

  it('bad bulk requests are 4xx with a code, and change nothing', async () => {
    const a = await good('校验 VL01');
    const bad = [
      [{ ids: [], action: { kind: 'delete' } }, 400, 'VALIDATION_FAILED'],
      [{ ids: [a, a], action: { kind: 'delete' } }, 400, 'VALIDATION_FAILED'],
      [{ ids: [a], action: { kind: 'paint' } }, 400, 'VALIDATION_FAILED'],
      [{ ids: [a], action: { kind: 'setTags' } }, 400, 'VALIDATION_FAILED'],
      [{ ids: [a], action: { kind: 'setShelf', state: 'gone' } }, 400, 'VALIDATION_FAILED'],
      [{ ids: [a], filter: {}, action: { kind: 'delete' } }, 400, 'VALIDATION_FAILED'],
      [{ filter: { page: '2' }, action: { kind: 'delete' } }, 400, 'VALIDATION_FAILED'],
      [{ ids: ['x'], action: { kind: 'delete' } }, 400, 'VALIDATION_FAILED'],
      [{ ids: [a], action: { kind: 'setCountry', countryId: '777' } }, 400, 'UNKNOWN_REFERENCE'],
    ] as const;
    for (const [body, status, code] of bad) {
      const r = await api('POST', '/goods/bulk', body);
      expect([r.status, r.body.error.code]).toEqual([status, code]);
    }
    expect((await goodOf(a)).name).toBe('校验 VL01');
    expect((await api('GET', '/bulk-runs/999')).status).toBe(404);
    expect((await api('GET', '/bulk-runs/999')).body.error.code).toBe('BULK.RUN_NOT_FOUND');
  });

  it('replace and delete: every good of a country moves to the replacement, by its own command, then the country is deleted', async () => {
    const [us, ca] = [await make('/countries', { name: '旧国家', code: 'OL' }), await make('/countries', { name: '新国家', code: 'NW' })];
    const ids = [await good('替换甲 RP01', { countryId: us }), await good('替换乙 RP02', { countryId: us })];
    expect((await api('DELETE', `/countries/${us}`)).status).toBe(409);
    const r = await api('POST', `/countries/${us}/replace`, { replaceWith: ca });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ target: 'countries', action: { kind: 'replace', id: us, replaceWith: ca }, state: 'succeeded', counts: { done: 2, skipped: 0 } });
    for (const id of ids) expect((await goodOf(id)).countryId).toBe(ca);
    expect((await api('GET', `/countries/${us}`)).status).toBe(404);
  });

  it('replace and delete of a category moves its goods and its subcategories; of a tag, the goods carrying it', async () => {
    const [old, neu] = [await make('/categories', { name: '旧类目' }), await make('/categories', { name: '新类目' })];
    const child = await make('/categories', { name: '旧子类目', parentId: old });
    const g = await good('类目替换 RC01', { categoryId: old });
    const r = await api('POST', `/categories/${old}/replace`, { replaceWith: neu });
    expect(r.body).toMatchObject({ state: 'succeeded', counts: { done: 2, skipped: 0 } });
    expect((await api('GET', `/categories/${child}`)).body.parentId).toBe(neu);
    expect((await goodOf(g)).categoryId).toBe(neu);
    expect((await api('GET', `/categories/${old}`)).status).toBe(404);

    const grp = await group('替换标签组');
    const [t1, t2] = [await make('/tags', { name: '替旧', groupId: grp }), await make('/tags', { name: '替新', groupId: grp })];
    const tg = await good('标签替换 RT01', { tagIds: [t1] });
    expect((await api('POST', `/tags/${t1}/replace`, { replaceWith: t2 })).body.state).toBe('succeeded');
    expect((await goodOf(tg)).tagIds).toEqual([t2]);
    expect((await api('GET', `/tags/${t1}`)).status).toBe(404);
  });

  it('a replacement that names nothing, itself or (for a category) lies under it is 400; no such resource is 404; nothing moves', async () => {
    const c = await make('/countries', { name: '校验国家', code: 'VC' });
    const g = await good('校验替换 RV01', { countryId: c });
    const cases = [
      ['/countries/' + c, { replaceWith: '888' }, 400, 'UNKNOWN_REFERENCE'],
      ['/countries/' + c, { replaceWith: c }, 400, 'VALIDATION_FAILED'],
      ['/countries/' + c, {}, 400, 'VALIDATION_FAILED'],
      ['/countries/999', { replaceWith: c }, 404, 'COUNTRY.NOT_FOUND'],
    ] as const;
    for (const [path, body, status, code] of cases) {
      const r = await api('POST', `${path}/replace`, body);
      expect([r.status, r.body.error.code]).toEqual([status, code]);
    }
    const top = await make('/categories', { name: '上级' });
    const under = await make('/categories', { name: '下级', parentId: top });
    const cycle = await api('POST', `/categories/${top}/replace`, { replaceWith: under });
    expect([cycle.status, cycle.body.error.code]).toEqual([400, 'CATEGORY.PARENT_CYCLE']);
    expect((await goodOf(g)).countryId).toBe(c);
    expect((await api('GET', `/categories/${under}`)).body.parentId).toBe(top);
  });

  it('moves: a category to another parent, a tag to another group', async () => {
    const [a, b] = [await make('/categories', { name: '父甲' }), await make('/categories', { name: '父乙' })];
    const c = await make('/categories', { name: '移动类目', parentId: a });
    expect((await api('PATCH', `/categories/${c}`, { parentId: b })).body.parentId).toBe(b);
    const [g1, g2] = [await group('组一'), await group('组二')];
    const t = await make('/tags', { name: '移动标签', groupId: g1 });
    expect((await api('PATCH', `/tags/${t}`, { groupId: g2 })).body.groupId).toBe(g2);
  });
});

describe('replace and delete while links use it', () => {
  let sim: RunningSimulator;
  let svc: TestService;
  beforeAll(async () => {
    sim = await startSimulator({ links: 10, seed: 3 });
    svc = await startTestService({ env: { UPSTREAM_URL: sim.url } });
    for (const kind of ['categories', 'origin_goods'] as const) expect((await (await svc.services.sync.start(kind, { by: 'system:test' })).finished).state).toBe('succeeded');
    expect((await svc.request('POST', '/product-families/organize')).status).toBe(200);
  });
  afterAll(async () => {
    await expectNoFailedProjections(svc);
    await svc.close();
    await sim.close();
  });

  it("is refused before anything moves: a link's country comes from its name, which no replacement changes", async () => {
    const countries = (await svc.request('GET', '/countries?pageSize=100')).body.items as { id: string; name: string }[];
    const used = countries.find((c) => c.name === '美国')!;
    const other = await svc.request('POST', '/countries', { name: '替补', code: 'RB' });
    const g = await svc.request('POST', '/goods', { name: '链接国家 LK01', countryId: used.id });
    const r = await svc.request('POST', `/countries/${used.id}/replace`, { replaceWith: other.body.id });
    expect(r.status).toBe(409);
    expect(r.body.error).toMatchObject({ code: 'COUNTRY.IN_USE', details: { blockedBy: ['links'] } });
    expect((await svc.request('GET', `/goods/${g.body.id}`)).body.countryId).toBe(used.id);
  });
});
