/**
 * Organisation runs are durable records (docs/api.md, OrganiseRun): two service instances on one
 * database, a run started on one is followed, listed and read on the other, while it runs and after.
 */
import type { PoolClient } from 'pg';
import { startSimulator, type RunningSimulator } from '../../../src/sync/simulator';
import { eventually } from '../../support/eventually';
import { expectNoFailedProjections, startTestService, type TestService } from '../../support/service';

describe('organisation runs, read from any process', () => {
  let sim: RunningSimulator;
  let a: TestService;
  let b: TestService;
  const sync = async (path: string) => {
    const started = await a.request('POST', path);
    return eventually(async () => {
      const r = await a.request('GET', `/sync/runs/${started.body.runId}`);
      return r.body.state !== 'running' ? r.body : null;
    }, 60_000);
  };

  beforeAll(async () => {
    sim = await startSimulator({ links: 150, seed: 5 });
    a = await startTestService({ env: { UPSTREAM_URL: sim.url } });
    // The second instance: its own pool, HTTP server and projection workers, the same database.
    b = await startTestService({ env: { UPSTREAM_URL: sim.url }, db: a.db });
    for (const p of ['/sync/categories', '/sync/origin-goods', '/sync/details']) expect((await sync(p)).state).toBe('succeeded');
  });
  afterAll(async () => {
    await expectNoFailedProjections(a);
    await b.close();
    await a.close();
    await sim.close();
  });

  it('before any run the status is idle and the list empty', async () => {
    expect((await b.request('GET', '/product-families/organize/status')).body).toMatchObject({ state: 'idle', runId: null, done: 0, total: 0 });
    expect((await b.request('GET', '/product-families/organize/runs')).body).toEqual({ items: [], total: 0, page: 1, pageSize: 50 });
  });

  it('a run started on one instance is running on the other, then succeeded there with its report', async () => {
    // Held up at its first read of the links, the run is visibly running.
    const blocker: PoolClient = await a.db.pool.connect();
    let posted: Promise<{ status: number; body: any }>;
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE origin_goods IN ACCESS EXCLUSIVE MODE');
      posted = a.request('POST', '/product-families/organize');
      const running = await eventually(async () => {
        const st = (await b.request('GET', '/product-families/organize/status')).body;
        return st.state === 'running' ? st : null;
      }, 30_000);
      expect(running).toMatchObject({ kind: 'organise', state: 'running', phase: 'parse', startedBy: expect.stringMatching(/^\d+$/), finishedAt: null, error: null });
      const listed = (await b.request('GET', '/product-families/organize/runs')).body;
      expect(listed.items).toHaveLength(1);
      expect(listed.items[0]).toMatchObject({ runId: running.runId, state: 'running' });
      expect((await b.request('GET', `/product-families/organize/runs/${running.runId}`)).body).toMatchObject({ state: 'running', report: null });
      // A second run, on either instance, is refused while this one holds the lock.
      expect((await b.request('POST', '/product-families/organize')).status).toBe(409);
    } finally {
      await blocker.query('ROLLBACK');
      blocker.release();
    }
    const answer = await posted!;
    expect(answer.status).toBe(200);
    const { runId, ...report } = answer.body;
    expect(report.created).toBeGreaterThan(0);

    const status = (await b.request('GET', '/product-families/organize/status')).body;
    expect(status).toMatchObject({ runId, kind: 'organise', state: 'succeeded', phase: null, error: null });
    expect(status.done).toBe(status.total);
    expect(new Date(status.finishedAt).getTime()).toBeGreaterThanOrEqual(new Date(status.startedAt).getTime());
    const run = (await b.request('GET', `/product-families/organize/runs/${runId}`)).body;
    expect(run.report).toEqual(report);
    expect(run.counts).toEqual({
      parsed: report.parsed,
      derived: report.derived,
      attached: report.attached,
      created: report.created,
      merged: report.merged,
      unchanged: report.unchanged,
      repaired: report.repaired,
      unparseable: report.unparseable.length,
      incomplete: report.incomplete.length,
      lockedSkipped: report.lockedSkipped.length,
      review: report.review.length,
    });
    expect(run.report.unparseable.length).toBeGreaterThan(0);
  });

  it('runs are listed newest first, paged; the grouping step alone is a run of its own kind', async () => {
    const grouped = await b.request('POST', '/product-families/auto-group');
    expect(grouped.status).toBe(200);
    const again = await a.request('POST', '/product-families/organize');
    expect(again.status).toBe(200);
    const all = (await a.request('GET', '/product-families/organize/runs')).body;
    expect(all.total).toBe(3);
    expect(all.items.map((r: { runId: string }) => r.runId)[0]).toBe(again.body.runId);
    expect(all.items[1]).toMatchObject({ runId: grouped.body.runId, kind: 'auto_group', state: 'succeeded' });
    expect(all.items.every((r: { report?: unknown }) => r.report === undefined)).toBe(true);
    const second = (await b.request('GET', '/product-families/organize/runs?page=2&pageSize=1')).body;
    expect(second).toMatchObject({ total: 3, page: 2, pageSize: 1 });
    expect(second.items.map((r: { runId: string }) => r.runId)).toEqual([grouped.body.runId]);
    expect((await b.request('GET', '/product-families/organize/runs?pageSize=1001')).status).toBe(400);
    expect((await b.request('GET', '/product-families/organize/runs/abc')).status).toBe(400);
    const missing = await b.request('GET', '/product-families/organize/runs/123');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('ORGANISE.RUN_NOT_FOUND');
    expect((await b.request('GET', '/product-families/organize/runs', undefined, {}, { anonymous: true })).status).toBe(401);
  });

  it('a run whose process died reads as failed, and the next run records it so', async () => {
    // As a process that stopped mid-run leaves it: running, and no session holding the lock.
    await a.db.pool.query(
      `INSERT INTO organise_runs (id, kind, state, phase, started_by, started_at) VALUES (42, 'organise', 'running', 'group', 'user:gone', now() + interval '1 hour')`,
    );
    const st = (await b.request('GET', '/product-families/organize/status')).body;
    expect(st).toMatchObject({ runId: '42', state: 'failed', error: expect.stringMatching(/abandoned/) });
    expect((await a.request('GET', '/product-families/organize/runs/42')).body).toMatchObject({ state: 'failed', report: null });
    expect((await a.request('POST', '/product-families/organize')).status).toBe(200);
    const row = (await a.db.pool.query(`SELECT state, error, finished_at FROM organise_runs WHERE id = 42`)).rows[0];
    expect(row).toMatchObject({ state: 'failed', error: expect.stringMatching(/abandoned/), finished_at: expect.any(Date) });
  });
});
