/** /tag-groups over real HTTP: CRUD, the one-group-per-dimension rule, paging, and the error answers. */
import { startTestService, type TestService, expectNoFailedProjections } from '../../support/service';

describe('administrators manage tag groups', () => {
  let svc: TestService;
  const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => svc.request(method, path, body, headers);
  const create = async (body: unknown) => {
    const r = await api('POST', '/tag-groups', body);
    expect(r.status).toBe(201);
    return r.body as { id: string; name: string; dimension: string | null; revision: string };
  };

  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(async () => {
    await expectNoFailedProjections(svc);
    await svc.close();
  });

  it('a created group is in the very next read, by id and in the list', async () => {
    const g = await create({ name: '  尺码 ', dimension: 'size' });
    expect(g).toEqual({ id: expect.stringMatching(/^\d+$/), name: '尺码', dimension: 'size', tagCount: 0, revision: '0' });
    expect(BigInt(g.id)).toBeGreaterThan(1n << 50n); // allocated range, above supplier ids
    const one = await api('GET', `/tag-groups/${g.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(g);
    expect(one.headers.get('etag')).toBe('"0"');
    const list = await api('GET', '/tag-groups?dimension=size');
    expect(list.body).toEqual({ items: [g], total: 1, page: 1, pageSize: 50 });
  });

  it('a dimension belongs to at most one group: create and update both get 409 TAG_GROUP.DIMENSION_TAKEN', async () => {
    const colour = await create({ name: '颜色', dimension: 'color' });
    const taken = await api('POST', '/tag-groups', { name: 'Colours', dimension: 'color' });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({ code: 'TAG_GROUP.DIMENSION_TAKEN', details: { dimension: 'color', tagGroupId: colour.id } });

    const style = await create({ name: '风格' });
    expect(style.dimension).toBeNull();
    const move = await api('PATCH', `/tag-groups/${style.id}`, { dimension: 'color' });
    expect(move.status).toBe(409);
    expect(move.body.error.code).toBe('TAG_GROUP.DIMENSION_TAKEN');

    // Freed, the dimension can be taken by another group.
    const freed = await api('PATCH', `/tag-groups/${colour.id}`, { dimension: null });
    expect(freed.status).toBe(200);
    expect(freed.body).toMatchObject({ id: colour.id, dimension: null, revision: '1' });
    const took = await api('PATCH', `/tag-groups/${style.id}`, { dimension: 'color' });
    expect(took.status).toBe(200);
    expect(took.body.dimension).toBe('color');
  });

  it('two administrators racing for one dimension: exactly one wins', async () => {
    const answers = await Promise.all([1, 2, 3].map((i) => api('POST', '/tag-groups', { name: `工艺 ${i}`, dimension: 'craft' })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409]);
    expect((await api('GET', '/tag-groups?dimension=craft')).body.total).toBe(1);
  });

  it('update renames; the answer and the next read show it', async () => {
    const g = await create({ name: '印花', dimension: 'printCount' });
    const r = await api('PATCH', `/tag-groups/${g.id}`, { name: '印花面数' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: g.id, name: '印花面数', dimension: 'printCount', revision: '1' });
    expect((await api('GET', `/tag-groups/${g.id}`)).body.name).toBe('印花面数');
    // Nothing to change: 200, same revision, nothing appended.
    const same = await api('PATCH', `/tag-groups/${g.id}`, { name: '印花面数' });
    expect(same.status).toBe(200);
    expect(same.body.revision).toBe('1');
  });

  it('a stale If-Match is 409: the edit someone else made is not overwritten', async () => {
    const g = await create({ name: 'A' });
    expect((await api('PATCH', `/tag-groups/${g.id}`, { name: 'B' }, { 'if-match': '"0"' })).status).toBe(200);
    const stale = await api('PATCH', `/tag-groups/${g.id}`, { name: 'C' }, { 'if-match': '"0"' });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('EVENT_STORE.WRONG_REVISION');
    expect((await api('GET', `/tag-groups/${g.id}`)).body.name).toBe('B');
    expect((await api('PATCH', `/tag-groups/${g.id}`, { name: 'C' }, { 'if-match': 'nonsense' })).status).toBe(400);
  });

  it('a group with tags cannot be deleted (409); empty, it can, and is gone from reads', async () => {
    const g = await create({ name: '物流', dimension: 'logistics' });
    const tag = await api('POST', '/tags', { name: '包邮', groupId: g.id });
    expect(tag.status).toBe(201);
    expect((await api('GET', `/tag-groups/${g.id}`)).body.tagCount).toBe(1);
    const refused = await api('DELETE', `/tag-groups/${g.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('TAG_GROUP.HAS_TAGS');

    expect((await api('DELETE', `/tags/${tag.body.id}`)).status).toBe(204);
    expect((await api('DELETE', `/tag-groups/${g.id}`)).status).toBe(204);
    expect((await api('GET', `/tag-groups/${g.id}`)).status).toBe(404);
    expect((await api('GET', '/tag-groups?dimension=logistics')).body.total).toBe(0);
    // The dimension is free again.
    await create({ name: '物流方式', dimension: 'logistics' });
  });

  it('unknown ids are 404 TAG_GROUP.NOT_FOUND; malformed ids are 400', async () => {
    const unknown = '1125899906842624999';
    for (const [method, body] of [['GET'], ['PATCH', { name: 'x' }], ['DELETE']] as const) {
      const r = await api(method, `/tag-groups/${unknown}`, body);
      expect([method, r.status, r.body.error.code]).toEqual([method, 404, 'TAG_GROUP.NOT_FOUND']);
      const bad = await api(method, '/tag-groups/12x', body);
      expect([method, bad.status, bad.body.error.code]).toEqual([method, 400, 'INVALID_ID']);
    }
    expect((await api('GET', '/tag-groups/99999999999999999999')).status).toBe(400); // beyond 64 bits
  });

  it('bodies are strict and validated', async () => {
    for (const body of [{ name: 'x', extra: 1 }, { name: '' }, { name: '   ' }, { name: 'x', dimension: 'weight' }, {}]) {
      const r = await api('POST', '/tag-groups', body);
      expect([body, r.status, r.body.error.code]).toEqual([body, 400, 'VALIDATION_FAILED']);
    }
  });

  it('lists page with page and pageSize; pageSize 1001 and page 0 are 400', async () => {
    const all = await api('GET', '/tag-groups?pageSize=1000');
    expect(all.status).toBe(200);
    const total = all.body.total as number;
    expect(total).toBeGreaterThanOrEqual(5);
    const p2 = await api('GET', '/tag-groups?page=2&pageSize=2');
    expect(p2.body).toMatchObject({ total, page: 2, pageSize: 2 });
    expect(p2.body.items).toEqual(all.body.items.slice(2, 4));
    for (const q of ['pageSize=1001', 'pageSize=0', 'page=0', 'page=x', 'page=1&page=2', 'unknown=1']) {
      const r = await api('GET', `/tag-groups?${q}`);
      expect([q, r.status]).toEqual([q, 400]);
    }
  });

  it('only the administrator may use the routes', async () => {
    const anonymous = await svc.request('GET', '/tag-groups', undefined, {}, { anonymous: true });
    expect(anonymous.status).toBe(401);
  });
});
