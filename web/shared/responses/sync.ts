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

/** GET /sync/schedule: each scheduled synchronisation's cron expression (null: off) and its next run. */
export type SyncSchedule = Record<ScheduledJob, { cron: string | null; next: string | null }>;
