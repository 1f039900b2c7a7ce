/**
 * A deliberately non-idempotent projection for runner tests: applying an event twice shows up as a
 * wrong total and a duplicated log row, so "exactly once" is observable.
 */
import { z } from 'zod';
import { EventRegistry, defineEvent, eventMetadata, type EventUnion } from '../../src/platform/events/registry';
import { START, type EventStore, type LogPosition } from '../../src/platform/event-store/port';
import { defineProjection } from '../../src/platform/projections/definition';
import type { Queryable } from '../../src/platform/db';

export const Tallied = defineEvent('Tallied', 1, z.object({ n: z.number().int() }));
export const Poisoned = defineEvent('Poisoned', 1, z.object({}));
export const tallyRegistry = () => new EventRegistry([Tallied, Poisoned]);
type TallyEvent = EventUnion<[typeof Tallied, typeof Poisoned]>;

export const TALLY_TABLES_SQL = `
  CREATE TABLE IF NOT EXISTS t_tally (stream text PRIMARY KEY, total bigint NOT NULL, events integer NOT NULL);
  CREATE TABLE IF NOT EXISTS t_tally_log (event_id uuid NOT NULL, stream text NOT NULL, n integer NOT NULL);
  CREATE INDEX IF NOT EXISTS t_tally_log_stream ON t_tally_log (stream);`;

export function tallyProjection(opts: { poison?: () => boolean; slowMs?: number } = {}) {
  return defineProjection<TallyEvent>({
    name: 'tally',
    streamPrefixes: ['tally-'],
    tables: ['t_tally', 't_tally_log'],
    domains: ['goods'],
    on: {
      async Tallied(db, e) {
        const n = e.data.n;
        if (opts.slowMs) await db.query(`SELECT pg_sleep($1)`, [opts.slowMs / 1000]);
        await db.query(
          `INSERT INTO t_tally (stream, total, events) VALUES ($1, $2, 1)
         ON CONFLICT (stream) DO UPDATE SET total = t_tally.total + EXCLUDED.total, events = t_tally.events + 1`,
          [e.streamId, n],
        );
        await db.query(`INSERT INTO t_tally_log (event_id, stream, n) VALUES ($1, $2, $3)`, [e.id, e.streamId, n]);
      },
      async Poisoned() {
        if (opts.poison?.() ?? true) throw new Error('cannot tally a poisoned event');
      },
    },
  });
}

/** Appends `count` tallies; returns their sum and the position of the last append (what to wait for). */
export async function appendTallies(store: EventStore, count: number, streams = 10, startAt = 0): Promise<{ sum: number; last: LogPosition }> {
  const registry = tallyRegistry();
  let sum = 0;
  let last: LogPosition = START;
  for (let i = startAt; i < startAt + count; i++) {
    const n = (i % 7) + 1;
    sum += n;
    last = (await store.appendToStream(`tally-${i % streams}`, [registry.encode('Tallied', { n }, eventMetadata('system:test', 'Tally'))])).position;
  }
  return { sum, last };
}

export async function tallySnapshot(db: Queryable) {
  const tally = await db.query(`SELECT stream, total, events FROM t_tally ORDER BY stream`);
  const log = await db.query(`SELECT event_id, stream, n FROM t_tally_log ORDER BY event_id`);
  return { tally: tally.rows, log: log.rows };
}
