/**
 * Scheduled synchronisations never skip silently (docs/deployment.md, Scheduled synchronisation): a
 * worker whose event loop is blocked across a tick (a real busy loop, as a bulk step stalls it) still
 * runs that tick late; a tick its successor overtook is recorded missed; a claimed tick whose run did
 * not start (its process died, or the start failed) is taken over and run; and GET /sync/schedule and
 * /metrics show the last tick and run of each job, with the ticks that did not run.
 */
import { scheduleView, startSchedules } from '../../../src/sync/scheduler';
import { eventually } from '../../support/eventually';
import { startTestService, type TestService } from '../../support/service';

jest.setTimeout(120_000);

const TOKEN = 'scheduler-metrics-token-0123456789';
/** Every five seconds: a gap wide enough to block the loop past a tick but not past the next one. */
const EVERY_5S = '*/5 * * * * *';
/** Never during a test run. */
const YEARLY = '0 0 1 1 *';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Blocks the event loop: no timer, no I/O callback runs until it returns. */
function busy(until: number): void {
  while (Date.now() < until) {
    /* spin */
  }
}
/** The next five-second tick at least `lead` ms away. */
const nextTick = (lead: number) => {
  const t = Math.ceil((Date.now() + lead) / 5000) * 5000;
  return t;
};

describe('the scheduler', () => {
  let svc: TestService;
  let schedule: { stop(): void } | null = null;
  const claims = async (job: string) =>
    (
      await svc.db.pool.query<{ due_at: Date; outcome: string | null; run_id: string | null; attempts: number; claimed_by: string; error: string | null }>(
        `SELECT due_at, outcome, run_id, attempts, claimed_by, error FROM schedule_claims WHERE job = $1 ORDER BY due_at`,
        [job],
      )
    ).rows;
  const claimAt = async (job: string, at: number) => (await claims(job)).find((c) => c.due_at.getTime() === at);

  beforeAll(async () => {
    svc = await startTestService({ env: { METRICS_TOKEN: TOKEN, CATEGORY_SYNC_CRON: EVERY_5S, GOODS_SYNC_CRON: YEARLY, DETAILS_SYNC_CRON: YEARLY } });
    schedule = startSchedules(svc.services, { retryEveryMs: 300, staleClaimMs: 1000 });
  });
  afterAll(async () => {
    schedule?.stop();
    await svc.services.sync.drain();
    await svc.close();
  });

  it('runs a tick late when the event loop was blocked across it', async () => {
    const tick = nextTick(1500);
    await sleep(tick - 300 - Date.now());
    // Blocked from before the tick until 2.5 s after it (node-cron's default gives a tick about 1 s).
    busy(tick + 2500);
    const claim = await eventually(
      async () => {
        const c = await claimAt('categories', tick);
        return c?.outcome ? c : null;
      },
      20_000,
      100,
    );
    expect(claim).toMatchObject({ outcome: 'started', run_id: expect.any(String), attempts: 1 });
    const run = await svc.db.pool.query(`SELECT kind, started_by FROM sync_runs WHERE id::text = $1`, [claim!.run_id]);
    expect(run.rows).toEqual([{ kind: 'categories', started_by: 'system:sync' }]);
    const view = await svc.request('GET', '/sync/schedule');
    expect(view.status).toBe(200);
    expect(view.body.categories.recent).toContainEqual(expect.objectContaining({ dueAt: new Date(tick).toISOString(), outcome: 'started', runId: claim!.run_id }));
  });

  it('records a tick its successor overtook as missed, and shows it in GET /sync/schedule and /metrics', async () => {
    const tick = nextTick(1500);
    await sleep(tick - 300 - Date.now());
    // Blocked past the next tick too: the first can no longer run; the second runs, late.
    busy(tick + 5600);
    const missed = await eventually(() => claimAt('categories', tick), 20_000, 100);
    expect(missed).toMatchObject({ outcome: 'missed', run_id: null, error: 'the worker was busy past the next tick' });
    const next = await eventually(
      async () => {
        const c = await claimAt('categories', tick + 5000);
        return c?.outcome ? c : null;
      },
      20_000,
      100,
    );
    expect(next!.outcome).toBe('started');

    const view = await svc.request('GET', '/sync/schedule');
    expect(view.body.categories.recent).toContainEqual(
      expect.objectContaining({ dueAt: new Date(tick).toISOString(), outcome: 'missed', detail: 'the worker was busy past the next tick' }),
    );
    expect(view.body.categories.lastRun).toMatchObject({ outcome: 'started' });
    expect(new Date(view.body.categories.lastRun.dueAt).getTime()).toBeGreaterThanOrEqual(tick + 5000);

    const metrics = await (await fetch(`${svc.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    const missedCount = Number(/catalog_schedule_ticks\{job="categories",outcome="missed"\} (\d+)/.exec(metrics)?.[1]);
    expect(missedCount).toBeGreaterThanOrEqual(1);
    expect(Number(/catalog_schedule_last_run_timestamp_seconds\{job="categories"\} (\d+)/.exec(metrics)?.[1])).toBeGreaterThanOrEqual((tick + 5000) / 1000);
  });

  it('takes over a claimed tick whose run did not start: its process died, or the start failed', async () => {
    const dueGoods = new Date(Math.floor(Date.now() / 1000) * 1000 - 600_000);
    const dueDetails = new Date(dueGoods.getTime() - 60_000);
    // What a worker that died after claiming leaves, and what a failed start leaves.
    await svc.db.pool.query(
      `INSERT INTO schedule_claims (claim, job, due_at, claimed_by, claimed_at, outcome, error) VALUES
         ($1, 'goods', $2, 'gone-host:1', now() - interval '5 minutes', NULL, NULL),
         ($3, 'details', $4, 'gone-host:2', now() - interval '5 minutes', 'failed', 'connect ECONNREFUSED')`,
      [`goods:${dueGoods.toISOString()}`, dueGoods, `details:${dueDetails.toISOString()}`, dueDetails],
    );
    for (const [job, due] of [
      ['goods', dueGoods],
      ['details', dueDetails],
    ] as const) {
      const claim = await eventually(
        async () => {
          const c = await claimAt(job, due.getTime());
          return c?.outcome === 'started' ? c : null;
        },
        20_000,
        100,
      );
      expect(claim).toMatchObject({ outcome: 'started', attempts: 2, error: null, claimed_by: expect.stringMatching(new RegExp(`:${process.pid}$`)) });
      const run = await svc.db.pool.query(`SELECT kind FROM sync_runs WHERE id::text = $1`, [claim!.run_id]);
      expect(run.rows).toEqual([{ kind: job === 'goods' ? 'origin_goods' : 'details' }]);
    }
    // Once taken over and started, it is not started again.
    await sleep(1500);
    expect((await claimAt('goods', dueGoods.getTime()))!.attempts).toBe(2);
  });

  it('shows a tick no worker claimed (every worker down) as missed', async () => {
    // As the page would read it ten minutes from now with no worker running: the ticks after the
    // newest claim are overdue and have no claim at all.
    const later = new Date(Date.now() + 600_000);
    const view = await scheduleView(svc.db.pool, svc.services.config.schedules, later);
    expect(view.categories.last).toMatchObject({ outcome: 'missed', detail: 'no worker claimed it', runId: null });
    expect(new Date(view.categories.last!.dueAt).getTime()).toBeLessThan(later.getTime() - 60_000);
    // A job whose next tick is not due is not shown as missed.
    expect(view.goods.last).toMatchObject({ outcome: 'started' });
    expect(view.goods).toMatchObject({ cron: YEARLY, next: expect.any(String) });
  });
});
