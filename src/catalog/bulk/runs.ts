/**
 * Bulk runs (docs/api.md, Bulk changes): one row per run in `bulk_runs`, written by the running
 * process as it goes (each item's outcome, progress) and when it ends, so every process answers
 * GET /bulk-runs/:runId. Bookkeeping in a plain table, like organise_runs: the items' changes are
 * their own commands' events.
 */
import type { Pool } from '../../platform/db';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import type { BulkItemResult, BulkRun, BulkTarget } from '../../contract/bulk';

/** How often a running run's progress is written; also its heartbeat. */
const FLUSH_MS = 500;
/** A running run not written for this long has lost its process. */
const ABANDONED_AFTER = '30 seconds';

/** The record of one run while it goes. */
export class BulkRunRecord {
  readonly results: BulkItemResult[] = [];
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly pool: Pool,
    readonly id: string,
  ) {
    this.timer = setInterval(() => void this.flush(), FLUSH_MS);
    this.timer.unref();
  }

  static async open(pool: Pool, target: BulkTarget, action: object, by: string, total: number): Promise<BulkRunRecord> {
    const id = newId();
    await pool.query(`INSERT INTO bulk_runs (id, target, action, state, started_by, total) VALUES ($1, $2, $3, 'running', $4, $5)`, [id, target, action, by, total]);
    return new BulkRunRecord(pool, id);
  }

  /** Writes the outcomes so far; best effort (the end is written by `finish`). */
  private flush(): Promise<unknown> {
    const results = JSON.stringify(this.results);
    this.flushing = this.flushing.then(() =>
      this.pool
        .query(`UPDATE bulk_runs SET done = $2, results = $3, updated_at = now() WHERE id = $1 AND state = 'running'`, [this.id, this.results.length, results])
        .catch(() => undefined),
    );
    return this.flushing;
  }

  async finish(error: { code: string; message: string } | null): Promise<void> {
    clearInterval(this.timer);
    await this.flushing;
    await this.pool.query(`UPDATE bulk_runs SET state = $2, done = $3, results = $4, error = $5, finished_at = now(), updated_at = now() WHERE id = $1`, [
      this.id,
      error ? 'failed' : 'succeeded',
      this.results.length,
      JSON.stringify(this.results),
      error,
    ]);
  }
}

interface RunRow {
  id: string;
  target: BulkTarget;
  action: Record<string, unknown>;
  state: BulkRun['state'];
  started_by: string;
  started_at: Date;
  finished_at: Date | null;
  done: number;
  total: number;
  results: BulkItemResult[];
  error: BulkRun['error'];
  abandoned: boolean;
}

/** One run as GET /bulk-runs/:runId answers it; 404 `BULK.RUN_NOT_FOUND`. */
export async function readBulkRun(pool: Pool, id: string): Promise<BulkRun> {
  const r = await pool.query<RunRow>(
    `SELECT *, id::text AS id, state = 'running' AND updated_at < now() - interval '${ABANDONED_AFTER}' AS abandoned FROM bulk_runs WHERE id = $1`,
    [id],
  );
  const row = r.rows[0];
  if (!row) throw AppError.notFound('BULK.RUN_NOT_FOUND', `no bulk run ${id}`);
  const skipped = row.results.filter((x) => x.outcome === 'skipped').length;
  return {
    runId: row.id,
    target: row.target,
    action: row.action,
    state: row.abandoned ? 'failed' : row.state,
    done: row.done,
    total: row.total,
    counts: { done: row.results.length - skipped, changed: row.results.filter((x) => x.changed).length, skipped },
    results: row.results,
    startedBy: row.started_by,
    startedAt: row.started_at.toISOString(),
    finishedAt: row.finished_at?.toISOString() ?? null,
    error: row.abandoned ? { code: 'INTERNAL', message: 'abandoned: the process running it stopped' } : row.error,
  };
}
