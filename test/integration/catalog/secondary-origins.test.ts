/**
 * Secondary origins merge everything but the matrix (docs/domain.md, Unions and media), and an
 * organisation ends with a full recompute of every family that appends nothing unless a family's
 * stored aggregates are wrong (docs/domain.md, Organisation). Against the real service: the supplier
 * simulator over HTTP, synchronisation, organisation, the admin and public APIs.
 */
import { startSimulator, type RunningSimulator } from '../../../src/sync/simulator';
import { eventually } from '../../support/eventually';
import { expectNoFailedProjections, startTestService, type TestService } from '../../support/service';

interface Variant {
  size: string;
  color: string;
  price: string;
  sku: string;
}
interface Detail {
  variants: Variant[];
  sizeChart: Record<string, string>[];
  packagingSpecs: { name: string }[];
  options: { name: string; values: string[] }[];
}

describe('secondary origins and the full recompute', () => {
  let sim: RunningSimulator;
  let svc: TestService;
  let familyId: string;
  let goodId: string;
  const events = async () => Number((await svc.db.pool.query(`SELECT count(*) AS n FROM es_events`)).rows[0].n);
  const sync = async (path: string) => {
    const started = await svc.request('POST', path);
    return eventually(async () => {
      const r = await svc.request('GET', `/sync/runs/${started.body.runId}`);
      return r.body.state !== 'running' ? r.body : null;
    }, 60_000);
  };
  const publicDetail = async () => {
    const r = await svc.request('GET', `/public/goods/${familyId}`, undefined, {}, { anonymous: true });
    expect(r.status).toBe(200);
    return r.body;
  };

  beforeAll(async () => {
    sim = await startSimulator({ links: 200, seed: 11 });
    svc = await startTestService({ env: { UPSTREAM_URL: sim.url } });
    for (const p of ['/sync/categories', '/sync/origin-goods', '/sync/details']) expect((await sync(p)).state).toBe('succeeded');
    expect((await svc.request('POST', '/product-families/organize')).status).toBe(200);
    familyId = (await svc.db.pool.query(`SELECT family_id FROM origin_goods WHERE id = 100001`)).rows[0].family_id;
    const good = await svc.request('POST', '/goods', { originGoodId: '100001' });
    expect(good.status).toBe(201);
    goodId = good.body.id;
  });
  afterAll(async () => {
    await expectNoFailedProjections(svc);
    await svc.close();
    await sim.close();
  });

  it('a secondary origin adding a size and a colour shows both in the public variants, size chart, packaging and options; the matrix stays the members’', async () => {
    const before = await publicDetail();
    expect(before.variants.length).toBeGreaterThan(0);
    const sizes = new Set(before.variants.map((v: Variant) => v.size));
    const colors = new Set(before.variants.map((v: Variant) => v.color));
    // Another product's link with a variant whose size and colour this family has neither of.
    const candidates = await svc.db.pool.query<{ id: string; detail: Detail }>(
      `SELECT id, detail FROM origin_goods WHERE detail IS NOT NULL AND NOT delisted AND family_id IS DISTINCT FROM $1 ORDER BY id`,
      [familyId],
    );
    const addsSize = (l: { detail: Detail }, v: Detail['variants'][number]) => !sizes.has(v.size) && !colors.has(v.color) && l.detail.sizeChart.some((r) => r.size === v.size);
    const pick = candidates.rows.find((l) => l.detail.variants.some((v) => addsSize(l, v)) && l.detail.options.length > 0);
    expect(pick).toBeDefined();
    const secondary = pick!;
    const added = secondary.detail.variants.find((v) => addsSize(secondary, v))!;

    const put = await svc.request('PUT', `/goods/${goodId}/origins`, { secondaryOriginGoodIds: [secondary.id] });
    expect(put.status).toBe(200);
    const after = await publicDetail();
    expect(after.variants).toContainEqual({ size: added.size, color: added.color, price: expect.any(String), sku: added.sku });
    // The members' variants come first and keep theirs; the secondary origin's follow, each (size, colour) once.
    expect(after.variants.slice(0, before.variants.length)).toEqual(before.variants);
    const keys = after.variants.map((v: Variant) => `${v.size}/${v.color}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(after.sizeChart.map((r: { size: string }) => r.size)).toContain(added.size);
    for (const spec of secondary.detail.packagingSpecs) expect(after.packagingSpecs.map((p: { name: string }) => p.name)).toContain(spec.name);
    for (const option of secondary.detail.options) {
      const merged = after.options.find((o: { name: string }) => o.name === option.name);
      expect(merged.values).toEqual(expect.arrayContaining(option.values));
    }
    // The price matrix still comes only from the member links' tags.
    expect(after.priceMatrix).toEqual(before.priceMatrix);
    expect(after.priceMatrix.sizes).not.toContain(added.size);
    expect(after.priceMatrix.colors).not.toContain(added.color);
    expect(after.lowestPrice).toBe(before.lowestPrice);
    // The admin's family shows the same unions.
    const family = (await svc.request('GET', `/product-families/${familyId}`)).body;
    expect(family.variants).toEqual(after.variants);
    expect(family.options).toEqual(after.options);

    // Taken out again, the family is as it was.
    expect((await svc.request('PUT', `/goods/${goodId}/origins`, { secondaryOriginGoodIds: [] })).status).toBe(200);
    const again = await publicDetail();
    expect(again.variants).toEqual(before.variants);
    expect(again.options).toEqual(before.options);
    expect(again.sizeChart).toEqual(before.sizeChart);
    expect(again.packagingSpecs).toEqual(before.packagingSpecs);
  });

  it('organisation repairs a family whose aggregate row was changed by hand, with one event, and appends nothing when nothing is wrong', async () => {
    const right = (await svc.request('GET', `/product-families/${familyId}`)).body;
    const publicRight = await publicDetail();
    expect(right.lowestPrice).not.toBeNull();
    // Nothing wrong: a run appends nothing and repairs nothing.
    const quiet = await events();
    const noop = await svc.request('POST', '/product-families/organize');
    expect(noop.body).toMatchObject({ parsed: 0, derived: 0, attached: 0, created: 0, merged: 0, repaired: 0 });
    expect(await events()).toBe(quiet);

    await svc.db.pool.query(`UPDATE families SET lowest_price = 0.01, variants = '[]', price_matrix = '{}', options = '[]', member_count = 0 WHERE id = $1`, [familyId]);
    const before = await events();
    const r = await svc.request('POST', '/product-families/organize');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ parsed: 0, derived: 0, attached: 0, created: 0, merged: 0, repaired: 1 });
    expect(await events()).toBe(before + 1);
    const repaired = (await svc.request('GET', `/product-families/${familyId}`)).body;
    expect({ ...repaired, revision: right.revision }).toEqual(right);
    expect(BigInt(repaired.revision)).toBe(BigInt(right.revision) + 1n);
    expect(await publicDetail()).toEqual(publicRight);
    // The family's history says what was recomputed, by whom and why.
    const history = (await svc.request('GET', `/product-families/${familyId}/history`)).body.items;
    expect(history[history.length - 1]).toMatchObject({
      type: 'FamilyRecomputed',
      why: 'Organise',
      data: { familyId, columns: ['member_count', 'variants', 'options', 'price_matrix', 'lowest_price'] },
    });
    // Put right, the next run finds nothing.
    const after = await events();
    expect((await svc.request('POST', '/product-families/organize')).body.repaired).toBe(0);
    expect(await events()).toBe(after);
  });
});
