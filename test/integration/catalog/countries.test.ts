/** /countries over real HTTP: CRUD, the full-order sort, living alongside the supplier mirror. */
import { startTestService, type TestService, expectNoFailedProjections } from '../../support/service';
import { eventually } from '../../support/eventually';

describe('administrators manage countries', () => {
  let svc: TestService;
  const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => svc.request(method, path, body, headers);
  const create = async (body: Record<string, unknown>) => {
    const r = await api('POST', '/countries', body);
    expect(r.status).toBe(201);
    return r.body as { id: string; name: string; code: string; sortOrder: number; source: string; revision: string };
  };
  const ids = async () => ((await api('GET', '/countries?pageSize=1000')).body.items as { id: string }[]).map((c) => c.id);

  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(async () => {
    await expectNoFailedProjections(svc);
    await svc.close();
  });

  it('created countries get allocated ids, default sortOrder 0, and are listed by sortOrder then id', async () => {
    const us = await create({ name: '美国', code: 'US' });
    const uk = await create({ name: '英国', code: 'UK' });
    const de = await create({ name: '德国', code: 'DE', sortOrder: -1 });
    expect(us).toEqual({ id: expect.stringMatching(/^\d+$/), name: '美国', code: 'US', sortOrder: 0, source: 'admin', revision: '0' });
    expect(BigInt(us.id)).toBeGreaterThan(1n << 50n);
    expect((await api('GET', `/countries/${uk.id}`)).body).toEqual(uk);
    expect(await ids()).toEqual([de.id, us.id, uk.id]);
    expect((await api('GET', '/countries')).body).toMatchObject({ total: 3, page: 1, pageSize: 50 });
  });

  it('PATCH /countries/sort saves the full new order as one event on country-order', async () => {
    const before = await ids();
    const order = [before[1]!, before[2]!, before[0]!];
    const r = await api('PATCH', '/countries/sort', { ids: order });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ids: order });
    expect(await ids()).toEqual(order);
    const items = (await api('GET', '/countries')).body.items as { sortOrder: number }[];
    expect(items.map((c) => c.sortOrder)).toEqual([0, 1, 2]);
    const events = await svc.db.pool.query(`SELECT stream_id FROM es_events WHERE type = 'CountriesReordered'`);
    expect(events.rows).toEqual([{ stream_id: 'country-order' }]);
  });

  it('an order that is not a permutation is 400 COUNTRIES.NOT_A_PERMUTATION and changes nothing', async () => {
    const current = await ids();
    const r = await api('PATCH', '/countries/sort', { ids: current.slice(1) });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'COUNTRIES.NOT_A_PERMUTATION', details: { missing: [current[0]], unknown: [], duplicated: [] } });
    expect((await api('PATCH', '/countries/sort', { ids: [...current, current[0]] })).body.error.details.duplicated).toEqual([current[0]]);
    expect(await ids()).toEqual(current);
  });

  it('update edits name, code and sortOrder; delete hides the country', async () => {
    const c = await create({ name: '法国', code: 'FR', sortOrder: 10 });
    const r = await api('PATCH', `/countries/${c.id}`, { name: '法兰西', sortOrder: 11 });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: c.id, name: '法兰西', code: 'FR', sortOrder: 11, revision: '1' });
    expect((await api('DELETE', `/countries/${c.id}`)).status).toBe(204);
    expect((await api('GET', `/countries/${c.id}`)).status).toBe(404);
    expect(await ids()).not.toContain(c.id);
    expect((await api('PATCH', `/countries/${c.id}`, { name: 'x' })).status).toBe(404);
  });

  it('mirrored supplier countries are listed, sortable and editable; a later sync of the unchanged supplier keeps the edit', async () => {
    const sync = async () => {
      const started = await api('POST', '/sync/categories');
      expect(started.status).toBe(202);
      return eventually(async () => {
        const run = await api('GET', `/sync/runs/${started.body.runId}`);
        return run.body.state !== 'running' ? run.body : null;
      }, 60_000);
    };
    expect((await sync()).state).toBe('succeeded');
    const all = (await api('GET', '/countries?pageSize=1000')).body.items as { id: string; source: string; name: string }[];
    const mirrored = all.filter((c) => c.source === 'supplier');
    expect(mirrored.length).toBeGreaterThan(0);
    const target = mirrored[0]!;
    const edited = await api('PATCH', `/countries/${target.id}`, { name: `${target.name} (edited)` });
    expect(edited.status).toBe(200);
    const reversed = all.map((c) => c.id).reverse();
    expect((await api('PATCH', '/countries/sort', { ids: reversed })).status).toBe(200);

    const again = await sync();
    expect(again.state).toBe('succeeded');
    expect(again.counts.changed).toBe(0);
    expect(again.counts.delisted).toBe(0); // administrators' countries are not "missing from the supplier"
    expect((await api('GET', `/countries/${target.id}`)).body.name).toBe(`${target.name} (edited)`);
    expect(await ids()).toEqual(reversed);
  });

  it('unknown ids are 404 COUNTRY.NOT_FOUND; malformed ids are 400; bodies are strict; pageSize 1001 is 400', async () => {
    const unknown = '1125899906842627999';
    for (const [method, body] of [['GET'], ['PATCH', { name: 'x' }], ['DELETE']] as const) {
      const r = await api(method, `/countries/${unknown}`, body);
      expect([method, r.status, r.body.error.code]).toEqual([method, 404, 'COUNTRY.NOT_FOUND']);
      const bad = await api(method, '/countries/abc', body);
      expect([method, bad.status, bad.body.error.code]).toEqual([method, 400, 'INVALID_ID']);
    }
    for (const body of [{ name: 'x' }, { name: 'x', code: 'X', id: '1' }, { name: 'x', code: '' }]) {
      expect((await api('POST', '/countries', body)).status).toBe(400);
    }
    expect((await api('GET', '/countries?pageSize=1001')).status).toBe(400);
    expect((await api('PATCH', '/countries/sort', { ids: 'all' })).status).toBe(400);
  });
});
