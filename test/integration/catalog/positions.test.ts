/** /positions over real HTTP: CRUD with the goods placed in each, paging and the error answers. */
import { startTestService, type TestService, expectNoFailedProjections } from '../../support/service';

describe('administrators manage positions', () => {
  let svc: TestService;
  const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => svc.request(method, path, body, headers);
  // Positions place goods that exist (an unknown good id is a 400).
  let G1 = '';
  let G2 = '';
  let G3 = '';

  beforeAll(async () => {
    svc = await startTestService();
    [G1, G2, G3] = (await Promise.all(['位置商品 A1', '位置商品 A2', '位置商品 A3'].map(async (name) => (await api('POST', '/goods', { name })).body.id as string))) as [
      string,
      string,
      string,
    ];
  });
  afterAll(async () => {
    await expectNoFailedProjections(svc);
    await svc.close();
  });

  it('a created position, with its goods in order, is in the very next read', async () => {
    const r = await api('POST', '/positions', { name: '热销', goodIds: [G2, G1] });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ id: expect.stringMatching(/^\d+$/), name: '热销', sortOrder: 0, goodIds: [G2, G1], revision: '0' });
    expect((await api('GET', `/positions/${r.body.id}`)).body).toEqual(r.body);
    const list = await api('GET', '/positions');
    expect(list.body).toEqual({ items: [r.body], total: 1, page: 1, pageSize: 50 });
    const rows = await svc.db.pool.query(`SELECT good_id, sort_order FROM position_goods WHERE position_id = $1 ORDER BY sort_order`, [r.body.id]);
    expect(rows.rows).toEqual([
      { good_id: G2, sort_order: 0 },
      { good_id: G1, sort_order: 1 },
    ]);
  });

  it('PATCH takes the same fields, partially; the goods list is replaced whole', async () => {
    const p = (await api('POST', '/positions', { name: '新品', sortOrder: 5, goodIds: [G1] })).body;
    const renamed = await api('PATCH', `/positions/${p.id}`, { name: '新品上架' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ ...p, name: '新品上架', revision: '1' });
    const regoods = await api('PATCH', `/positions/${p.id}`, { goodIds: [G3, G1, G2], sortOrder: -1 });
    expect(regoods.body).toMatchObject({ goodIds: [G3, G1, G2], sortOrder: -1, revision: '2' });
    const emptied = await api('PATCH', `/positions/${p.id}`, { goodIds: [] });
    expect(emptied.body.goodIds).toEqual([]);
    // Lists go by sortOrder, then id.
    const items = (await api('GET', '/positions')).body.items as { id: string; sortOrder: number }[];
    expect(items[0]!.id).toBe(p.id);
  });

  it('a good placed twice is 400 POSITION.DUPLICATE_GOODS; bodies are strict', async () => {
    const dup = await api('POST', '/positions', { name: 'x', goodIds: [G1, G1] });
    expect(dup.status).toBe(400);
    expect(dup.body.error).toMatchObject({ code: 'POSITION.DUPLICATE_GOODS', details: { duplicated: [G1] } });
    for (const body of [{ name: 'x' }, { name: 'x', goodIds: ['abc'] }, { name: 'x', goodIds: [], extra: 1 }, { goodIds: [] }]) {
      const r = await api('POST', '/positions', body);
      expect([body, r.status, r.body.error.code]).toEqual([body, 400, 'VALIDATION_FAILED']);
    }
  });

  it('a deleted position is gone from reads, with its goods', async () => {
    const p = (await api('POST', '/positions', { name: '清仓', goodIds: [G1, G2] })).body;
    expect((await api('DELETE', `/positions/${p.id}`)).status).toBe(204);
    expect((await api('GET', `/positions/${p.id}`)).status).toBe(404);
    expect(((await api('GET', '/positions')).body.items as { id: string }[]).map((x) => x.id)).not.toContain(p.id);
    expect((await svc.db.pool.query(`SELECT 1 FROM position_goods WHERE position_id = $1`, [p.id])).rows).toHaveLength(0);
  });

  it('unknown ids are 404 POSITION.NOT_FOUND; malformed ids are 400; a stale If-Match is 409', async () => {
    const unknown = '1125899906842626999';
    for (const [method, body] of [['GET'], ['PATCH', { name: 'x' }], ['DELETE']] as const) {
      const r = await api(method, `/positions/${unknown}`, body);
      expect([method, r.status, r.body.error.code]).toEqual([method, 404, 'POSITION.NOT_FOUND']);
      const bad = await api(method, '/positions/1.5', body);
      expect([method, bad.status, bad.body.error.code]).toEqual([method, 400, 'INVALID_ID']);
    }
    const p = (await api('POST', '/positions', { name: 'rev', goodIds: [] })).body;
    await api('PATCH', `/positions/${p.id}`, { name: 'rev 2' });
    const stale = await api('PATCH', `/positions/${p.id}`, { name: 'rev 3' }, { 'if-match': '"0"' });
    expect(stale.status).toBe(409);
    expect((await api('PATCH', `/positions/${p.id}`, { name: 'rev 3' }, { 'if-match': '"1"' })).status).toBe(200);
  });

  it('lists page; pageSize 1001 is 400', async () => {
    const all = (await api('GET', '/positions?pageSize=1000')).body;
    const p = await api('GET', '/positions?page=2&pageSize=1');
    expect(p.body).toMatchObject({ page: 2, pageSize: 1, total: all.total });
    expect(p.body.items).toEqual(all.items.slice(1, 2));
    expect((await api('GET', '/positions?pageSize=1001')).status).toBe(400);
  });
});
