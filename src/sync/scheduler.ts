/**
 * Scheduled synchronisations (docs/deployment.md, Scheduled synchronisation): categories
 * (CATEGORY_SYNC_CRON, hourly), the goods listing (GOODS_SYNC_CRON) and the details of links whose
 * listing changed or that never had one (DETAILS_SYNC_CRON); `off` turns one off.
 *
 * The worker role runs them (`--role all` includes it). However many workers run, each tick runs once:
 * every scheduling process claims `<job>:<scheduled time>` in PostgreSQL, and only the process whose
 * claim went in starts the run. A tick while the previous run of its kind is still going starts
 * nothing: the run table allows one running run per kind, in any process.
 *
 * No tick is lost silently:
 * - A late tick still runs. node-cron's default gives a tick about a second: a worker whose event loop
 *   was busy at 02:30:00 (a bulk step next to the projections stalls it for hundreds of milliseconds)
 *   skipped it, leaving no claim and no run. Here a tick runs however late, as long as the job's next
 *   tick is not due yet (the claim makes a late run as safe as a punctual one); only a tick that its
 *   successor overtook is `missed`, and recorded so.
 * - A claimed tick whose run did not start is retried: one whose start failed (`failed`), and one
 *   whose process died between claim and start (no outcome after STALE_CLAIM_MS). Every worker looks
 *   for them every RETRY_EVERY_MS and takes one over by compare-and-set, until the job's next tick
 *   has been claimed (that run does what the lost one would have).
 * - GET /sync/schedule and /metrics show each job's last tick and last run, and a tick that was
 *   missed or failed, including one no worker claimed at all (every worker down).
 */
import { hostname } from 'node:os';
import cron from 'node-cron';
import type { Config } from '../config';
import type { Pool, Queryable } from '../platform/db';
import type { Logger } from '../platform/log';
import { AppError } from '../platform/errors';
import type { SyncParams, SyncService } from './service';
import type { SyncKind } from './runs';
import type { JobSchedule, RunState, ScheduledJob, ScheduledTick, SyncSchedule, TickOutcome } from '../contract/sync';

const JOBS: Record<ScheduledJob, { kind: SyncKind; params: Omit<SyncParams, 'by'> }> = {
  categories: { kind: 'categories', params: {} },
  goods: { kind: 'origin_goods', params: {} },
  details: { kind: 'details', params: { changedOnly: true } },
};
export const SCHEDULED_JOBS = Object.keys(JOBS) as ScheduledJob[];

/** How often each worker looks for claimed ticks whose run did not start. */
const RETRY_EVERY_MS = 30_000;
/** A claim with no outcome this long after it was taken was left by a process that died. */
const STALE_CLAIM_MS = 60_000;
/** A tick this long overdue with no claim is shown as missed (no worker claimed it). */
const UNCLAIMED_GRACE_MS = 60_000;
/** Ticks shown per job. */
const RECENT = 10;

/** Who claims: enough for an operator to find the process (host and pid). */
export const claimant = (): string => `${hostname()}:${process.pid}`;

const dueTick = (dueAt: Date) => new Date(Math.floor(dueAt.getTime() / 1000) * 1000);
/** The row a tick is claimed in: the job and its scheduled time to the second. */
const claimKey = (job: ScheduledJob, dueAt: Date) => `${job}:${dueTick(dueAt).toISOString()}`;

/**
 * Claims one tick of a job; true when this caller won it. The scheduled time is the tick's own (to the
 * second), the same in every process, so two processes firing the same tick race for one row.
 */
export async function claimTick(db: Queryable, job: ScheduledJob, dueAt: Date, by: string = claimant()): Promise<boolean> {
  const r = await db.query(`INSERT INTO schedule_claims (claim, job, due_at, claimed_by) VALUES ($1, $2, $3, $4) ON CONFLICT (claim) DO NOTHING`, [
    claimKey(job, dueAt),
    job,
    dueTick(dueAt),
    by,
  ]);
  return r.rowCount === 1;
}

/** node-cron's own matcher, which the schedule runs by (it has no public "next after a date"). */
type Matcher = { getNextMatch(date: Date): Date };

/** The first time strictly after `after` that `expr` matches, by the very matcher the schedule uses. */
export function nextTickAfter(expr: string, after: Date): Date {
  const task = cron.createTask(expr, () => undefined);
  const matcher = (task as unknown as { timeMatcher?: Matcher }).timeMatcher;
  void task.destroy();
  if (typeof matcher?.getNextMatch !== 'function') throw new Error('node-cron no longer exposes its time matcher: nextTickAfter needs another way');
  return matcher.getNextMatch(after);
}

