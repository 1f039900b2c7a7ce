/**
 * Scheduled synchronisations (docs/deployment.md, Scheduled synchronisation): categories
 * (CATEGORY_SYNC_CRON, hourly), the goods listing (GOODS_SYNC_CRON) and the details of links whose
 * listing changed or that never had one (DETAILS_SYNC_CRON); `off` turns one off.
 *
 * The worker role runs them (`--role all` includes it). However many workers run, each tick runs once:
 * every scheduling process claims `<job>:<scheduled time>` in PostgreSQL, and only the process whose
 * claim went in starts the run. A tick while the previous run of its kind is still going starts
 * nothing: the run table allows one running run per kind, in any process.
 */
import { hostname } from 'node:os';
import cron from 'node-cron';
import type { Config } from '../config';
import type { Pool, Queryable } from '../platform/db';
import type { Logger } from '../platform/log';
import { AppError } from '../platform/errors';
import type { SyncParams, SyncService } from './service';
import type { SyncKind } from './runs';
import type { ScheduledJob, SyncSchedule } from '../../web/shared/responses/sync';

const JOBS: Record<ScheduledJob, { kind: SyncKind; params: Omit<SyncParams, 'by'> }> = {
  categories: { kind: 'categories', params: {} },
  goods: { kind: 'origin_goods', params: {} },
  details: { kind: 'details', params: { changedOnly: true } },
};

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
  const r = await db.query(
    `INSERT INTO schedule_claims (claim, job, due_at, claimed_by) VALUES ($1, $2, $3, $4) ON CONFLICT (claim) DO NOTHING`,
    [claimKey(job, dueAt), job, dueTick(dueAt), by],
  );
  return r.rowCount === 1;
}

/** When each job runs next (null: off), as the worker schedules it. */
export function nextScheduledTimes(schedules: Config['schedules']): SyncSchedule {
  const next = (expr: string | null) => {
    if (!expr) return null;
    // A started task knows its next run; it is destroyed before it could fire.
    const task = cron.createTask(expr, () => undefined);
    try {
      void task.start();
      return task.getNextRun()?.toISOString() ?? null;
    } finally {
      void task.destroy();
    }
  };
  return {
    categories: { cron: schedules.categories, next: next(schedules.categories) },
    goods: { cron: schedules.goods, next: next(schedules.goods) },
    details: { cron: schedules.details, next: next(schedules.details) },
  };
}

/** The schedules, the table the ticks are claimed in, and the service that starts the runs. */
export interface SchedulerDeps {
  config: Pick<Config, 'schedules'>;
  pool: Pool;
  log: Logger;
  sync: Pick<SyncService, 'start'>;
}

export function startSchedules(s: SchedulerDeps): { stop(): void } {
  const tasks = (Object.keys(JOBS) as ScheduledJob[]).flatMap((job) => {
    const expr = s.config.schedules[job];
    if (!expr) return [];
    const { kind, params } = JOBS[job];
    return [
      cron.schedule(expr, async (ctx) => {
        const due = ctx.date;
        try {
          if (!(await claimTick(s.pool, job, due))) return; // another process runs this tick
          const claim = claimKey(job, due);
          try {
            const { runId } = await s.sync.start(kind, { ...params, by: 'system:sync' });
            await s.pool.query(`UPDATE schedule_claims SET run_id = $2, outcome = 'started' WHERE claim = $1`, [claim, runId]);
            s.log.info({ job, runId }, 'scheduled synchronisation started');
          } catch (e) {
            const running = e instanceof AppError && e.code === 'SYNC.ALREADY_RUNNING';
            await s.pool.query(`UPDATE schedule_claims SET outcome = $2 WHERE claim = $1`, [claim, running ? 'skipped: previous run still going' : 'failed to start']);
            if (running) s.log.info({ job }, 'previous synchronisation still running; tick skipped');
            else s.log.error({ err: e, job }, 'scheduled synchronisation could not start');
          }
        } catch (e) {
          s.log.error({ err: e, job }, 'scheduled synchronisation could not be claimed');
        }
      }, { name: `sync-${job}` }),
    ];
  });
  return { stop: () => tasks.forEach((t) => void t.destroy()) };
}
