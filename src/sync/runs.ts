/**
 * Synchronisation runs: one row per run in `sync_runs`, progress flushed as it goes so
 * `GET /sync/runs/:runId` (and the CLI's progress bar) can follow it from any process.
 */
import { randomUUID } from 'node:crypto';
import type { Pool } from '../platform/db';
import { AppError } from '../platform/errors';
import { type CountKey, type Counts, zeroCounts } from './diff';
import type { HeldDelisting, RunError, RunState, SyncKind, SyncRunView } from '../contract/sync';

// A run is answered as it is recorded: declared once for the service and the admin client.
export type { SyncKind, SyncRunView };

const MAX_ERRORS = 200;

export class RunTracker {
  readonly counts: Counts = zeroCounts();
  readonly errors: RunError[] = [];
  private errorsDropped = 0;
  done = 0;
  total: number | null = null;
  preview: unknown[] | null;
  held: HeldDelisting | null = null;
  private readonly startedAt = Date.now();
  private flushing: Promise<void> | null = null;
  private lastFlush = 0;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    private readonly pool: Pool,
    readonly id: string,
    readonly kind: SyncKind,
    readonly dryRun: boolean,
    abandonedAfterS: number,
  ) {
    this.preview = dryRun ? [] : null;
    // The process beats on a timer, not on progress: a run waiting out a supplier's back-off makes
    // no progress for a while, and must not be taken for abandoned meanwhile.
    this.heartbeat = setInterval(() => void this.flush(), (abandonedAfterS * 1000) / 4);
    this.heartbeat.unref();
  }

  count(counts: Partial<Counts>): void {
    for (const [k, v] of Object.entries(counts)) this.counts[k as CountKey] += v ?? 0;
  }

  error(message: string, item?: string): void {
    if (this.errors.length < MAX_ERRORS) this.errors.push(item === undefined ? { message } : { message, item });
    else this.errorsDropped++;
  }

  /** A dry run keeps (a bounded sample of) what it would have appended. */
  wouldAppend(streamId: string, events: { type: string; data: unknown }[]): void {
    // Each event as it would be appended: its type and data (not a decision's working copy of its text).
    if (this.preview && this.preview.length < 500) this.preview.push({ streamId, events: events.map(({ type, data }) => ({ type, data })) });
  }

  /** Writes progress at most every 300 ms; callers need not await it. */
  tick(): Promise<void> {
    if (this.flushing || Date.now() - this.lastFlush < 300) return this.flushing ?? Promise.resolve();
    return this.flush().then(() => undefined);
  }

  /**
   * Writes how the run ended, trying again while the database is away (up to `withinMs`): a run left
   * `running` would hold its kind for SYNC_ABANDONED_AFTER_S after the database is back.
   */
  async finish(state: RunState, withinMs = 120_000): Promise<void> {
    clearInterval(this.heartbeat);
    const deadline = Date.now() + withinMs;
    for (let wait = 250; !(await this.flush(state)) && Date.now() < deadline; wait = Math.min(wait * 2, 5_000)) {
      await new Promise((r) => setTimeout(r, wait));
    }
  }

  /** The run as this process knows it (when the database cannot be asked). */
  view(state: RunState, startedBy: string, params: Record<string, unknown>): SyncRunView {
    return {
      runId: this.id,
      kind: this.kind,
      state,
      dryRun: this.dryRun,
      params,
      startedBy,
      startedAt: new Date(this.startedAt).toISOString(),
      finishedAt: new Date().toISOString(),
      progress: { done: this.done, total: this.total },
      counts: { ...this.counts },
      errors: [...this.errors],
      preview: this.preview,
      held: this.held,
    };
  }

  /** Writes progress (and, with `final`, the end state); answers whether the database took it. */
  async flush(final?: RunState): Promise<boolean> {
    if (final) clearInterval(this.heartbeat);
    while (this.flushing) await this.flushing;
    let written = false;
    this.lastFlush = Date.now();
    const errors = this.errorsDropped ? [...this.errors, { message: `${this.errorsDropped} more errors not listed` }] : this.errors;
    this.flushing = this.pool
      .query(
        `UPDATE sync_runs SET done = $2, total = $3, counts = $4, errors = $5, heartbeat_at = now(),
                state = COALESCE($6, state), finished_at = CASE WHEN $6::text IS NULL THEN NULL ELSE now() END,
                preview = $7, held = $8
          WHERE id = $1 AND state = 'running'`,
        [this.id, this.done, this.total, this.counts, JSON.stringify(errors), final ?? null, this.preview ? JSON.stringify(this.preview) : null, this.held],
      )
      .then(
        () => void (written = true),
        () => undefined, // progress is best effort; the end state is retried by `finish`
      )
      .finally(() => {
        this.flushing = null;
      });
    await this.flushing;
    return written;
  }
}

export async function openRun(
  pool: Pool,
  kind: SyncKind,
  opts: { dryRun: boolean; params: Record<string, unknown>; startedBy: string; abandonedAfterS: number },
): Promise<RunTracker> {
  const id = randomUUID();
  // A run left "running" by a process that died would block its kind forever.
  await pool.query(
    `UPDATE sync_runs SET state = 'failed', finished_at = now(),
            errors = errors || '[{"message":"abandoned: the process running it stopped"}]'::jsonb
      WHERE kind = $1 AND state = 'running' AND heartbeat_at < now() - make_interval(secs => $2)`,
    [kind, opts.abandonedAfterS],
  );
  try {
    await pool.query(`INSERT INTO sync_runs (id, kind, state, dry_run, params, started_by) VALUES ($1, $2, 'running', $3, $4, $5)`, [
      id,
      kind,
      opts.dryRun,
      opts.params,
      opts.startedBy,
    ]);
  } catch (e) {
    if ((e as { code?: string }).code === '23505') {
      const running = await pool.query<{ id: string }>(`SELECT id FROM sync_runs WHERE kind = $1 AND state = 'running'`, [kind]);
      throw AppError.conflict('SYNC.ALREADY_RUNNING', `a ${kind} synchronisation is already running`, { runId: running.rows[0]?.id });
    }
    throw e;
  }
  return new RunTracker(pool, id, kind, opts.dryRun, opts.abandonedAfterS);
}

export async function getRun(pool: Pool, id: string): Promise<SyncRunView | null> {
  const r = await pool.query(`SELECT * FROM sync_runs WHERE id = $1`, [id]);
  return r.rows[0] ? toView(r.rows[0]) : null;
}

export async function listRuns(pool: Pool, kind: SyncKind | undefined, limit: number): Promise<SyncRunView[]> {
  const r = await pool.query(`SELECT * FROM sync_runs WHERE ($1::text IS NULL OR kind = $1) ORDER BY started_at DESC LIMIT $2`, [kind ?? null, limit]);
  return r.rows.map(toView);
}

function toView(row: Record<string, unknown>): SyncRunView {
  return {
    runId: row.id as string,
    kind: row.kind as SyncKind,
    state: row.state as RunState,
    dryRun: row.dry_run as boolean,
    params: row.params as Record<string, unknown>,
    startedBy: row.started_by as string,
    startedAt: (row.started_at as Date).toISOString(),
    finishedAt: row.finished_at ? (row.finished_at as Date).toISOString() : null,
    progress: { done: row.done as number, total: (row.total as number | null) ?? null },
    counts: { ...zeroCounts(), ...(row.counts as Partial<Counts>) },
    errors: row.errors as RunError[],
    preview: row.preview ?? null,
    held: (row.held as HeldDelisting | null) ?? null,
  };
}