/** When each job runs next from now (null: off). */
function nextRun(expr: string | null): string | null {
  return expr ? nextTickAfter(expr, new Date()).toISOString() : null;
}

/** The schedules, the table the ticks are claimed in, and the service that starts the runs. */
export interface SchedulerDeps {
  config: Pick<Config, 'schedules'>;
  pool: Pool;
  log: Logger;
  sync: Pick<SyncService, 'start'>;
}

/** Intervals, for tests that cannot wait half a minute. */
export interface SchedulerTimings {
  retryEveryMs?: number;
  staleClaimMs?: number;
}

export function startSchedules(s: SchedulerDeps, timings: SchedulerTimings = {}): { stop(): void } {
  const retryEveryMs = timings.retryEveryMs ?? RETRY_EVERY_MS;
  const staleClaimMs = timings.staleClaimMs ?? STALE_CLAIM_MS;
  const jobs = SCHEDULED_JOBS.filter((job) => s.config.schedules[job]);

  /** Starts the run of a tick this process holds the claim of, and records what became of it. */
  const startRun = async (job: ScheduledJob, claim: string): Promise<void> => {
    const { kind, params } = JOBS[job];
    try {
      const { runId } = await s.sync.start(kind, { ...params, by: 'system:sync' });
      await s.pool.query(`UPDATE schedule_claims SET run_id = $2, outcome = 'started', error = NULL WHERE claim = $1`, [claim, runId]);
      s.log.info({ job, claim, runId }, 'scheduled synchronisation started');
    } catch (e) {
      const running = e instanceof AppError && e.code === 'SYNC.ALREADY_RUNNING';
      const why = running ? 'previous run still going' : e instanceof Error ? e.message : String(e);
      // Not recorded when the database itself is away: the claim then stays open and is retried as stale.
      await s.pool.query(`UPDATE schedule_claims SET outcome = $2, error = $3 WHERE claim = $1`, [claim, running ? 'skipped' : 'failed', why.slice(0, 500)]);
      if (running) s.log.info({ job, claim }, 'previous synchronisation still running; tick skipped');
      else s.log.error({ err: e, job, claim }, 'scheduled synchronisation could not start; it is retried');
    }
  };

  const tasks = jobs.map((job) => {
    const task = cron.schedule(
      s.config.schedules[job]!,
      async (ctx) => {
        try {
          if (!(await claimTick(s.pool, job, ctx.date))) return; // another process runs this tick
          await startRun(job, claimKey(job, ctx.date));
        } catch (e) {
          s.log.error({ err: e, job }, 'scheduled synchronisation could not be claimed');
        }
      },
      // However late: a tick runs unless the job's next one is already due (node-cron's own rule).
      { name: `sync-${job}`, missedExecutionTolerance: Number.POSITIVE_INFINITY },
    );
    task.on('execution:missed', (ctx) => {
      s.log.error({ job, dueAt: ctx.date }, 'scheduled synchronisation missed: the worker was busy past its next tick');
      // Another process may have run it: its claim stands, and this records nothing.
      void s.pool
        .query(`INSERT INTO schedule_claims (claim, job, due_at, claimed_by, outcome, error, attempts) VALUES ($1, $2, $3, $4, 'missed', $5, 0) ON CONFLICT (claim) DO NOTHING`, [
          claimKey(job, ctx.date),
          job,
          dueTick(ctx.date),
          claimant(),
          'the worker was busy past the next tick',
        ])
        .catch((e: unknown) => s.log.error({ err: e, job }, 'could not record a missed tick'));
    });
    return task;
  });

  /** Takes over the latest claimed tick of a job whose run did not start, if any, and starts it. */
  const retry = async (job: ScheduledJob): Promise<void> => {
    const taken = await s.pool.query<{ claim: string; attempts: number }>(
      `UPDATE schedule_claims SET claimed_by = $2, claimed_at = now(), attempts = attempts + 1, outcome = NULL, error = NULL
        WHERE claim = (
          SELECT c.claim FROM schedule_claims c
           WHERE c.job = $1
             AND ((c.outcome IS NULL AND c.claimed_at < now() - make_interval(secs => $3 / 1000.0))
               OR (c.outcome = 'failed' AND c.claimed_at < now() - make_interval(secs => $4 / 1000.0)))
             AND NOT EXISTS (SELECT 1 FROM schedule_claims later WHERE later.job = c.job AND later.due_at > c.due_at)
           ORDER BY c.due_at DESC LIMIT 1
           FOR UPDATE SKIP LOCKED)
        RETURNING claim, attempts`,
      [job, claimant(), staleClaimMs, retryEveryMs],
    );
    const row = taken.rows[0];
    if (!row) return;
    s.log.warn({ job, claim: row.claim, attempt: row.attempts }, 'retrying a scheduled synchronisation whose run did not start');
    await startRun(job, row.claim);
  };
  let retrying = false;
  const sweep = setInterval(() => {
    if (retrying) return;
    retrying = true;
    void Promise.all(jobs.map((job) => retry(job).catch((e: unknown) => s.log.error({ err: e, job }, 'could not retry a scheduled synchronisation')))).finally(
      () => (retrying = false),
    );
  }, retryEveryMs);
  sweep.unref();

  return {
    stop: () => {
      clearInterval(sweep);
      tasks.forEach((t) => void t.destroy());
    },
  };
}

