/**
 * Guardrails of the supplier mirror. A listing that lost most of its links (a truncated export, an
 * empty answer) must not empty the registry: past SYNC_DELIST_MAX_SHARE the pass delists nothing
 * and ends `held` until an operator confirms. And a run waiting out a slow supplier is still alive:
 * its process beats on a timer, so another process does not declare it abandoned and start a second.
 */
import { startSimulator, type RunningSimulator } from '../../../src/sync/simulator';
import { eventually } from '../../support/eventually';
import { startTestService, type TestService } from '../../support/service';

describe('synchronisation guardrails', () => {
  let sim: RunningSimulator;
  let svc: TestService;
  const finished = async (runId: string) =>
    eventually(async () => {
      const r = await svc.request('GET', `/sync/runs/${runId}`);
      return r.body.state !== 'running' ? r.body : null;
    }, 60_000);
  const delisted = async () => Number((await svc.db.pool.query(`SELECT count(*) AS n FROM es_events WHERE type = 'LinkDelisted'`)).rows[0].n);

  beforeAll(async () => {
    sim = await startSimulator({ links: 100, seed: 21 });
    svc = await startTestService({ env: { UPSTREAM_URL: sim.url, SYNC_ABANDONED_AFTER_S: '2' } });
    const first = await svc.request('POST', '/sync/origin-goods');
    expect((await finished(first.body.runId)).state).toBe('succeeded');
  });
  afterAll(async () => {
    await svc.close();
    await sim.close();
  });

  it('a pass missing more than the share delists nothing and is held; confirmed, it delists', async () => {
    const listed = Number((await svc.db.pool.query(`SELECT count(*) AS n FROM origin_goods WHERE NOT delisted`)).rows[0].n);
    const before = await delisted();
    const gone = sim.catalog
      .links()
      .filter((l) => l.status === 'ON_SALE')
      .slice(0, 30);
    for (const l of gone) sim.catalog.removeLink(l.id);
    const held = await finished((await svc.request('POST', '/sync/origin-goods')).body.runId);
    expect(held.state).toBe('held');
    expect(held.held).toEqual({ wouldDelist: 30, listed, maxShare: 0.2 });
    expect(held.errors[0].message).toMatch(/delisting held: 30 of \d+ listed links/);
    expect(await delisted()).toBe(before);

    const confirmed = await finished((await svc.request('POST', '/sync/origin-goods', { confirmDelist: true })).body.runId);
    expect(confirmed).toMatchObject({ state: 'succeeded', counts: { delisted: 30 }, held: null });
    expect(await delisted()).toBe(before + 30);
  });

  it('an empty listing is held too', async () => {
    const before = await delisted();
    const saved = sim.catalog.links().map((l) => l.id);
    for (const id of saved) sim.catalog.removeLink(id);
    try {
      const held = await finished((await svc.request('POST', '/sync/origin-goods')).body.runId);
      expect(held.state).toBe('held');
      expect(held.held.wouldDelist).toBe(held.held.listed);
      expect(await delisted()).toBe(before);
    } finally {
      for (const id of saved) sim.catalog.relistLink(id);
    }
  });

  it('a run waiting on a slow supplier keeps beating: a second start meanwhile is refused, not let in', async () => {
    sim.faults.latencyMs = 3000;
    try {
      const run = await svc.request('POST', '/sync/categories');
      expect(run.status).toBe(202);
      // Longer than SYNC_ABANDONED_AFTER_S without any progress.
      await new Promise((r) => setTimeout(r, 2600));
      const second = await svc.request('POST', '/sync/categories');
      expect(second.status).toBe(409);
      expect(second.body.error.code).toBe('SYNC.ALREADY_RUNNING');
      sim.faults.latencyMs = 0;
      expect((await finished(run.body.runId)).state).toBe('succeeded');
    } finally {
      sim.faults.latencyMs = 0;
    }
  });
});
