/**
 * `catalog projections rebuild --all` (docs/deployment.md, The log's identity): the read models
 * rebuilt from scratch from the event log behind EVENT_STORE, and that log recorded as theirs. The way
 * back after the log changed under the read models (another EVENT_STORE, a recreated volume).
 *
 * Refuses while any process leads a projection: stop every worker first. The emptying holds every
 * projection's leader lock, so no worker can start one half-way.
 */
import { AppError } from '../errors';
import { ident, withTransaction, type Pool } from '../db';
import { type EventStore, START, comparePositions } from '../event-store/port';
import type { Logger } from '../log';
import { logIdOf, projectionLeaders, recordLogId, recordedLogId } from '../log-identity';
import type { ProjectionEngine } from './engine';
import { LOCK_NAMESPACE } from './runner';

export interface RebuildAllResult {
  logId: string;
  /** the log id the read models had been built from (null: none recorded) */
  previousLogId: string | null;
  projections: string[];
}

export async function rebuildAll(
  deps: { pool: Pool; store: EventStore; engine: ProjectionEngine; log: Logger },
  opts: { onProgress?: (done: number, total: number) => void; pollMs?: number } = {},
): Promise<RebuildAllResult> {
  const { pool, store, engine } = deps;
  if ((await projectionLeaders(pool, LOCK_NAMESPACE)) > 0) {
    throw new AppError('PROJECTION.WORKER_RUNNING', 409, 'a worker is running projections: stop every worker (serve --role worker or all) before rebuilding them all');
  }
  const logId = await logIdOf(store);
  const previousLogId = await recordedLogId(pool);
  const defs = engine.definitions();
  await withTransaction(pool, async (client) => {
    for (const d of defs) {
      const r = await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_xact_lock($1, hashtext($2)) AS ok`, [LOCK_NAMESPACE, d.name]);
      if (!r.rows[0]!.ok) throw new AppError('PROJECTION.WORKER_RUNNING', 409, `a worker started leading ${d.name}: stop every worker before rebuilding them all`);
    }
    const tables = defs.flatMap((d) => d.tables);
    if (tables.length) await client.query(`TRUNCATE ${tables.map(ident).join(', ')}`);
    for (const d of defs) {
      await client.query(`DROP SCHEMA IF EXISTS ${ident(`rebuild_${d.name}`)} CASCADE`);
      await client.query(`DROP SCHEMA IF EXISTS ${ident(`retired_${d.name}`)} CASCADE`);
      await client.query(`INSERT INTO projection_checkpoints (name) VALUES ($1) ON CONFLICT (name) DO NOTHING`, [d.name]);
    }
    await client.query(`DELETE FROM projection_rebuilds`);
    await client.query(
      `UPDATE projection_checkpoints SET commit_pos = -1, prepare_pos = -1, events_applied = 0, last_event_at = NULL,
              state = 'running', last_error = NULL, rebuild_error = NULL, retrying = NULL, updated_at = now()`,
    );
    // Every process's public cache forgets what it held (it came from the other log).
    await client.query(`UPDATE cache_domains SET version = version + 1`);
    // Whether the demo was seeded is a fact about the old log; a new empty one may be seeded again.
    await client.query(`DELETE FROM service_flags WHERE name = 'demo'`);
  });
  await recordLogId(pool, logId, store.kind);
  deps.log.info({ logId, previousLogId }, 'read models emptied; replaying the event log');

  // One count, taken once: the events each projection has to apply, and the head they must reach. The
  // loop below then reads only the checkpoints (their events_applied against that count), never the
  // log: counting it every 250 ms cost half a second a poll at 800 000 events, on the very database
  // the replay writes to.
  const head = await store.headPosition(undefined, { committed: true });
  let total = 0;
  for (const d of defs) total += (await store.lagAfter(START, d.streamPrefixes, Number.POSITIVE_INFINITY)).events;
  await engine.startRunners();
  try {
    for (;;) {
      const st = await engine.progress();
      const failed = st.find((p) => p.state === 'failed');
      if (failed) throw new Error(`projection ${failed.name} failed during the rebuild: ${JSON.stringify(failed.lastError)}`);
      const done = st.reduce((n, p) => n + p.eventsApplied, 0);
      // Events appended meanwhile (by an API process) are applied too: the total follows.
      total = Math.max(total, done);
      opts.onProgress?.(done, total);
      if (st.every((p) => p.ledHere && comparePositions(p.position, head) >= 0)) break;
      await new Promise((r) => setTimeout(r, opts.pollMs ?? 250));
    }
  } finally {
    await engine.stopRunners();
  }
  return { logId, previousLogId, projections: defs.map((d) => d.name) };
}
