/**
 * GET /goods takes the public list's filters and sorts (docs/api.md, Administrator): `tagIds` (every
 * tag on the good), `sort` DEFAULT, PRICE_ASC, PRICE_DESC, NEWEST applied to goods; without `sort` the
 * list stays in id order. Against a real service with links synchronised from the simulator.
 */
import { expectNoFailedProjections, startTestService, type TestService } from '../../support/service';

describe('GET /goods: tag filter and sorts', () => {
  let svc: TestService;
  const ids: Record<string, string> = {};
  let linkPrice: Record<string, number>;

  const post = async (path: string, body: unknown): Promise<any> => {
    const r = await svc.request('POST', path, body);
    if (r.status !== 201) throw new Error(`POST ${path} → ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const list = async (query: string): Promise<string[]> => {
    const r = await svc.request('GET', `/goods?pageSize=1000&${query}`);
    expect(r.status).toBe(200);
    return r.body.items.map((g: { id: string }) => g.id);
  };

  beforeAll(async () => {
    svc = await startTestService({ env: { SIMULATOR_LINKS: '50' } });
    expect((await (await svc.services.sync.start('origin_goods', { by: 'system:test' })).finished).state).toBe('succeeded');
    // Countries: "Second" sorts before "First"; categories: top → middle B (first) and middle A.
    ids.cFirst = (await post('/countries', { name: '第一国', code: 'XA', sortOrder: 5 })).id;
    ids.cSecond = (await post('/countries', { name: '第二国', code: 'XB', sortOrder: 1 })).id;
    ids.top = (await post('/categories', { name: '顶级', sortOrder: 0 })).id;
    ids.midA = (await post('/categories', { name: '中类甲', parentId: ids.top, sortOrder: 2 })).id;
    ids.midB = (await post('/categories', { name: '中类乙', parentId: ids.top, sortOrder: 1 })).id;
    const group = (await post('/tag-groups', { name: '列表测试组', dimension: null })).id;
    ids.red = (await post('/tags', { name: '红', groupId: group })).id;
    ids.big = (await post('/tags', { name: '大', groupId: group })).id;

    const links = (await svc.request('GET', '/origin-goods?pageSize=3')).body.items as { id: string; price: string }[];
    expect(links).toHaveLength(3);
    linkPrice = Object.fromEntries(links.map((l) => [l.id, Number(l.price)]));
    // Goods: three from links (with prices), three custom ones (no price).
    const make = (body: Record<string, unknown>) => post('/goods', body).then((g) => g.id as string);
    ids.l0 = await make({ originGoodId: links[0]!.id, countryId: ids.cFirst, categoryId: ids.midA, tagIds: [ids.red], goodPriority: 1 });
    ids.l1 = await make({ originGoodId: links[1]!.id, countryId: ids.cSecond, categoryId: ids.midA, tagIds: [ids.red, ids.big] });
    ids.l2 = await make({ originGoodId: links[2]!.id, countryId: ids.cSecond, categoryId: ids.midB });
    ids.x0 = await make({ name: '自定义 无国家', tagIds: [ids.big] });
    ids.x1 = await make({ name: '自定义 高优先', countryId: ids.cFirst, categoryId: ids.midA, goodPriority: 9, tagIds: [ids.red, ids.big] });
    ids.x2 = await make({ name: '自定义 顶级类目', countryId: ids.cFirst, categoryId: ids.top });
    linkPrice[ids.l0] = linkPrice[links[0]!.id]!;
    linkPrice[ids.l1] = linkPrice[links[1]!.id]!;
    linkPrice[ids.l2] = linkPrice[links[2]!.id]!;
  });
  afterAll(async () => {
    if (svc) await expectNoFailedProjections(svc);
    await svc?.close();
  });

  it('tagIds: only goods carrying every listed tag; an empty value is no filter; a bad id is a 400', async () => {
    expect(new Set(await list(`tagIds=${ids.red}`))).toEqual(new Set([ids.l0, ids.l1, ids.x1]));
    expect(new Set(await list(`tagIds=${ids.big},${ids.red}`))).toEqual(new Set([ids.l1, ids.x1]));
    // combined with the other filters
    expect(await list(`tagIds=${ids.red}&countryId=${ids.cFirst}&sort=DEFAULT`)).toEqual([ids.x1, ids.l0]);
    expect(await list(`tagIds=`)).toHaveLength(6);
    const bad = await svc.request('GET', '/goods?tagIds=1,abc');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_FAILED');
  });

  it('sort=DEFAULT: country order, then middle category order, then priority; no country or top-level category last', async () => {
    // cSecond (sortOrder 1): midB before midA → l2, l1. cFirst: midA → x1 (priority 9), l0 (1); top-level x2 after. No country: x0.
    expect(await list('sort=DEFAULT')).toEqual([ids.l2, ids.l1, ids.x1, ids.l0, ids.x2, ids.x0]);
    // Reordering countries reorders the list.
    expect((await svc.request('PATCH', `/countries/${ids.cFirst}`, { sortOrder: 0 })).status).toBe(200);
    expect(await list('sort=DEFAULT')).toEqual([ids.x1, ids.l0, ids.x2, ids.l2, ids.l1, ids.x0]);
  });

  it('PRICE_ASC / PRICE_DESC: by the link price, goods without a price last; NEWEST: newest first', async () => {
    const priced = [ids.l0!, ids.l1!, ids.l2!];
    const asc = await list('sort=PRICE_ASC');
    const desc = await list('sort=PRICE_DESC');
    const prices = (xs: string[]) => xs.slice(0, 3).map((id) => linkPrice[id]!);
    expect(new Set(asc.slice(0, 3))).toEqual(new Set(priced));
    expect(prices(asc)).toEqual([...prices(asc)].sort((a, b) => a - b));
    expect(new Set(desc.slice(0, 3))).toEqual(new Set(priced));
    expect(prices(desc)).toEqual([...prices(desc)].sort((a, b) => b - a));
    expect(new Set(asc.slice(3))).toEqual(new Set([ids.x0, ids.x1, ids.x2]));
    expect(await list('sort=NEWEST')).toEqual([ids.x2, ids.x1, ids.x0, ids.l2, ids.l1, ids.l0]);
    // Paging cuts the sorted list.
    const second = await svc.request('GET', '/goods?sort=NEWEST&page=2&pageSize=2');
    expect(second.body.items.map((g: { id: string }) => g.id)).toEqual([ids.x0, ids.l2]);
    expect(second.body.total).toBe(6);
  });

  it('without sort the list stays in id order; an unknown sort is a 400', async () => {
    const plain = await list('');
    expect(plain).toEqual([...plain].sort((a, b) => a.length - b.length || (a < b ? -1 : 1)));
    const bad = await svc.request('GET', '/goods?sort=CHEAPEST');
    expect(bad.status).toBe(400);
  });
});
