/** Synchronisation runs and schedules as the admin API answers them (docs/api.md). */
import { z } from 'zod';

export const syncKind = z.enum(['categories', 'origin_goods', 'details']);
export type SyncKind = z.infer<typeof syncKind>;
export const runState = z.enum(['running', 'succeeded', 'failed', 'held']);
export type RunState = z.infer<typeof runState>;

export const countKey = z.enum(['created', 'changed', 'unchanged', 'delisted', 'relisted', 'failed']);
export type CountKey = z.infer<typeof countKey>;
export const counts = z.record(countKey, z.number().int().min(0));
export type Counts = z.infer<typeof counts>;

/** What a listing pass held back instead of delisting (SYNC_DELIST_MAX_SHARE). */
export const heldDelisting = z.object({ wouldDelist: z.number().int(), listed: z.number().int(), maxShare: z.number() });
export type HeldDelisting = z.infer<typeof heldDelisting>;

export const runError = z.object({ message: z.string(), item: z.string().optional() });
export type RunError = z.infer<typeof runError>;

export const syncRunView = z
  .object({
    runId: z.string(),
    kind: syncKind,
    state: runState,
    dryRun: z.boolean(),
    params: z.record(z.string(), z.unknown()),
    startedBy: z.string(),
    startedAt: z.string(),
    finishedAt: z.string().nullable(),
    progress: z.object({ done: z.number().int(), total: z.number().int().nullable() }),
    counts,
    errors: z.array(runError),
    preview: z.unknown(),
    /** state `held`: the delisting it held back */
    held: heldDelisting.nullable(),
  })
  .meta({ id: 'SyncRun' });
export type SyncRunView = z.infer<typeof syncRunView>;

export const scheduledJob = z.enum(['categories', 'goods', 'details']);
export type ScheduledJob = z.infer<typeof scheduledJob>;

/**
 * What became of a scheduled tick: `starting` (claimed, its run not started yet), `started`, `skipped`
 * (the previous run of its kind still going), `failed` (the run could not start; retried until the
 * job's next tick), `missed` (not run: its worker was busy past the next tick, or no worker claimed it).
 */
export const tickOutcome = z.enum(['starting', 'started', 'skipped', 'failed', 'missed']);
export type TickOutcome = z.infer<typeof tickOutcome>;

export const scheduledTick = z.object({
  /** when it was due */
  dueAt: z.string(),
  outcome: tickOutcome,
  /** why, in words: the start's error, `previous run still going`, `no worker claimed it` */
  detail: z.string().nullable(),
  /** the run it started */
  runId: z.string().nullable(),
  /** that run's state now */
  runState: runState.nullable(),
  /** the process that claimed it last (host:pid) */
  claimedBy: z.string().nullable(),
  /** how often its start was attempted */
  attempts: z.number().int(),
});
export type ScheduledTick = z.infer<typeof scheduledTick>;

/** One scheduled synchronisation: its cron expression (null: off), its next run, and its recent ticks. */
export const jobSchedule = z.object({
  cron: z.string().nullable(),
  next: z.string().nullable(),
  /** the latest tick that was due, whatever became of it */
  last: scheduledTick.nullable(),
  /** the latest tick that started a run */
  lastRun: scheduledTick.nullable(),
  /** the latest ticks, newest first (at most 10): a missed or failed one shows here */
  recent: z.array(scheduledTick),
});
export type JobSchedule = z.infer<typeof jobSchedule>;

/** GET /sync/schedule */
export const syncSchedule = z.record(scheduledJob, jobSchedule);
export type SyncSchedule = z.infer<typeof syncSchedule>;

/** POST /sync/categories, /sync/origin-goods, /sync/details: the run started. */
export const runStarted = z.object({ runId: z.string() });

/** GET /sync/runs: the latest runs, newest first. */
export const syncRunList = z.object({ items: z.array(syncRunView) });
