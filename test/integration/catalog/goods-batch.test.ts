/**
 * POST /goods/batch creates many goods in multi-stream appends: each link's claim at the revision the
 * link was read at, with the good. One good per link holds whatever the read models say: a link whose
 * stream moved since it was read is decided again on its stream.
 */
import { linkStreamId } from '../../../src/catalog/links/events';
import { eventMetadata } from '../../../src/platform/events/registry';
import { startSimulator, type RunningSimulator } from '../../../src/sync/simulator';
import { recordAppends } from '../../support/before-append';
import { eventually } from '../../support/eventually';
import { expectNoFailedProjections, startTestService, type TestService } from '../../support/service';

describe('POST /goods/batch', () => {
  let sim: RunningSimulator;
  let svc: TestService;
  let links: string[];

  beforeAll(async () => {
    sim = await startSimulator({ links: 120, seed: 3 });
    svc = await startTestService({ env: { UPSTREAM_URL: sim.url, COMMAND_WAIT_MS: '2000' } });
    for (const kind of ['categories', 'origin_goods', 'details'] as const)
      expect((await (await svc.services.sync.start(kind, { by: 'system:test' })).finished).state).toBe('succeeded');
    expect((await svc.request('POST', '/product-families/organize')).status).toBe(200);
    links = (await svc.db.pool.query<{ id: string }>(`SELECT id FROM origin_goods WHERE family_id IS NOT NULL ORDER BY id`)).rows.map((r) => r.id);
    expect(links.length).toBeGreaterThan(40);
  });
  const familyOf = async (link: string) =>
    (await svc.db.pool.query<{ id: string; name: string }>(`SELECT f.id::text AS id, f.name FROM origin_goods og JOIN families f ON f.id = og.family_id WHERE og.id = $1`, [link]))
      .rows[0] ?? null;
  afterAll(async () => {
    await expectNoFailedProjections(svc);
    await svc.close();
    await sim.close();
  });

  it('creates one good per link, skips unknown links and links that have one, and shows them at once', async () => {
    const first = await svc.request('POST', '/goods/batch', { originGoodIds: links.slice(0, 20) });
    expect(first.status).toBe(201);
    expect(first.body.created).toHaveLength(20);
    expect(first.body.skipped).toEqual([]);
    // Each skipped item says where it was in the request and what it named; a link named twice is its first naming.
    const again = await svc.request('POST', '/goods/batch', { originGoodIds: [links[0], '999999999', links[20], links[0]] });
    expect(again.body.created).toHaveLength(1);
    expect(again.body.skipped).toEqual([
      { index: 0, originGoodId: links[0], code: 'GOOD.EXISTS_FOR_LINK', message: expect.any(String) },
      { index: 1, originGoodId: '999999999', code: 'UNKNOWN_REFERENCE', message: expect.stringContaining('999999999') },
    ]);
    // The answer came after the projections: every good is readable, attributed to its link's family.
    for (const id of [...first.body.created, ...again.body.created]) {
      const g = await svc.request('GET', `/goods/${id}`);
      expect(g.status).toBe(200);
      expect(g.body.familyId).toBe((await svc.db.pool.query(`SELECT family_id FROM origin_goods WHERE id = $1`, [g.body.originGoodId])).rows[0].family_id);
    }
    const perLink = await svc.db.pool.query(`SELECT origin_good_id FROM goods WHERE origin_good_id IS NOT NULL GROUP BY 1 HAVING count(*) > 1`);
    expect(perLink.rows).toEqual([]);
    // Each good made says the item it came from and the family it joined, by name.
    expect(first.body.goods).toEqual(
      await Promise.all(first.body.created.map(async (id: string, k: number) => ({ id, index: k, originGoodId: links[k], family: await familyOf(links[k]!) }))),
    );
    expect(first.body.goods[0].family).toEqual({ id: expect.any(String), name: expect.any(String) });
    expect(again.body.goods).toEqual([{ id: again.body.created[0], index: 2, originGoodId: links[20], family: await familyOf(links[20]!) }]);
  });

  it('a good made from a link in no family says it joined none', async () => {
    const loose = (await svc.db.pool.query<{ id: string }>(`SELECT id FROM origin_goods WHERE family_id IS NULL AND NOT delisted ORDER BY id LIMIT 1`)).rows[0]!.id;
    const r = await svc.request('POST', '/goods/batch', { originGoodIds: [loose, links[22]] });
    expect(r.status).toBe(201);
    expect(r.body.goods).toEqual([
      { id: r.body.created[0], index: 0, originGoodId: loose, family: null },
      { id: r.body.created[1], index: 1, originGoodId: links[22], family: await familyOf(links[22]!) },
    ]);
    // As the good itself says: no family.
    expect((await svc.request('GET', `/goods/${r.body.created[0]}`)).body.familyId).toBeNull();
    // A custom good names no link and joins no family.
    const custom = await svc.request('POST', '/goods/batch', { goods: [{ name: '批量自定义 无系列' }] });
    expect(custom.body.goods).toEqual([{ id: custom.body.created[0], index: 0, originGoodId: null, family: null }]);
  });

  it('the goods form: custom goods with names, and the same link twice in one request makes one good', async () => {
    const r = await svc.request('POST', '/goods/batch', {
      goods: [{ name: '批量自定义 MUG02', goodPriority: 3 }, { originGoodId: links[21] }, { goodPriority: 1 }, { originGoodId: links[21], name: '第二次' }],
    });
    expect(r.status).toBe(201);
    expect(r.body.created).toHaveLength(2);
    // A custom good names no link: null, and its index tells which item it was.
    expect(r.body.skipped).toEqual([
      { index: 2, originGoodId: null, code: 'GOOD.NAME_REQUIRED', message: expect.any(String) },
      { index: 3, originGoodId: links[21], code: 'GOOD.EXISTS_FOR_LINK', message: expect.any(String) },
    ]);
    const custom = await svc.request('GET', `/goods/${r.body.created[0]}`);
    expect(custom.body).toMatchObject({ originGoodId: null, goodPriority: 3 });
    expect(custom.body.name).toContain('MUG02');
  });

  it('a link claimed after the read models were read is decided on its stream: skipped, never a second good', async () => {
    const [claimed, free] = [links[30]!, links[31]!];
    // The read models stop: the claim below moves the link's stream without them seeing it.
    await svc.services.engine.stopRunners();
    const stream = linkStreamId(claimed);
    const goodId = '7000000000000001';
    await svc.services.store.appendToStream(stream, [svc.services.registry.encode('LinkGoodAssigned', { linkId: claimed, goodId }, eventMetadata('user:other', 'CreateGood'))], {
      expectedRevision: (await svc.services.store.streamRevision(stream))!,
    });
    const batch = svc.request('POST', '/goods/batch', { originGoodIds: [claimed, free] });
    await new Promise((r) => setTimeout(r, 300));
    await svc.services.engine.startRunners();
    const r = await batch;
    expect(r.status).toBe(201);
    expect(r.body.created).toHaveLength(1);
    expect(r.body.skipped).toEqual([{ index: 0, originGoodId: claimed, code: 'GOOD.EXISTS_FOR_LINK', message: expect.stringContaining(goodId) }]);
    const claims = (await svc.services.store.readStream(stream)).filter((e) => e.type === 'LinkGoodAssigned');
    expect(claims).toHaveLength(1);
    await eventually(async () => (await svc.services.engine.status()).every((p) => p.lagEvents === 0), 30_000);
    expect((await svc.request('GET', `/goods/${r.body.created[0]}`)).body.originGoodId).toBe(free);
  });

  it('links claimed after the read models were read leave the batch at once: one more append, not one per link', async () => {
    const claimed = [links[40]!, links[42]!, links[44]!];
    const free = [links[41]!, links[43]!];
    await svc.services.engine.stopRunners();
    for (const [i, linkId] of claimed.entries()) {
      const stream = linkStreamId(linkId);
      await svc.services.store.appendToStream(
        stream,
        [svc.services.registry.encode('LinkGoodAssigned', { linkId, goodId: `700000000000001${i}` }, eventMetadata('user:other', 'CreateGood'))],
        { expectedRevision: (await svc.services.store.streamRevision(stream))! },
      );
    }
    // Counted where the service appends: the batch, and whatever it sends again.
    const recorded = recordAppends(svc.services.store);
    try {
      const batch = svc.request('POST', '/goods/batch', { originGoodIds: [...claimed, ...free] });
      await new Promise((r) => setTimeout(r, 300));
      await svc.services.engine.startRunners();
      const r = await batch;
      expect(r.status).toBe(201);
      expect(r.body.created).toHaveLength(2);
      expect(r.body.skipped.map((s: { originGoodId: string }) => s.originGoodId).sort()).toEqual([...claimed].sort());
    } finally {
      recorded.restore();
    }
    // Each good is its link's claim and the good: the batch of five, then the two free ones again.
    expect(recorded.appends.map((a) => a.length)).toEqual([10, 4]);
  });
});
