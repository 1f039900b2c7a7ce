/**
 * Projection rebuild throughput: `ProjectionEngine.requestRebuild` and a running runner replaying the
 * log into shadow tables until the swap, against one server-side `INSERT … SELECT` per table that
 * writes the same rows straight from es_events (the floor: no client, no batches, no per-event SQL).
 *
 * The projection is the tally shape of the runner tests: a per-stream counter (upsert) plus one row
 * per event, written set-based as the catalog projection writes: two statements per batch (one
 * multi-row upsert of the batch's counters, one multi-row insert of its log rows).
 */
import { z } from 'zod';
import { loadConfig } from '../src/config';
import { createPool, type Pool } from '../src/platform/db';
import { type DecodedEvent, EventRegistry, type EventUnion, defineEvent } from '../src/platform/events/registry';
import { type LogPosition, type ReadAllOptions, type RecordedEvent, START, positionToString } from '../src/platform/event-store/port';
import { PostgresEventStore } from '../src/platform/event-store/postgres';
import { PgListener } from '../src/platform/pg-listener';
import { defineBatchProjection, type ProjectionDb } from '../src/platform/projections/definition';
import { insertRows } from '../src/platform/projections/sql';
import { ProjectionEngine } from '../src/platform/projections/engine';
import { type BenchContext, type Suite, Tally, measure, ratio, sleep, timed } from './harness';

const NAME = 'bench_tally';
const PREFIX = 'tally-';
const EVENT_TYPE = 'BenchTallied';
const COUNTS = 'bench_tally_counts';
const LOG = 'bench_tally_log';

export const BenchTallied = defineEvent(EVENT_TYPE, 1, z.object({ n: z.number().int() }));
type BenchEvent = EventUnion<[typeof BenchTallied]>;

/** The projection; `handlers` (optional) accumulates the time its batch calls take. */
export function benchProjection(handlers?: Tally) {
  const applyBatch = async (db: ProjectionDb, events: readonly DecodedEvent<BenchEvent>[]) => {
    const perStream = new Map<string, { total: number; events: number }>();
    for (const e of events) {
      const c = perStream.get(e.streamId) ?? { total: 0, events: 0 };
      c.total += e.data.n;
      c.events++;
      perStream.set(e.streamId, c);
    }
    await insertRows(
      db,
      COUNTS,
      { stream: 'text', total: 'bigint', events: 'integer' },
      ['stream', 'total', 'events'],
      [...perStream].map(([stream, c]) => [stream, c.total, c.events]),
      `ON CONFLICT (stream) DO UPDATE SET total = ${COUNTS}.total + EXCLUDED.total, events = ${COUNTS}.events + EXCLUDED.events`,
    );
    await insertRows(
      db,
      LOG,
      { event_id: 'uuid', stream: 'text', n: 'integer' },
      ['event_id', 'stream', 'n'],
      events.map((e) => [e.id, e.streamId, e.data.n]),
    );
  };
  return defineBatchProjection({
    name: NAME,
    events: [BenchTallied],
    streamPrefixes: [PREFIX],
    tables: [COUNTS, LOG],
    domains: ['goods'],
    applyBatch: handlers ? (db, events) => handlers.time(() => applyBatch(db, events)) : applyBatch,
  });
}

/** The adapter, with the time the runner spends in `readAll` accumulated (reads that found events, and empty ones). */
class TimedReadsStore extends PostgresEventStore {
  readonly reads = new Tally();
  readonly emptyReads = new Tally();

  override async readAll(opts: ReadAllOptions): Promise<RecordedEvent[]> {
    const t = new Tally();
    const events = await t.time(() => super.readAll(opts));
    const into = events.length ? this.reads : this.emptyReads;
    into.calls++;
    into.seconds += t.seconds;
    return events;
  }
}

export const TABLES_SQL = `
  CREATE TABLE ${COUNTS} (stream text PRIMARY KEY, total bigint NOT NULL, events integer NOT NULL);
  CREATE TABLE ${LOG} (event_id uuid NOT NULL, stream text NOT NULL, n integer NOT NULL);
  CREATE INDEX ${LOG}_stream ON ${LOG} (stream);`;