interface ClaimRow {
  job: ScheduledJob;
  due_at: Date;
  outcome: string | null;
  error: string | null;
  run_id: string | null;
  run_state: RunState | null;
  claimed_by: string;
  attempts: number;
}

const toTick = (r: ClaimRow): ScheduledTick => ({
  dueAt: r.due_at.toISOString(),
  outcome: (r.outcome ?? 'starting') as TickOutcome,
  detail: r.error,
  runId: r.run_id,
  runState: r.run_state,
  claimedBy: r.claimed_by,
  attempts: r.attempts,
});

/**
 * GET /sync/schedule: each job's cron expression, its next run, its last tick and last run, and its
 * latest ticks. A tick due more than a minute ago after the newest claimed one was claimed by no
 * worker (every worker down, or none running): it is shown as missed, though no row records it.
 */
export async function scheduleView(db: Queryable, schedules: Config['schedules'], now = new Date()): Promise<SyncSchedule> {
  const r = await db.query<ClaimRow>(
    `SELECT c.job, c.due_at, c.outcome, c.error, c.run_id, r.state AS run_state, c.claimed_by, c.attempts
       FROM (SELECT *, row_number() OVER (PARTITION BY job ORDER BY due_at DESC) AS n FROM schedule_claims) c
       LEFT JOIN sync_runs r ON r.id::text = c.run_id
      WHERE c.n <= $1
      ORDER BY c.job, c.due_at DESC`,
    [RECENT],
  );
  const last = await db.query<ClaimRow>(
    `SELECT DISTINCT ON (c.job) c.job, c.due_at, c.outcome, c.error, c.run_id, r.state AS run_state, c.claimed_by, c.attempts
       FROM schedule_claims c LEFT JOIN sync_runs r ON r.id::text = c.run_id
      WHERE c.outcome = 'started'
      ORDER BY c.job, c.due_at DESC`,
  );
  const view = (job: ScheduledJob): JobSchedule => {
    const expr = schedules[job];
    const recent = r.rows.filter((x) => x.job === job).map(toTick);
    if (expr && recent[0]) {
      const due = nextTickAfter(expr, new Date(recent[0].dueAt));
      if (due.getTime() < now.getTime() - UNCLAIMED_GRACE_MS) {
        recent.unshift({ dueAt: due.toISOString(), outcome: 'missed', detail: 'no worker claimed it', runId: null, runState: null, claimedBy: null, attempts: 0 });
        recent.length = Math.min(recent.length, RECENT);
      }
    }
    const run = last.rows.find((x) => x.job === job);
    return { cron: expr, next: nextRun(expr), last: recent[0] ?? null, lastRun: run ? toTick(run) : null, recent };
  };
  return { categories: view('categories'), goods: view('goods'), details: view('details') };
}

/** What /metrics exports of the schedules (src/platform/metrics.ts). */
export async function scheduleMetrics(db: Queryable, schedules: Config['schedules']) {
  const view = await scheduleView(db, schedules);
  const counts = await db.query<{ job: ScheduledJob; outcome: string | null; n: string }>(`SELECT job, outcome, count(*) AS n FROM schedule_claims GROUP BY job, outcome`);
  return SCHEDULED_JOBS.filter((job) => schedules[job]).map((job) => ({
    job,
    lastRunAt: view[job].lastRun ? new Date(view[job].lastRun!.dueAt) : null,
    lastTickNotRun: view[job].last !== null && (view[job].last!.outcome === 'missed' || view[job].last!.outcome === 'failed'),
    ticks: Object.fromEntries(counts.rows.filter((c) => c.job === job).map((c) => [c.outcome ?? 'starting', Number(c.n)])) as Partial<Record<TickOutcome, number>>,
  }));
}
