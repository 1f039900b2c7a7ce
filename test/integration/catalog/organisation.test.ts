import { startSimulator, type RunningSimulator } from '../../../src/sync/simulator';
import { startTestService, type TestService } from '../../support/service';
import { eventually } from '../../support/eventually';

describe('organisation and families over HTTP (simulator → sync → organise → overrides)', () => {
  let sim: RunningSimulator;
  let svc: TestService;
  const events = async () => Number((await svc.db.pool.query(`SELECT count(*) AS n FROM es_events`)).rows[0].n);
  const sync = async (path: string, body?: unknown) => {
    const started = await svc.request('POST', path, body);
    return eventually(async () => {
      const r = await svc.request('GET', `/sync/runs/${started.body.runId}`);
      return r.body.state !== 'running' ? r.body : null;
    }, 60_000);
  };
  const familyOf = async (linkId: string) => (await svc.db.pool.query(`SELECT family_id FROM origin_goods WHERE id = $1`, [linkId])).rows[0].family_id as string | null;

  beforeAll(async () => {
    sim = await startSimulator({ links: 300, seed: 11 });
    svc = await startTestService({ env: { UPSTREAM_URL: sim.url } });
    for (const p of ['/sync/categories', '/sync/origin-goods', '/sync/details']) expect((await sync(p)).state).toBe('succeeded');
  });
  afterAll(async () => {
    const failed = await svc.db.pool.query(`SELECT name, last_error FROM projection_checkpoints WHERE last_error IS NOT NULL`);
    expect(failed.rows).toEqual([]);
    await svc.close();
    await sim.close();
  });

  it('organise parses, derives, groups and reports; a second run changes nothing', async () => {
    const r = await svc.request('POST', '/product-families/organize');
    expect(r.status).toBe(200);
    const report = r.body;
    const links = sim.catalog.links();
    expect(report.parsed + report.unparseable.length).toBe(links.length);
    expect(report.unparseable.length).toBeGreaterThan(0);
    expect(report.unparseable).toContainEqual({ id: expect.any(String), name: expect.not.stringMatching(/^.+（.+）/) });
    expect(report.created).toBeGreaterThan(0);
    expect(report.derived).toBe(report.parsed);

    // DOMAIN.md's example link: parsed columns and derived tags.
    const example = (await svc.request('GET', '/origin-goods/100001')).body;
    const row = (await svc.db.pool.query(`SELECT parsed_country, parsed_logistics, parsed_product_name, parsed_sku, tags FROM origin_goods WHERE id = 100001`)).rows[0];
    expect(row).toMatchObject({ parsed_country: '美国', parsed_logistics: '包邮', parsed_product_name: '纯棉短袖T恤', parsed_sku: 'G5000' });
    expect(row.tags).toMatchObject({ craft: ['直喷'], printCount: ['双面印花'], logistics: ['包邮'] });
    expect(example.id).toBe('100001');

    // Links of one product (same country + name + SKU, any logistics) share one family.
    const keys = await svc.db.pool.query(
      `SELECT family_name_key, count(DISTINCT family_id) AS families FROM origin_goods WHERE family_name_key IS NOT NULL GROUP BY 1`,
    );
    expect(keys.rows.every((k) => Number(k.families) === 1)).toBe(true);
    const unparsedGrouped = await svc.db.pool.query(`SELECT count(*)::int AS n FROM origin_goods WHERE parsed_country IS NULL AND family_id IS NOT NULL`);
    expect(unparsedGrouped.rows[0].n).toBe(0);

    const before = await events();
    const again = (await svc.request('POST', '/product-families/organize')).body;
    expect(again).toMatchObject({ parsed: 0, derived: 0, attached: 0, created: 0, merged: 0, unchanged: links.length });
    expect(await events()).toBe(before);
  });

  it('each family row holds its matrix, unions and lowest price', async () => {
    const fid = (await familyOf('100001'))!;
    const f = (await svc.request('GET', `/product-families/${fid}`)).body;
    expect(f.memberCount).toBeGreaterThan(0);
    expect(f.priceMatrix.cells.length).toBeGreaterThan(0);
    expect(f.priceMatrix.crafts).toContain('直喷');
    expect(f.lowestPrice).toBe(
      f.priceMatrix.cells.map((c: { price: string }) => c.price).sort((a: string, b: string) => Number(a) - Number(b))[0],
    );
    expect(f.variants.length).toBeGreaterThan(0);
    const urls = Object.values(f.mediaByColor as Record<string, { url: string }[]>).flat().map((m) => m.url);
    expect(new Set(urls).size).toBe(urls.length);
  });

  it('a price override replaces a cell; a key outside the matrix is 400; history and ?at= show the change', async () => {
    const fid = (await familyOf('100001'))!;
    const f = (await svc.request('GET', `/product-families/${fid}`)).body;
    const cell = f.priceMatrix.cells[0];
    const beforeOverride = new Date();
    await new Promise((r) => setTimeout(r, 20));
    const put = await svc.request('PUT', `/product-families/${fid}/price-overrides`, { ...cell, price: '1.50' });
    expect(put.status).toBe(200);
    expect(put.body.priceMatrix.cells[0].price).toBe('1.50');
    expect(put.body.lowestPrice).toBe('1.50');
    const bad = await svc.request('PUT', `/product-families/${fid}/price-overrides`, { ...cell, craft: '刺绣', price: '2.00' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('FAMILY.OVERRIDE_KEY_INVALID');

    const history = (await svc.request('GET', `/product-families/${fid}/history`)).body.items;
    expect(history[0]).toMatchObject({ type: 'FamilyCreated', version: '0', why: 'Organise' });
    expect(history[history.length - 1]).toMatchObject({ type: 'FamilyPriceOverrideSet', why: 'SetPriceOverride', data: { price: '1.50' } });
    const then = (await svc.request('GET', `/product-families/${fid}/history?at=${beforeOverride.toISOString()}`)).body;
    expect(then.family.overrides).toEqual([]);
    expect(then.family.priceMatrix.cells[0].price).toBe(cell.price);
    expect(then.family.priceMatrix.cells).toEqual(f.priceMatrix.cells);

    const removed = await svc.request('DELETE', `/product-families/${fid}/price-overrides`, cell);
    expect(removed.body.priceMatrix.cells[0].price).toBe(cell.price);
  });

  it('a detail change of a family member makes its family recompute', async () => {
    const fid = (await familyOf('100001'))!;
    const before = (await svc.request('GET', `/product-families/${fid}`)).body;
    const link = sim.catalog.link('100001')!;
    sim.catalog.changeLink('100001', { price: '1.11' });
    // The detail's variant prices follow the link price in the simulator; re-sync detail and listing.
    expect((await sync('/sync/origin-goods')).counts.changed).toBe(1);
    await svc.request('POST', '/sync/origin-goods/100001/detail');
    const after = (await svc.request('GET', `/product-families/${fid}`)).body;
    expect(after).not.toEqual(before);
    expect(link.id).toBe('100001');
  });

  it('members: a link moves between families; locked families are left alone by organisation', async () => {
    const created = await svc.request('POST', '/product-families', { name: '手工家族' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ autoManaged: false, locked: true, memberCount: 0 });
    const fid = created.body.id;
    const from = (await familyOf('100002'))!;
    const moved = await svc.request('POST', `/product-families/${fid}/members`, { originGoodId: '100002' });
    expect(moved.status).toBe(201);
    expect(moved.body.memberCount).toBe(1);
    expect(await familyOf('100002')).toBe(fid);
    const history = (await svc.request('GET', `/product-families/${from}/history`)).body.items;
    expect(history[history.length - 1]).toMatchObject({ type: 'FamilyMemberRemoved', data: { linkId: '100002' } });
    // Organisation never touches it: the link stays where the administrator put it.
    await svc.request('POST', '/product-families/organize');
    expect(await familyOf('100002')).toBe(fid);
    expect((await svc.request('DELETE', `/product-families/${fid}`)).status).toBe(409);
    expect((await svc.request('DELETE', `/product-families/${fid}/members/100002`)).status).toBe(200);
    expect((await svc.request('DELETE', `/product-families/${fid}`)).status).toBe(204);
    expect((await svc.request('GET', `/product-families/${fid}`)).status).toBe(404);
    expect((await svc.request('GET', `/product-families/abc`)).status).toBe(400);
  });

  it('a second organisation while one runs gets 409', async () => {
    const [a, b] = await Promise.all([svc.request('POST', '/product-families/organize'), svc.request('POST', '/product-families/organize')]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
  });
});