const per = (t: { calls: number; seconds: number }, unit: number) => (t.calls ? (t.seconds / t.calls) * unit : 0);

/** What the projection's tables hold, reduced to a comparable fingerprint. */
async function fingerprint(pool: Pool): Promise<string> {
  const r = await pool.query<{ f: string }>(
    `SELECT concat_ws(' ',
       (SELECT count(*) FROM ${COUNTS}), (SELECT sum(total) FROM ${COUNTS}), (SELECT sum(events) FROM ${COUNTS}),
       (SELECT md5(string_agg(stream || ':' || total || ':' || events, ',' ORDER BY stream)) FROM ${COUNTS}),
       (SELECT count(*) FROM ${LOG}), (SELECT sum(n) FROM ${LOG}),
       (SELECT md5(string_agg(event_id::text || ':' || stream || ':' || n, ',' ORDER BY event_id)) FROM ${LOG})) AS f`,
  );
  return r.rows[0]!.f;
}

/**
 * Fills the log server-side: `events` events over `streams` streams, in transactions of `chunk`
 * (so positions span many transaction ids, as a real log does). Rows are ordinary es_events rows:
 * seq, tx_id and recorded_at from their defaults, random event ids, revisions 0.. per stream in log
 * order, and es_streams at each stream's last revision.
 */
export async function loadEvents(pool: Pool, events: number, streams: number, chunk = 20_000): Promise<void> {
  for (let from = 0; from < events; from += chunk) {
    const to = Math.min(events, from + chunk) - 1;
    await pool.query(
      `INSERT INTO es_events (event_id, stream_id, revision, type, version, data, metadata)
       SELECT gen_random_uuid(), $1 || (g % $2), g / $2, $3, 1,
              jsonb_build_object('n', g % 7 + 1),
              jsonb_build_object('by', 'system:bench', 'why', 'BenchLoad', 'correlationId', gen_random_uuid()::text,
                                 'at', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
         FROM generate_series($4::bigint, $5::bigint) AS g
        ORDER BY g`,
      [PREFIX, streams, EVENT_TYPE, from, to],
    );
  }
  await pool.query(`INSERT INTO es_streams (stream_id, revision) SELECT stream_id, max(revision) FROM es_events GROUP BY stream_id`);
  // As an old log would be: statistics current, hint bits set, visibility map filled.
  await pool.query(`VACUUM ANALYZE es_events`);
  await pool.query(`VACUUM ANALYZE es_streams`);
}

