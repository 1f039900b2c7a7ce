/**
 * Organisation runs as durable records (docs/api.md, OrganiseRun): one row per run in
 * `organise_runs`, written as the run goes (phase, progress, counts) and when it ends (state, the
 * report, the error), so every process answers GET /product-families/organize/status and /runs alike.
 * Like sync runs they are bookkeeping in a plain table, not events.
 */
import type { Pool } from '../../platform/db';
import { newId } from '../../platform/ids';
import { sessionLockHeld } from '../../platform/locks';
import type { OrganiseKind, OrganiseProgress, OrganiseReport, OrganiseRunRecorder, RecordedRun } from './report';
import type { OrganiseCounts, OrganiseRunState, OrganiseRunView, OrganiseStatus } from '../../contract/organise';

/** The session lock one organisation run holds across processes. */
export const ORGANISE_LOCK = 'organisation-running';

/** How often a running run's progress is written (a status poll every 500 ms sees it move). */
const FLUSH_MS = 250;
/** How long the end of a run is retried while the database is away (the run still holds its lock). */
const FINISH_WITHIN_MS = 30_000;
const ABANDONED = 'abandoned: the process running it stopped';

const countsOf = (r: OrganiseReport | null): Partial<OrganiseCounts> =>
  r ? (Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Array.isArray(v) ? v.length : v])) as OrganiseCounts) : {};

/** What the run says now: its progress, and its report as far as it has got. */
type ReadRun = () => { progress: OrganiseProgress; report: OrganiseReport | null };

export class PgOrganiseRuns implements OrganiseRunRecorder {
  constructor(private readonly pool: Pool) {}

  async open(kind: OrganiseKind, by: string, read: ReadRun): Promise<RecordedRun> {
    // The caller holds the organisation lock, so a run still marked running has lost its process.
    await this.pool.query(`UPDATE organise_runs SET state = 'failed', finished_at = now(), error = $1 WHERE state = 'running'`, [ABANDONED]);
    const id = newId();
    const { progress } = read();
    await this.pool.query(`INSERT INTO organise_runs (id, kind, state, phase, started_by, done, total) VALUES ($1, $2, 'running', $3, $4, $5, $6)`, [
      id,
      kind,
      progress.phase,
      by,
      progress.done,
      progress.total,
    ]);
    return new PgRecordedRun(this.pool, id, read);
  }
}

class PgRecordedRun implements RecordedRun {
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<unknown> | null = null;
  private written = '';

  constructor(
    private readonly pool: Pool,
    readonly id: string,
    private readonly read: ReadRun,
  ) {
    this.timer = setInterval(() => void this.flush(), FLUSH_MS);
    this.timer.unref();
  }

  /** Writes the progress when it moved; best effort (the end is written by `finish`). */
  private async flush(): Promise<void> {
    if (this.flushing) return;
    const { progress, report } = this.read();
    const values = [progress.phase, progress.done, progress.total, countsOf(report)];
    const key = JSON.stringify(values);
    if (key === this.written) return;
    this.flushing = this.pool
      .query(`UPDATE organise_runs SET phase = $2, done = $3, total = $4, counts = $5, updated_at = now() WHERE id = $1 AND state = 'running'`, [this.id, ...values])
      .then(
        () => void (this.written = key),
        () => undefined,
      )
      .finally(() => (this.flushing = null));
    await this.flushing;
  }

