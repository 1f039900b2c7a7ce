/** Synchronisation runs and schedules as the admin API answers them (docs/api.md). */

export type SyncKind = 'categories' | 'origin_goods' | 'details';
export type RunState = 'running' | 'succeeded' | 'failed' | 'held';

export type CountKey = 'created' | 'changed' | 'unchanged' | 'delisted' | 'relisted' | 'failed';
export type Counts = Record<CountKey, number>;

/** What a listing pass held back instead of delisting (SYNC_DELIST_MAX_SHARE). */
export interface HeldDelisting {
  wouldDelist: number;
  listed: number;
  maxShare: number;
}

export interface RunError {
  message: string;
  item?: string;
}

export interface SyncRunView {
  runId: string;
  kind: SyncKind;
  state: RunState;
  dryRun: boolean;
  params: Record<string, unknown>;
  startedBy: string;
  startedAt: string;
  finishedAt: string | null;
  progress: { done: number; total: number | null };
  counts: Counts;
  errors: RunError[];
  preview: unknown;
  /** state `held`: the delisting it held back */
  held: HeldDelisting | null;
}

export type ScheduledJob = 'categories' | 'goods' | 'details';

/**
 * What became of a scheduled tick: `starting` (claimed, its run not started yet), `started`, `skipped`
 * (the previous run of its kind still going), `failed` (the run could not start; retried until the
 * job's next tick), `missed` (not run: its worker was busy past the next tick, or no worker claimed it).
 */
export type TickOutcome = 'starting' | 'started' | 'skipped' | 'failed' | 'missed';

export interface ScheduledTick {
  /** when it was due */
  dueAt: string;
  outcome: TickOutcome;
  /** why, in words: the start's error, `previous run still going`, `no worker claimed it` */
  detail: string | null;
  /** the run it started */
  runId: string | null;
  /** that run's state now */
  runState: RunState | null;
  /** the process that claimed it last (host:pid) */
  claimedBy: string | null;
  /** how often its start was attempted */
  attempts: number;
}

/** One scheduled synchronisation: its cron expression (null: off), its next run, and its recent ticks. */
export interface JobSchedule {
  cron: string | null;
  next: string | null;
  /** the latest tick that was due, whatever became of it */
  last: ScheduledTick | null;
  /** the latest tick that started a run */
  lastRun: ScheduledTick | null;
  /** the latest ticks, newest first (at most 10): a missed or failed one shows here */
  recent: ScheduledTick[];
}

/** GET /sync/schedule */
export type SyncSchedule = Record<ScheduledJob, JobSchedule>;