export const projectionRebuildSuite: Suite = {
  name: 'rebuild',
  title: 'projection rebuild',
  flags: {
    events: { default: 200_000, help: 'events in the log to rebuild from' },
    'rebuild-streams': { default: 1000, help: 'streams the events are spread over' },
    'batch-size': { default: 0, help: 'runner batch size; 0 = PROJECTION_BATCH_SIZE from the config' },
    'rebuild-timeout': { default: 300, help: 'seconds to wait for the swap before giving up' },
  },

  async run(ctx: BenchContext) {
    const events = ctx.flag('events');
    if (events < 1) throw new Error('rebuild: --events must be at least 1');
    const streams = ctx.flag('rebuild-streams');
    const batchSize = ctx.flag('batch-size') || ctx.config.projections.batchSize;
    const batchOrigin = ctx.flag('batch-size') ? '--batch-size' : batchSize === loadConfig({}).projections.batchSize ? 'config default' : 'PROJECTION_BATCH_SIZE';
    const pollMs = ctx.config.projections.pollMs;
    const db = await ctx.freshDatabase('rebuild');
    const pool = createPool(db.url, 4, 'catalog-bench');
    const listener = new PgListener(db.url);
    const store = new TimedReadsStore(pool, listener);
    const handlers = new Tally();
    const registry = new EventRegistry([BenchTallied]);
    const engine = new ProjectionEngine({ pool, store, registry, databaseUrl: db.url, log: ctx.log, batchSize, pollMs }, [benchProjection(handlers)]);
    try {
      await pool.query(TABLES_SQL);
      ctx.progress(`rebuild: loading ${events} events over ${streams} streams`);
      await loadEvents(pool, events, streams);

      // The last event in log order (xid8, then seq). Not store.headPosition(): its ORDER BY tx_id binds
      // to the `tx_id::text` output column, which misorders ids of different lengths (9999 > 10000).
      const last = await pool.query<{ tx_id: string; seq: string }>(`SELECT tx_id::text AS tx_id, seq FROM es_events ORDER BY es_events.tx_id DESC, es_events.seq DESC LIMIT 1`);
      const head: LogPosition = { commit: BigInt(last.rows[0]!.tx_id), prepare: BigInt(last.rows[0]!.seq) };

      // The loaded rows must be what the adapter reads and the registry accepts.
      const first = await store.readAll({ after: START, limit: 3, streamPrefixes: [PREFIX] });
      if (first.length !== Math.min(3, events)) throw new Error('rebuild: the loaded events are not readable through PostgresEventStore.readAll');
      for (const e of first) registry.decode(e);

      // Baseline: the same rows, written server-side in one transaction into the (empty) live tables.
      ctx.progress('rebuild: INSERT … SELECT baseline');
      await pool.query('CHECKPOINT').catch(() => undefined);
      const bulk = await timed(async () => {
        const c = await pool.connect();
        try {
          await c.query('BEGIN');
          await c.query(
            `INSERT INTO ${COUNTS} (stream, total, events)
             SELECT stream_id, sum((data->>'n')::int), count(*) FROM es_events
              WHERE stream_id LIKE $1 AND type = $2 GROUP BY stream_id`,
            [PREFIX + '%', EVENT_TYPE],
          );
          await c.query(
            `INSERT INTO ${LOG} (event_id, stream, n)
             SELECT event_id, stream_id, (data->>'n')::int FROM es_events WHERE stream_id LIKE $1 AND type = $2`,
            [PREFIX + '%', EVENT_TYPE],
          );
          await c.query('COMMIT');
        } catch (e) {
          await c.query('ROLLBACK').catch(() => undefined);
          throw e;
        } finally {
          c.release();
        }
      });
      const expected = await fingerprint(pool);
      ctx.progress(`rebuild: INSERT … SELECT ${(events / bulk.seconds).toFixed(0)} events/s`);

      // Those live tables are now exactly the projection at the head of the log: record that as its
      // checkpoint, so the runner has no live catch-up to do and the rebuild is all it works on.
      await pool.query(`INSERT INTO projection_checkpoints (name, commit_pos, prepare_pos, events_applied) VALUES ($1, $2, $3, $4)`, [
        NAME,
        head.commit.toString(),
        head.prepare.toString(),
        events,
      ]);

      await engine.startRunners();
      const deadline = Date.now() + 30_000;
      while (!(await engine.status()).some((s) => s.name === NAME && s.ledHere)) {
        if (Date.now() > deadline) throw new Error('rebuild: the runner did not take the lead within 30 s');
        await sleep(20);
      }

      ctx.progress(`rebuild: rebuilding (batch size ${batchSize})`);
      await pool.query('CHECKPOINT').catch(() => undefined);
      const timeoutMs = ctx.flag('rebuild-timeout') * 1000;
      store.reads.reset();
      store.emptyReads.reset();
      handlers.reset();
      const rebuild = await timed(async () => {
        await engine.requestRebuild(NAME);
        const until = Date.now() + timeoutMs;
        for (;;) {
          const r = await pool.query<{ last_rebuild_at: Date | null; state: string; last_error: unknown; done: string | null }>(
            `SELECT c.last_rebuild_at, c.state, c.last_error, b.events_done AS done
               FROM projection_checkpoints c LEFT JOIN projection_rebuilds b USING (name) WHERE c.name = $1`,
            [NAME],
          );
          const row = r.rows[0]!;
          if (row.last_rebuild_at) return;
          if (row.last_error) throw new Error(`rebuild: the projection failed: ${JSON.stringify(row.last_error)}`);
          if (Date.now() > until) throw new Error(`rebuild: no swap after ${timeoutMs / 1000} s (${row.done ?? 0} of ${events} events done)`);
          await sleep(25);
        }
      });
      const reads = { calls: store.reads.calls, seconds: store.reads.seconds };
      const emptyReads = { calls: store.emptyReads.calls, seconds: store.emptyReads.seconds };
      const handled = { calls: handlers.calls, seconds: handlers.seconds };
      await engine.stopRunners();
      ctx.progress(`rebuild: runner ${(events / rebuild.seconds).toFixed(0)} events/s`);

      const after = await pool.query<{ commit_pos: string; prepare_pos: string; events_applied: string }>(
        `SELECT commit_pos, prepare_pos, events_applied FROM projection_checkpoints WHERE name = $1`,
        [NAME],
      );
      const cp = after.rows[0]!;
      if (`${cp.commit_pos}/${cp.prepare_pos}` !== positionToString(head) || Number(cp.events_applied) !== events) {
        throw new Error(`rebuild: swapped in at ${cp.commit_pos}/${cp.prepare_pos} with ${cp.events_applied} events, expected ${positionToString(head)} with ${events}`);
      }
      const got = await fingerprint(pool);
      if (got !== expected) throw new Error(`rebuild: the rebuilt tables differ from the INSERT … SELECT result:\n  ${got}\n  ${expected}`);

      const subject = measure(`requestRebuild → swap (runner, batch ${batchSize}, set-based: 2 stmts/batch)`, events, rebuild.seconds);
      const baseline = measure(`server-side INSERT … SELECT of the same rows (not COPY)`, events, bulk.seconds);
      return {
        rows: [subject, baseline, ratio('runner ÷ INSERT … SELECT', subject, baseline)],
        notes: [
          `${events} events over ${streams} streams, loaded server-side (generate_series), then VACUUM ANALYZE; ` +
            `projection '${NAME}': counter upsert + one log row per event (the tally projection's shape), tables ${COUNTS}, ${LOG} (+ index on stream), ` +
            `applied set-based: per batch one multi-row upsert of the counters and one multi-row insert of the log rows.`,
          `runner: ProjectionEngine.requestRebuild() until projection_checkpoints.last_rebuild_at is set (polled every 25 ms); ` +
            `batch size ${batchSize} (${batchOrigin}), poll ${pollMs} ms; live projection caught up beforehand, so all its work is the shadow replay + swap. ` +
            `Result checked equal to the baseline's rows.`,
          `where the runner's ${rebuild.seconds.toFixed(1)} s went: PostgresEventStore.readAll ${reads.seconds.toFixed(1)} s ` +
            `(${reads.calls} batches, ${per(reads, 1e3).toFixed(1)} ms each; plus ${emptyReads.calls} empty reads of the live position, ` +
            `${emptyReads.seconds.toFixed(1)} s), applyBatch ${handled.seconds.toFixed(1)} s (${handled.calls} batches, ` +
            `${per(handled, 1e3).toFixed(1)} ms each), the rest (checkpoint reads, transactions, decoding, swap) ` +
            `${(rebuild.seconds - reads.seconds - emptyReads.seconds - handled.seconds).toFixed(1)} s.`,
          `baseline: one transaction, INSERT INTO ${COUNTS} SELECT … GROUP BY stream_id and INSERT INTO ${LOG} SELECT … FROM es_events, ` +
            `run inside PostgreSQL: the same rows with no client, batching, decoding or per-event statements (a COPY FROM STDIN would add the client back).`,
        ],
      };
    } finally {
      await engine.stopRunners().catch(() => undefined);
      await listener.close();
      await pool.end();
    }
  },
};
