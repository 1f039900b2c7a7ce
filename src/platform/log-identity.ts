/**
 * The event log and the PostgreSQL read models, tied together (docs/deployment.md, The log's
 * identity). The log records its id as the first event of the `log-identity` stream; PostgreSQL
 * records the id of the log its checkpoints belong to. Each process compares them at start and
 * refuses to run when they differ, or when a checkpoint lies beyond the log's end (a log recreated
 * from scratch): stale checkpoints would make projections stall or skip, silently.
 * `catalog projections rebuild --all` empties the read models, records the log's id and replays it.
 */
import { randomUUID } from 'node:crypto';
import type { Pool } from './db';
import { AppError } from './errors';
import { EventStoreErrors, comparePositions, positionToString, type EventStore, type LogPosition } from './event-store/port';

export const LOG_IDENTITY_STREAM = 'log-identity';
export const REBUILD_ALL_COMMAND = 'catalog projections rebuild --all';

/** A log and read models that do not belong together; the process exits with code 2. */
export class LogMismatchError extends Error {
  readonly exitCode = 2;
  constructor(message: string) {
    super(`${message}. Rebuild the read models from this log with: ${REBUILD_ALL_COMMAND}`);
    this.name = 'LogMismatchError';
  }
}

/** The log's id: the first event of its `log-identity` stream, written by the first process to ask. */
export async function logIdOf(store: EventStore): Promise<string> {
  const read = async () => {
    const [first] = await store.readStream(LOG_IDENTITY_STREAM, { maxCount: 1 });
    const id = (first?.data as { logId?: unknown } | undefined)?.logId;
    return typeof id === 'string' ? id : null;
  };
  const known = await read();
  if (known) return known;
  const logId = randomUUID();
  try {
    await store.appendToStream(
      LOG_IDENTITY_STREAM,
      [
        {
          id: randomUUID(),
          type: 'LogIdentified',
          version: 1,
          data: { logId },
          metadata: { by: 'system:start', why: 'IdentifyLog', correlationId: randomUUID(), at: new Date().toISOString() },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    return logId;
  } catch (e) {
    // Another process identified the log first: its id is the log's.
    if (e instanceof AppError && e.code === EventStoreErrors.WRONG_REVISION) {
      const theirs = await read();
      if (theirs) return theirs;
    }
    throw e;
  }
}

export async function recordedLogId(pool: Pool): Promise<string | null> {
  const r = await pool.query<{ log_id: string }>(`SELECT log_id FROM log_identity`);
  return r.rows[0]?.log_id ?? null;
}

export async function recordLogId(pool: Pool, logId: string, kind: string): Promise<void> {
  await pool.query(
    `INSERT INTO log_identity (log_id, event_store) VALUES ($1, $2)
       ON CONFLICT (singleton) DO UPDATE SET log_id = EXCLUDED.log_id, event_store = EXCLUDED.event_store, recorded_at = now()`,
    [logId, kind],
  );
}

/** Checkpoints (live and of rebuilds in progress) past the log's last committed event. */
export async function checkpointsBeyond(pool: Pool, head: LogPosition): Promise<{ name: string; position: string }[]> {
  const r = await pool.query<{ name: string; commit_pos: string; prepare_pos: string }>(
    `SELECT name, commit_pos::text, prepare_pos::text FROM projection_checkpoints
     UNION ALL SELECT name, commit_pos::text, prepare_pos::text FROM projection_rebuilds`,
  );
  return r.rows
    .map((row) => ({ name: row.name, pos: { commit: BigInt(row.commit_pos), prepare: BigInt(row.prepare_pos) } }))
    .filter((c) => comparePositions(c.pos, head) > 0)
    .map((c) => ({ name: c.name, position: positionToString(c.pos) }));
}

/**
 * At start: the log's id against the recorded one (recorded when none is, on a new database or the
 * first start of this version), and every checkpoint against the log's end. Throws LogMismatchError.
 */
export async function checkLogIdentity(pool: Pool, store: EventStore): Promise<{ logId: string; adopted: boolean }> {
  const logId = await logIdOf(store);
  let recorded = await recordedLogId(pool);
  let adopted = false;
  if (!recorded) {
    await pool.query(`INSERT INTO log_identity (log_id, event_store) VALUES ($1, $2) ON CONFLICT (singleton) DO NOTHING`, [logId, store.kind]);
    recorded = await recordedLogId(pool);
    adopted = recorded === logId;
  }
  if (recorded !== logId) {
    throw new LogMismatchError(`The event log (${store.kind}, id ${logId}) is not the log the read models and checkpoints were built from (id ${recorded})`);
  }
  const head = await store.headPosition(undefined, { committed: true });
  const beyond = await checkpointsBeyond(pool, head);
  if (beyond.length) {
    throw new LogMismatchError(
      `Checkpoints lie beyond the end of the event log (${positionToString(head)}): ${beyond.map((b) => `${b.name} at ${b.position}`).join(', ')}; the log was recreated or restored from an older copy`,
    );
  }
  return { logId, adopted };
}

/** Whether any process leads a projection now (a worker, or a rebuild run by the command line). */
export async function projectionLeaders(pool: Pool, namespace: number): Promise<number> {
  const r = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_locks
      WHERE locktype = 'advisory' AND granted AND classid = $1 AND objsubid = 2
        AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    [namespace],
  );
  return r.rows[0]!.n;
}
