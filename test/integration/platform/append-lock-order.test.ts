/**
 * Appends to several streams on postgres take their streams' rows in stream-id order (migration
 * 034), so two appends over the same streams, whatever order their callers list them in, wait for one
 * another and never deadlock; and an append that PostgreSQL ends to break a deadlock with some other
 * transaction runs again (src/platform/event-store/postgres.ts). Interleavings are made certain by
 * holding rows of es_streams from a transaction of the test's own.
 */
import { randomUUID } from 'node:crypto';
import type { PoolClient } from 'pg';
import { PostgresEventStore, type AppendRetryReason } from '../../../src/platform/event-store/postgres';
import type { EventToAppend } from '../../../src/platform/event-store/port';
import { PgListener } from '../../../src/platform/pg-listener';
import { createTestDatabase, type TestDatabase } from '../../support/db';
import { eventually } from '../../support/eventually';

const ev = (type = 'Touched'): EventToAppend => ({
  id: randomUUID(),
  type,
  version: 1,
  data: {},
  metadata: { by: 'system:test', why: 'Test', correlationId: randomUUID(), at: new Date().toISOString() },
});

describe('appends to several streams on postgres', () => {
  let db: TestDatabase;
  let listener: PgListener;
  let store: PostgresEventStore;
  let retries: AppendRetryReason[];
  const held: PoolClient[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    listener = new PgListener(db.url);
    store = new PostgresEventStore(db.pool, listener, (reason) => retries.push(reason));
  });
  beforeEach(() => {
    retries = [];
  });
  afterEach(async () => {
    for (const c of held.splice(0)) {
      await c.query('ROLLBACK').catch(() => undefined);
      c.release();
    }
  });
  afterAll(async () => {
    await listener.close();
    await db.drop();
  });

  /** Streams that exist, at revision 0. */
  async function streams(...names: string[]): Promise<string[]> {
    const run = randomUUID().slice(0, 8);
    const ids = names.map((n) => `${n}-${run}`);
    await store.appendToStreams(ids.map((streamId) => ({ streamId, events: [ev()], expectedRevision: 'no_stream' })));
    return ids;
  }

  /** A transaction of the test's own holding the streams' rows until `release`. */
  async function hold(...streamIds: string[]): Promise<{ lock(streamId: string): Promise<void>; release(): Promise<void> }> {
    const c = await db.pool.connect();
    held.push(c);
    await c.query('BEGIN');
    // It waits long before it looks for a deadlock: the append, waiting first, is the one that finds it.
    await c.query(`SET LOCAL deadlock_timeout = '20s'`);
    const lock = async (streamId: string) => void (await c.query(`SELECT 1 FROM es_streams WHERE stream_id = $1 FOR UPDATE`, [streamId]));
    for (const s of streamIds) await lock(s);
    return { lock, release: async () => void (await c.query('COMMIT')) };
  }

  /** Backends of this database waiting for a lock. */
  const waiting = async () =>
    Number((await db.pool.query<{ n: string }>(`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)).rows[0]!.n);
  const untilWaiting = (n: number) => eventually(async () => (await waiting()) >= n || null, 20_000, 10);

  it('two appends listing the same streams in opposite orders, each held half-way, both land: neither deadlocks', async () => {
    const [a, b, z1, z2] = await streams('a', 'b', 'z1', 'z2');
    const first = await hold(z1!);
    const second = await hold(z2!);
    // Listed as a caller would: each reaches the row the other wants only after the one it waits for.
    const one = store.appendToStreams([a!, z1!, b!].map((streamId) => ({ streamId, events: [ev('One')], expectedRevision: 'any' as const })));
    await untilWaiting(1);
    const two = store.appendToStreams([b!, z2!, a!].map((streamId) => ({ streamId, events: [ev('Two')], expectedRevision: 'any' as const })));
    await untilWaiting(2);
    await first.release();
    await second.release();
    const results = await Promise.allSettled([one, two]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(retries).toEqual([]);
    for (const s of [a!, b!]) expect((await store.readStream(s)).map((e) => e.type).sort()).toEqual(['One', 'Touched', 'Two']);
  });

  it('an append PostgreSQL ends to break a deadlock with another transaction runs again, and lands once', async () => {
    const [a, b] = await streams('a', 'b');
    const other = await hold(b!);
    const appended = store.appendToStreams([a!, b!].map((streamId) => ({ streamId, events: [ev('Appended')], expectedRevision: 0n })));
    await untilWaiting(1);
    // The other transaction now waits for the row the append holds: a circle, which PostgreSQL breaks
    // by ending the append (it has waited longer, so it looks first).
    await other.lock(a!);
    await other.release();
    const results = await appended;
    expect(results.map((r) => r.nextRevision)).toEqual([1n, 1n]);
    expect(retries).toEqual(['deadlock']);
    for (const s of [a!, b!]) expect((await store.readStream(s)).map((e) => e.type)).toEqual(['Touched', 'Appended']);
  });
});
