/** /tags over real HTTP: CRUD, names unique per group, the full-order sort, paging and the error answers. */
import { startTestService, type TestService, expectNoFailedProjections } from '../../support/service';

describe('administrators manage tags', () => {
  let svc: TestService;
  let sizes: string;
  let colours: string;
  const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => svc.request(method, path, body, headers);
  const create = async (body: Record<string, unknown>) => {
    const r = await api('POST', '/tags', body);
    expect(r.status).toBe(201);
    return r.body as { id: string; name: string; groupId: string; sortOrder: number; color: string | null; revision: string };
  };
  const ids = async (query = '') => ((await api('GET', `/tags?pageSize=1000${query}`)).body.items as { id: string }[]).map((t) => t.id);

  beforeAll(async () => {
    svc = await startTestService();
    sizes = (await api('POST', '/tag-groups', { name: '尺码', dimension: 'size' })).body.id;
    colours = (await api('POST', '/tag-groups', { name: '颜色', dimension: 'color' })).body.id;
  });
  afterAll(async () => {
    await expectNoFailedProjections(svc);
    await svc.close();
  });

  it('created tags go after the existing ones and are in the very next read', async () => {
    const s = await create({ name: 'S', groupId: sizes });
    const m = await create({ name: 'M', groupId: sizes });
    const red = await create({ name: '红色', groupId: colours, color: '#ff0000' });
    expect(s).toEqual({ id: expect.stringMatching(/^\d+$/), name: 'S', groupId: sizes, sortOrder: 0, color: null, revision: '0' });
    expect(m.sortOrder).toBe(1);
    expect(red).toMatchObject({ sortOrder: 2, color: '#ff0000' });
    expect((await api('GET', `/tags/${m.id}`)).body).toEqual(m);
    expect(await ids(`&groupId=${sizes}`)).toEqual([s.id, m.id]);
    const all = await api('GET', '/tags');
    expect(all.body).toMatchObject({ total: 3, page: 1, pageSize: 50 });
  });

  it('names are unique within a group (409 TAG.NAME_TAKEN, ignoring case and spaces), not across groups', async () => {
    await create({ name: 'Navy', groupId: colours });
    const dup = await api('POST', '/tags', { name: ' navy ', groupId: colours });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toMatchObject({ code: 'TAG.NAME_TAKEN', details: { groupId: colours } });
    await create({ name: 'Navy', groupId: sizes }); // another group: fine
    const racing = await Promise.all([1, 2].map(() => api('POST', '/tags', { name: 'Teal', groupId: colours })));
    expect(racing.map((r) => r.status).sort()).toEqual([201, 409]);
  });

  it('a tag naming an unknown group is 400 UNKNOWN_REFERENCE naming groupId', async () => {
    const r = await api('POST', '/tags', { name: 'X', groupId: '1125899906842624999' });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'UNKNOWN_REFERENCE', details: { field: 'groupId', missing: ['1125899906842624999'] } });
  });

  it('update renames, recolours and moves a tag to another group, checking the name there', async () => {
    const t = await create({ name: 'XL', groupId: sizes });
    const r = await api('PATCH', `/tags/${t.id}`, { name: 'XXL', color: '#00f' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: t.id, name: 'XXL', color: '#00f', groupId: sizes, revision: '1' });
    const clash = await api('PATCH', `/tags/${t.id}`, { name: 'navy', groupId: colours });
    expect(clash.status).toBe(409);
    expect(clash.body.error.code).toBe('TAG.NAME_TAKEN');
    const moved = await api('PATCH', `/tags/${t.id}`, { groupId: colours });
    expect(moved.status).toBe(200);
    expect(moved.body.groupId).toBe(colours);
    expect(await ids(`&groupId=${colours}`)).toContain(t.id);
    expect((await api('PATCH', `/tags/${t.id}`, { groupId: '1125899906842624999' })).body.error.code).toBe('UNKNOWN_REFERENCE');
  });

  it('PATCH /tags/sort saves a full new order in one event; the next list follows it', async () => {
    const before = await ids();
    const reversed = [...before].reverse();
    const eventsBefore = Number((await svc.db.pool.query(`SELECT count(*) AS n FROM es_events WHERE type = 'TagsReordered'`)).rows[0].n);
    const r = await api('PATCH', '/tags/sort', { ids: reversed });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ids: reversed });
    expect(await ids()).toEqual(reversed);
    const list = (await api('GET', '/tags?pageSize=1000')).body.items as { sortOrder: number }[];
    expect(list.map((t) => t.sortOrder)).toEqual(reversed.map((_, i) => i));
    const events = await svc.db.pool.query(`SELECT stream_id FROM es_events WHERE type = 'TagsReordered'`);
    expect(events.rows).toHaveLength(eventsBefore + 1);
    expect(events.rows.every((e) => e.stream_id === 'tag-order')).toBe(true);
    // The same order again appends nothing.
    expect((await api('PATCH', '/tags/sort', { ids: reversed })).status).toBe(200);
    expect((await svc.db.pool.query(`SELECT count(*) AS n FROM es_events WHERE type = 'TagsReordered'`)).rows[0].n).toBe(String(eventsBefore + 1));
    // A tag edit afterwards keeps its place unless it names a sortOrder.
    await api('PATCH', `/tags/${reversed[0]}`, { color: '#123456' });
    expect(await ids()).toEqual(reversed);
  });

  it('an order that is not a permutation of the live tags is 400 TAGS.NOT_A_PERMUTATION with what is wrong', async () => {
    const current = await ids();
    const [first, second, ...rest] = current;
    const unknown = '1125899906842625999';
    const r = await api('PATCH', '/tags/sort', { ids: [first, first, unknown, ...rest] });
    expect(r.status).toBe(400);
    expect(r.body.error).toEqual({
      code: 'TAGS.NOT_A_PERMUTATION',
      message: expect.any(String),
      details: { missing: [second], unknown: [unknown], duplicated: [first] },
    });
    expect(await ids()).toEqual(current);
    expect((await api('PATCH', '/tags/sort', { ids: ['x'] })).status).toBe(400);
    expect((await api('PATCH', '/tags/sort', { order: current })).status).toBe(400);
  });

  it('a deleted tag is gone from reads and from the order a sort must name', async () => {
    const t = await create({ name: 'Gone', groupId: sizes });
    expect((await api('DELETE', `/tags/${t.id}`)).status).toBe(204);
    expect((await api('GET', `/tags/${t.id}`)).status).toBe(404);
    const live = await ids();
    expect(live).not.toContain(t.id);
    expect((await api('PATCH', '/tags/sort', { ids: [...live, t.id] })).body.error.details).toMatchObject({ unknown: [t.id] });
    expect((await api('PATCH', '/tags/sort', { ids: [...live].reverse() })).status).toBe(200);
    expect((await api('DELETE', `/tags/${t.id}`)).status).toBe(404);
  });

  it('unknown ids are 404 TAG.NOT_FOUND; malformed ids are 400; a stale If-Match is 409', async () => {
    const unknown = '1125899906842625998';
    for (const [method, body] of [['GET'], ['PATCH', { name: 'x' }], ['DELETE']] as const) {
      const r = await api(method, `/tags/${unknown}`, body);
      expect([method, r.status, r.body.error.code]).toEqual([method, 404, 'TAG.NOT_FOUND']);
      const bad = await api(method, '/tags/-1', body);
      expect([method, bad.status, bad.body.error.code]).toEqual([method, 400, 'INVALID_ID']);
    }
    expect((await api('GET', '/tags?groupId=abc')).status).toBe(400);
    const t = await create({ name: 'Rev', groupId: sizes });
    await api('PATCH', `/tags/${t.id}`, { name: 'Rev2' });
    const stale = await api('DELETE', `/tags/${t.id}`, undefined, { 'if-match': '"0"' });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('EVENT_STORE.WRONG_REVISION');
  });

  it('bodies are strict and validated', async () => {
    for (const body of [{ name: 'x' }, { name: 'x', groupId: sizes, extra: true }, { name: 'x', groupId: sizes, color: 'red' }, { name: 'x', groupId: sizes, sortOrder: 1.5 }]) {
      const r = await api('POST', '/tags', body);
      expect([body, r.status]).toEqual([body, 400]);
    }
  });

  it('lists page; pageSize 1001 is 400', async () => {
    const all = await ids();
    const p = await api('GET', '/tags?page=2&pageSize=3');
    expect(p.body).toMatchObject({ page: 2, pageSize: 3, total: all.length });
    expect(p.body.items.map((t: { id: string }) => t.id)).toEqual(all.slice(3, 6));
    const tooBig = await api('GET', '/tags?pageSize=1001');
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.error.code).toBe('VALIDATION_FAILED');
  });
});
