import { randomUUID } from 'node:crypto';
import type { EventToAppend } from '../../src/platform/event-store/port';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { postgresStore } from '../support/event-store';
import { describeEventStoreContract, ev } from './event-store-contract';
import { eventually } from '../support/eventually';

/** An append inside a transaction that stays open until `release`: the case the xmin rule exists for. */
async function appendHeld(db: TestDatabase, streamId: string, events: EventToAppend[], release: Promise<void>) {
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    const res = await client.query(`SELECT next_revision, tx_id::text AS tx_id, seq FROM es_append($1, 'any', NULL, $2::uuid[], $3::text[], $4::int[], $5::jsonb[], $6::jsonb[])`, [
      streamId,
      events.map((e) => e.id),
      events.map((e) => e.type),
      events.map((e) => e.version),
      events.map((e) => JSON.stringify(e.data)),
      events.map((e) => JSON.stringify(e.metadata)),
    ]);
    await release;
    await client.query('COMMIT');
    const r = res.rows[0];
    return { nextRevision: BigInt(r.next_revision), position: { commit: BigInt(r.tx_id), prepare: BigInt(r.seq) } };
  } catch (e) {
    await client.query('ROLLBACK');
    throw e;
  } finally {
    client.release();
  }
}

let db: TestDatabase;
afterAll(async () => {
  await db?.drop();
});

describeEventStoreContract('postgres', async () => {
  db = await createTestDatabase();
  const { store, close } = postgresStore(db);
  return { store, appendHeld: (s, e, r) => appendHeld(db, s, e, r), close };
});

describe('postgres adapter: why the xmin rule is needed', () => {
  it('a naive reader ordered by sequence alone skips an event whose transaction commits late; the adapter does not', async () => {
    const { store, close } = postgresStore(db);
    try {
      const p = `naive${randomUUID().slice(0, 8)}-`;
      let release!: () => void;
      const held = appendHeld(db, `${p}slow`, [ev('Slow')], new Promise<void>((r) => (release = r)));
      // Wait until the slow transaction has taken its sequence number (its row is written, uncommitted).
      await eventually(
        async () => {
          const r = await db.pool.query(
            `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE state = 'idle in transaction' AND datname = current_database() AND query LIKE '%es_append%'`,
          );
          return r.rows[0].n > 0;
        },
        20_000,
        5,
      );
      await store.appendToStream(`${p}fast`, [ev('Fast')]);

      const naive = await db.pool.query(`SELECT seq, type FROM es_events WHERE stream_id LIKE $1 ORDER BY seq`, [`${p}%`]);
      const naiveCheckpoint = naive.rows.length ? naive.rows[naive.rows.length - 1].seq : '0';
      const adapterFirst = await store.readAll({ after: { commit: -1n, prepare: -1n }, limit: 10, streamPrefixes: [p] });

      release();
      await held;
      const naiveAfter = await db.pool.query(`SELECT type FROM es_events WHERE stream_id LIKE $1 AND seq > $2 ORDER BY seq`, [`${p}%`, naiveCheckpoint]);
      // The naive reader saw Fast, moved its checkpoint past Slow's sequence number, and never sees Slow.
      expect(naive.rows.map((r) => r.type)).toEqual(['Fast']);
      expect(naiveAfter.rows).toEqual([]);
      // The adapter held back while Slow's transaction was open, then delivers both in commit-safe order.
      expect(adapterFirst).toEqual([]);
      await eventually(async () => {
        const all = await store.readAll({ after: { commit: -1n, prepare: -1n }, limit: 10, streamPrefixes: [p] });
        expect(all.map((e) => e.type).sort()).toEqual(['Fast', 'Slow']);
        return true;
      });
    } finally {
      await close();
    }
  });
});

describe('postgres adapter: global order across transaction ids of different lengths', () => {
  it('orders by transaction id as a number (9999 before 10000), reading in small batches', async () => {
    const { store, close } = postgresStore(db);
    try {
      const p = `xidlen${randomUUID().slice(0, 8)}-`;
      // Rows as transactions 9999 and 10000 would have written them (both long finished, so readable).
      for (const [xid, n] of [
        ['10000', 3],
        ['9999', 3],
      ] as const) {
        for (let i = 0; i < n; i++) {
          const e = ev('Ordered', { xid, i });
          await db.pool.query(
            `INSERT INTO es_events (tx_id, event_id, stream_id, revision, type, version, data, metadata)
             VALUES ($1::bigint, $2, $3, $4, $5, 1, $6, $7)`,
            [xid, e.id, `${p}${xid}`, i, e.type, e.data, e.metadata],
          );
        }
      }
      const seen: string[] = [];
      let after = { commit: -1n, prepare: -1n };
      await eventually(async () => (await store.readAll({ after, limit: 10, streamPrefixes: [p] })).length === 6);
      for (;;) {
        const batch = await store.readAll({ after, limit: 2, streamPrefixes: [p] });
        if (batch.length === 0) break;
        seen.push(...batch.map((e) => `${e.position.commit}:${(e.data as { i: number }).i}`));
        after = batch[batch.length - 1]!.position;
      }
      expect(seen).toEqual(['9999:0', '9999:1', '9999:2', '10000:0', '10000:1', '10000:2']);
      expect((await store.headPosition([p])).commit).toBe(10000n);
    } finally {
      await close();
    }
  });
});