  async finish(): Promise<void> {
    clearInterval(this.timer);
    while (this.flushing) await this.flushing;
    const { progress, report } = this.read();
    const succeeded = progress.state === 'succeeded';
    const deadline = Date.now() + FINISH_WITHIN_MS;
    for (let wait = 250; ; wait = Math.min(wait * 2, 5_000)) {
      try {
        await this.pool.query(
          `UPDATE organise_runs SET state = $2, phase = $3, done = $4, total = $5, counts = $6, report = $7, error = $8,
                  finished_at = now(), updated_at = now()
            WHERE id = $1`,
          [this.id, succeeded ? 'succeeded' : 'failed', progress.phase, progress.done, progress.total, countsOf(report), succeeded ? report : null, progress.error],
        );
        return;
      } catch {
        // Left `running`, the row would read as abandoned once the lock is gone: not wrong, only less precise.
        if (Date.now() > deadline) return;
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }
}

interface RunRow {
  id: string;
  kind: OrganiseKind;
  state: OrganiseRunState;
  phase: OrganiseProgress['phase'];
  done: number;
  total: number;
  started_by: string;
  started_at: Date;
  finished_at: Date | null;
  error: string | null;
  counts: Partial<OrganiseCounts>;
  report?: OrganiseReport | null;
}

const SUMMARY = `id::text AS id, kind, state, phase, done, total, started_by, started_at, finished_at, error, counts`;

const toView = (r: RunRow): OrganiseRunView => ({
  runId: r.id,
  kind: r.kind,
  state: r.state,
  phase: r.phase,
  done: r.done,
  total: r.total,
  startedBy: r.started_by,
  startedAt: r.started_at.toISOString(),
  finishedAt: r.finished_at ? r.finished_at.toISOString() : null,
  error: r.error,
  counts: r.counts,
});

/**
 * Rows as they should be read: one still `running` while no session holds the organisation lock has
 * lost its process. It is read again before it is called so: a run writes its end before it lets the
 * lock go, so a run that just finished shows as it finished.
 */
async function settled(pool: Pool, rows: RunRow[], columns: string): Promise<RunRow[]> {
  if (!rows.some((r) => r.state === 'running') || (await sessionLockHeld(pool, ORGANISE_LOCK))) return rows;
  const again = await pool.query<RunRow>(`SELECT ${columns} FROM organise_runs WHERE id = ANY($1::bigint[])`, [rows.filter((r) => r.state === 'running').map((r) => r.id)]);
  const now = new Map(again.rows.map((r) => [r.id, r]));
  return rows.map((r) => {
    const latest = now.get(r.id) ?? r;
    return latest.state === 'running' ? { ...latest, state: 'failed', error: ABANDONED } : latest;
  });
}

/** A page of runs, newest first. */
export async function listOrganiseRuns(pool: Pool, limit: number, offset: number): Promise<{ items: OrganiseRunView[]; total: number }> {
  const total = await pool.query<{ n: string }>(`SELECT count(*) AS n FROM organise_runs`);
  return { items: await newestRuns(pool, limit, offset), total: Number(total.rows[0]!.n) };
}

async function newestRuns(pool: Pool, limit: number, offset: number): Promise<OrganiseRunView[]> {
  const rows = await pool.query<RunRow>(`SELECT ${SUMMARY} FROM organise_runs ORDER BY started_at DESC, id DESC LIMIT $1 OFFSET $2`, [limit, offset]);
  return (await settled(pool, rows.rows, SUMMARY)).map(toView);
}

/** One run with its report (null until it has succeeded). */
export async function getOrganiseRun(pool: Pool, id: string): Promise<(OrganiseRunView & { report: OrganiseReport | null }) | null> {
  const columns = `${SUMMARY}, report`;
  const rows = await pool.query<RunRow>(`SELECT ${columns} FROM organise_runs WHERE id = $1`, [id]);
  const [row] = await settled(pool, rows.rows, columns);
  return row ? { ...toView(row), report: row.report ?? null } : null;
}

/** The running or else the latest run, as the status endpoint answers it; `idle` before the first. */
export async function organiseStatus(pool: Pool): Promise<OrganiseStatus> {
  // Polled by the admin page while a run goes: the newest row only, no count.
  const [latest] = await newestRuns(pool, 1, 0);
  return latest ?? { runId: null, state: 'idle', phase: null, done: 0, total: 0, startedAt: null, finishedAt: null, error: null };
}
