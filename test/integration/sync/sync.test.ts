import { startSimulator, type RunningSimulator } from '../../../src/sync/simulator';
import { startTestService, type TestService, expectNoFailedProjections } from '../../support/service';
import { eventually } from '../../support/eventually';
import { recordAppends } from '../../support/before-append';

const DOMAIN_CATEGORY_NAMES: [string, string][] = [
  ['短袖T恤(G5000)', '短袖T恤'],
  ['卫衣（加绒款）', '卫衣'],
  ['G5000 短袖T恤 (美版)', 'G5000 短袖T恤'],
  ['T恤（男款) 修身', 'T恤 修身'],
  ['(美版)', '(美版)'],
];

describe('supplier synchronisation over HTTP against the simulator', () => {
  let sim: RunningSimulator;
  let svc: TestService;

  const eventCount = async () => Number((await svc.db.pool.query(`SELECT count(*) AS n FROM es_events`)).rows[0].n);
  const countOf = async (type: string) => Number((await svc.db.pool.query(`SELECT count(*) AS n FROM es_events WHERE type = $1`, [type])).rows[0].n);
  const run = async (path: string, body?: unknown) => {
    const started = await svc.request('POST', path, body);
    expect(started.status).toBe(202);
    const runId = started.body.runId as string;
    return eventually(async () => {
      const r = await svc.request('GET', `/sync/runs/${runId}`);
      return r.body.state !== 'running' ? r.body : null;
    }, 60_000);
  };
  const originGood = async (id: string) => (await svc.request('GET', `/origin-goods/${id}`)).body;

  beforeAll(async () => {
    sim = await startSimulator({ links: 300, seed: 42 });
    svc = await startTestService({ env: { UPSTREAM_URL: sim.url, UPSTREAM_PAGE_SIZE: '50' } });
  });
  afterAll(async () => {
    await expectNoFailedProjections(svc);
    await svc?.close();
    await sim?.close();
  });

  it('mirrors categories and countries, cleaning every category name of the table', async () => {
    const r = await run('/sync/categories');
    expect(r).toMatchObject({ kind: 'categories', state: 'succeeded', dryRun: false });
    const supplier = sim.catalog.categories();
    expect(r.counts.created).toBe(supplier.length + sim.catalog.countries().length);
    const rows = await svc.db.pool.query(`SELECT raw_name, name, icon, effective_icon, level, parent_id, sort_order FROM categories`);
    for (const [raw, cleaned] of DOMAIN_CATEGORY_NAMES) {
      expect(rows.rows.find((c) => c.raw_name === raw)).toMatchObject({ name: cleaned });
    }
    // Icons: none of its own means the nearest ancestor's.
    const withoutIcon = rows.rows.filter((c) => c.icon === null && c.parent_id !== null);
    expect(withoutIcon.length).toBeGreaterThan(0);
    for (const c of withoutIcon) {
      const parent = (await svc.db.pool.query(`SELECT effective_icon FROM categories WHERE id = $1`, [c.parent_id])).rows[0];
      expect(c.effective_icon).toBe(parent.effective_icon);
    }
    expect(new Set(rows.rows.map((c) => c.level))).toEqual(new Set([1, 2, 3]));
    const countries = await svc.db.pool.query(`SELECT sort_order FROM countries`);
    expect(countries.rows.every((c) => c.sort_order === 0)).toBe(true);
  });

  it('a full sync of links and details, then a second sync appends no event', async () => {
    const goods = await run('/sync/origin-goods');
    expect(goods.state).toBe('succeeded');
    const links = sim.catalog.links();
    expect(goods.counts.created).toBe(links.length);
    expect(goods.counts.delisted).toBe(links.filter((l) => l.status === 'OFF_SALE').length);
    expect(goods.progress).toEqual({ done: links.length, total: links.length });

    const details = await run('/sync/details', { onlyUnsynced: true });
    expect(details.state).toBe('succeeded');
    const onSale = links.filter((l) => l.status === 'ON_SALE');
    expect(details.counts.created).toBe(onSale.length);

    const first = links[0]!;
    const og = await originGood(first.id);
    expect(og).toMatchObject({ id: first.id, name: first.name, price: first.price, categoryId: first.categoryId, parsed: null, family: null });
    expect(og.detail.variants).toEqual(sim.catalog.detail(first.id)!.variants);
    expect(og.detailSyncedAt).not.toBeNull();

    const before = await eventCount();
    const again = await run('/sync/origin-goods');
    const againDetails = await run('/sync/details');
    const againCategories = await run('/sync/categories');
    expect(await eventCount()).toBe(before);
    expect(again.counts).toMatchObject({ created: 0, changed: 0, delisted: 0, relisted: 0, unchanged: links.length });
    expect(againDetails.counts).toMatchObject({ created: 0, changed: 0, unchanged: onSale.length });
    expect(againCategories.counts.unchanged).toBeGreaterThan(0);
    expect(againCategories.counts.changed + againCategories.counts.created).toBe(0);
  });

  it('a page failing mid-pass fails the run and delists nothing', async () => {
    const delistedBefore = await countOf('LinkDelisted');
    // Pages of 50: the pass gets through three pages, then page 3 keeps failing past the retries.
    sim.faults.failPage = { cursorIndex: 3, status: 500, times: 1000 };
    try {
      sim.catalog.removeLink(sim.catalog.links()[5]!.id);
      const r = await run('/sync/origin-goods');
      expect(r.state).toBe('failed');
      expect(r.errors.map((e: { message: string }) => e.message).join()).toMatch(/UPSTREAM/);
      expect(await countOf('LinkDelisted')).toBe(delistedBefore);
    } finally {
      sim.faults.failPage = null;
    }
  });

  it('a link missing from a complete pass is delisted, and relisted when it returns; an OFF_SALE link is delisted', async () => {
    const gone = sim.catalog.links().find((l) => l.status === 'ON_SALE')!.id;
    // (removed in the previous test, which could not delist it)
    const removedEarlier = (await svc.db.pool.query(`SELECT id FROM origin_goods WHERE delisted = false`)).rows.map((r) => r.id);
    const offSale = sim.catalog.links().find((l) => l.status === 'ON_SALE' && l.id !== gone)!.id;
    sim.catalog.removeLink(gone);
    sim.catalog.offSale([offSale]);
    const r = await run('/sync/origin-goods');
    expect(r.state).toBe('succeeded');
    expect(r.counts.delisted).toBe(3); // gone, offSale, and the one removed while a page was failing
    expect(await originGood(gone)).toMatchObject({ delisted: true, delistedReason: 'MISSING_FROM_LISTING' });
    expect(await originGood(offSale)).toMatchObject({ delisted: true, delistedReason: 'OFF_SALE' });
    expect(removedEarlier).toContain(gone);

    sim.catalog.relistLink(gone);
    const back = await run('/sync/origin-goods');
    expect(back.counts.relisted).toBe(1);
    expect(await originGood(gone)).toMatchObject({ delisted: false, delistedReason: null });
  });

  it('a changed link and a changed detail append exactly what changed; one link can be synced on demand', async () => {
    const link = sim.catalog.links().find((l) => l.status === 'ON_SALE')!;
    sim.catalog.changeLink(link.id, { price: '88.80' });
    const r = await run('/sync/origin-goods');
    expect(r.counts.changed).toBe(1);
    expect((await originGood(link.id)).price).toBe('88.80');

    const one = await svc.request('POST', `/sync/origin-goods/${link.id}/detail`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ state: 'succeeded', progress: { done: 1, total: 1 } });
    expect(one.body.counts.changed + one.body.counts.unchanged).toBe(1);
    expect((await svc.request('POST', `/sync/origin-goods/99999999/detail`)).status).toBe(404);
    expect((await svc.request('POST', `/sync/origin-goods/abc/detail`)).status).toBe(400);
  });

  it('a dry run reports the diff and appends nothing', async () => {
    const link = sim.catalog.links().find((l) => l.status === 'ON_SALE')!;
    sim.catalog.changeLink(link.id, { name: link.name + ' 新款' });
    const before = await eventCount();
    const r = await run('/sync/origin-goods?dryRun=true');
    expect(r).toMatchObject({ dryRun: true, state: 'succeeded' });
    expect(r.counts.changed).toBe(1);
    expect(r.preview).toEqual([{ streamId: `link-${link.id}`, events: [expect.objectContaining({ type: 'LinkMirrored' })] }]);
    expect(await eventCount()).toBe(before);
  });

  it('one run of a kind at a time; bad requests are 4xx', async () => {
    sim.faults.latencyMs = 200;
    try {
      const first = await svc.request('POST', '/sync/origin-goods');
      const second = await svc.request('POST', '/sync/origin-goods');
      expect(first.status).toBe(202);
      expect(second.status).toBe(409);
      expect(second.body.error.code).toBe('SYNC.ALREADY_RUNNING');
      await eventually(async () => (await svc.request('GET', `/sync/runs/${first.body.runId}`)).body.state !== 'running', 60_000);
    } finally {
      sim.faults.latencyMs = 0;
    }
    expect((await svc.request('GET', '/sync/runs/not-a-uuid')).status).toBe(400);
    expect((await svc.request('GET', '/sync/runs/6f1c1f3e-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await svc.request('POST', '/sync/details?onlyUnsynced=maybe')).status).toBe(400);
    expect((await svc.request('POST', '/sync/categories', { surprise: 1 })).status).toBe(400);
  });
});

describe('a retried synchronisation does not duplicate events', () => {
  it('re-running against a read model that has not caught up appends the same events as no-ops', async () => {
    const sim = await startSimulator({ links: 60, seed: 7 });
    // No projection workers: the read model stays empty, as after a crash before it caught up.
    const svc = await startTestService({ env: { UPSTREAM_URL: sim.url, COMMAND_WAIT_MS: '100' }, workers: false });
    try {
      const once = await svc.services.sync.start('origin_goods', { by: 'system:test' });
      expect((await once.finished).state).toBe('succeeded');
      const n = (await svc.db.pool.query(`SELECT count(*)::int AS n FROM es_events`)).rows[0].n;
      expect(n).toBeGreaterThanOrEqual(60);
      const twice = await svc.services.sync.start('origin_goods', { by: 'system:test' });
      const second = await twice.finished;
      expect(second.state).toBe('succeeded');
      expect((await svc.db.pool.query(`SELECT count(*)::int AS n FROM es_events`)).rows[0].n).toBe(n);
      const dup = await svc.db.pool.query(`SELECT stream_id FROM es_events GROUP BY stream_id, type HAVING count(*) > 1`);
      expect(dup.rows).toEqual([]);
    } finally {
      await svc.close();
      await sim.close();
    }
  });

  it('links that changed while the read model lags are decided again from their streams, all at once; the rest of their page is appended once more', async () => {
    const sim = await startSimulator({ links: 60, seed: 8 });
    const svc = await startTestService({ env: { UPSTREAM_URL: sim.url, COMMAND_WAIT_MS: '100' }, workers: false });
    try {
      expect((await (await svc.services.sync.start('origin_goods', { by: 'system:test' })).finished).state).toBe('succeeded');
      const perStream = async () =>
        new Map(
          (
            await svc.db.pool.query<{ stream_id: string; types: string[] }>(`SELECT stream_id, array_agg(type ORDER BY revision) AS types FROM es_events GROUP BY stream_id`)
          ).rows.map((r) => [r.stream_id, r.types]),
        );
      const before = await perStream();
      const [a, b, c, d] = sim.catalog.links().filter((l) => l.status === 'ON_SALE');
      sim.catalog.changeLink(a!.id, { price: '1.23' });
      sim.catalog.changeLink(b!.id, { name: `${b!.name} 新款` });
      sim.catalog.changeLink(c!.id, { price: '2.34' });
      sim.catalog.changeLink(d!.id, { price: '3.45' });
      // The read model is empty: every link of the page is expected to be a new stream, and four of
      // them carry new content, so their append conflicts with the stream the first run wrote.
      const recorded = recordAppends(svc.services.store);
      const again = await svc.services.sync
        .start('origin_goods', { by: 'system:test' })
        .then((run) => run.finished)
        .finally(() => recorded.restore());
      const pages = recorded.appends.map((a) => a.length);
      expect(again.state).toBe('succeeded');
      expect(again.counts).toMatchObject({ changed: 4 });
      // The four leave the page at once (each decided again on its stream); the rest is sent once more.
      expect(pages).toHaveLength(2);
      expect(pages[1]).toBe(pages[0]! - 4);
      const changedStreams = new Set([a, b, c, d].map((l) => `link-${l!.id}`));
      const after = await perStream();
      expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
      for (const [stream, types] of after) {
        const changed = changedStreams.has(stream);
        expect([stream, types]).toEqual([stream, changed ? [...before.get(stream)!, 'LinkMirrored'] : before.get(stream)]);
      }
      const last = await svc.db.pool.query(`SELECT data->>'price' AS p FROM es_events WHERE stream_id = $1 ORDER BY revision DESC LIMIT 1`, [`link-${a!.id}`]);
      expect(last.rows[0].p).toBe('1.23');
    } finally {
      await svc.close();
      await sim.close();
    }
  });
});
