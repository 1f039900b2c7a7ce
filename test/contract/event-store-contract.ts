/**
 * The event-store contract. Every adapter runs it: `postgres` always (postgres.contract.test.ts),
 * EventStoreDB whenever EVENTSTORE_URL is set (eventstoredb.contract.test.ts).
 */
import { randomUUID } from 'node:crypto';
import { type AppendResult, type EventStore, type EventToAppend, type RecordedEvent, START, comparePositions, staleStreamsOf } from '../../src/platform/event-store/port';
import { mulberry32 } from '../../src/sync/simulator/prng';
import { eventually } from '../support/eventually';

export interface ContractHarness {
  store: EventStore;
  /**
   * Appends, but holds the commit until `release` resolves: an appending transaction that stays
   * open while later appends commit. (Adapters whose appends commit atomically wait, then append.)
   */
  appendHeld(streamId: string, events: EventToAppend[], release: Promise<void>): Promise<AppendResult>;
  close(): Promise<void>;
}

/** The harness of a store whose append commits at once, at its server: "held open" means it arrives late. */
export function serverHarness(store: EventStore): ContractHarness {
  return {
    store,
    appendHeld: async (streamId, events, release) => {
      await release;
      return store.appendToStream(streamId, events);
    },
    close: () => store.close(),
  };
}

const meta = (why = 'ContractTest') => ({ by: 'system:test', why, correlationId: randomUUID(), at: new Date().toISOString() });

export function ev(type = 'ThingHappened', data: unknown = { n: 1 }): EventToAppend {
  return { id: randomUUID(), type, version: 1, data, metadata: meta() };
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function readEverything(store: EventStore, prefix: string): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  let after = START;
  for (;;) {
    const batch = await store.readAll({ after, limit: 500, streamPrefixes: [prefix] });
    if (batch.length === 0) return out;
    out.push(...batch);
    after = batch[batch.length - 1]!.position;
  }
}

export function describeEventStoreContract(name: string, makeHarness: () => Promise<ContractHarness>): void {
  describe(`event store contract: ${name}`, () => {
    let h: ContractHarness;
    let store: EventStore;
    // Unique per run, so the suite can run again and again against a long-lived server.
    let run: string;
    const stream = (s: string) => `ct${run}-${s}`;

    beforeAll(async () => {
      h = await makeHarness();
      store = h.store;
    });
    afterAll(async () => {
      await h.close();
    });
    beforeEach(() => {
      run = randomUUID().slice(0, 8);
    });

    describe('append with an expected revision', () => {
      it('no_stream creates a stream at revision 0..n-1 and then conflicts', async () => {
        const r = await store.appendToStream(stream('a'), [ev(), ev()], { expectedRevision: 'no_stream' });
        expect(r.nextRevision).toBe(1n);
        await expect(store.appendToStream(stream('a'), [ev()], { expectedRevision: 'no_stream' })).rejects.toMatchObject({
          code: 'EVENT_STORE.WRONG_REVISION',
          status: 409,
        });
        expect(await store.streamRevision(stream('a'))).toBe(1n);
      });

      it('an exact revision appends only when the stream is at that revision', async () => {
        await store.appendToStream(stream('b'), [ev()], { expectedRevision: 'no_stream' });
        const r = await store.appendToStream(stream('b'), [ev()], { expectedRevision: 0n });
        expect(r.nextRevision).toBe(1n);
        await expect(store.appendToStream(stream('b'), [ev()], { expectedRevision: 0n })).rejects.toMatchObject({
          code: 'EVENT_STORE.WRONG_REVISION',
        });
        await expect(store.appendToStream(stream('missing'), [ev()], { expectedRevision: 3n })).rejects.toMatchObject({
          code: 'EVENT_STORE.WRONG_REVISION',
        });
      });

      it('any appends whatever the revision', async () => {
        await store.appendToStream(stream('c'), [ev()], { expectedRevision: 'any' });
        const r = await store.appendToStream(stream('c'), [ev(), ev()]);
        expect(r.nextRevision).toBe(2n);
      });

      it('two concurrent writers on one stream: one wins, the other gets the conflict', async () => {
        await store.appendToStream(stream('race'), [ev()], { expectedRevision: 'no_stream' });
        for (let round = 0; round < 10; round++) {
          const rev = (await store.streamRevision(stream('race')))!;
          const results = await Promise.allSettled([
            store.appendToStream(stream('race'), [ev('A')], { expectedRevision: rev }),
            store.appendToStream(stream('race'), [ev('B')], { expectedRevision: rev }),
          ]);
          const ok = results.filter((r) => r.status === 'fulfilled');
          const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
          expect(ok).toHaveLength(1);
          expect(failed).toHaveLength(1);
          expect(failed[0]!.reason).toMatchObject({ code: 'EVENT_STORE.WRONG_REVISION', status: 409 });
        }
        const events = await store.readStream(stream('race'));
        expect(events.map((e) => e.revision)).toEqual(Array.from({ length: 11 }, (_, i) => BigInt(i)));
      });
    });

    describe('idempotent append', () => {
      it('re-sending an append with the same event ids is a no-op with the same result', async () => {
        const batch = [ev('X', { i: 1 }), ev('Y', { i: 2 })];
        const first = await store.appendToStream(stream('idem'), batch, { expectedRevision: 'no_stream' });
        const again = await store.appendToStream(stream('idem'), batch, { expectedRevision: 'no_stream' });
        const anyAgain = await store.appendToStream(stream('idem'), batch);
        expect(again.nextRevision).toBe(first.nextRevision);
        expect(anyAgain.nextRevision).toBe(first.nextRevision);
        expect(comparePositions(again.position, first.position)).toBe(0);
        expect(await store.readStream(stream('idem'))).toHaveLength(2);
      });

      it('the same append sent concurrently lands once', async () => {
        const batch = [ev(), ev(), ev()];
        const results = await Promise.all([1, 2, 3, 4].map(() => store.appendToStream(stream('idem2'), batch)));
        for (const r of results) expect(r.nextRevision).toBe(2n);
        expect(await store.readStream(stream('idem2'))).toHaveLength(3);
      });
    });

    describe('append to several streams', () => {
      it('appends each stream at its expected revision, in the order given, and reports each', async () => {
        await store.appendToStream(stream('m1'), [ev('Old')], { expectedRevision: 'no_stream' });
        const results = await store.appendToStreams([
          { streamId: stream('m1'), events: [ev('A', { i: 1 }), ev('A', { i: 2 })], expectedRevision: 0n },
          { streamId: stream('m2'), events: [ev('B', { i: 3 })], expectedRevision: 'no_stream' },
          { streamId: stream('m3'), events: [ev('C', { i: 4 })], expectedRevision: 'any' },
          { streamId: stream('m4'), events: [], expectedRevision: 'any' },
        ]);
        expect(results.map((r) => r.nextRevision)).toEqual([2n, 0n, 0n, -1n]);
        expect((await store.readStream(stream('m1'))).map((e) => [e.revision, e.type])).toEqual([
          [0n, 'Old'],
          [1n, 'A'],
          [2n, 'A'],
        ]);
        // Global order follows the order given. Readable soon, not necessarily at once: a transaction
        // anywhere on the server may hold readers back.
        const all = (await eventually(async () => {
          const read = await readEverything(store, `ct${run}-m`);
          return read.length === 5 ? read : null;
        }))!;
        expect(all.slice(1).map((e) => (e.data as { i: number }).i)).toEqual([1, 2, 3, 4]);
        for (const [i, name] of ['m1', 'm2', 'm3'].entries()) {
          const last = all.filter((e) => e.streamId === stream(name)).at(-1)!;
          expect(comparePositions(results[i]!.position, last.position)).toBe(0);
        }
      });

      it('a mismatch on one stream leaves every stream of the append unwritten; the conflict names it', async () => {
        await store.appendToStream(stream('n1'), [ev()], { expectedRevision: 'no_stream' });
        await store.appendToStream(stream('n3'), [ev(), ev()], { expectedRevision: 'no_stream' });
        await expect(
          store.appendToStreams([
            { streamId: stream('n0'), events: [ev()], expectedRevision: 'no_stream' },
            { streamId: stream('n1'), events: [ev()], expectedRevision: 5n },
            { streamId: stream('n2'), events: [ev()], expectedRevision: 'no_stream' },
            { streamId: stream('n3'), events: [ev()], expectedRevision: 1n },
            { streamId: stream('n4'), events: [ev()], expectedRevision: 'any' },
          ]),
        ).rejects.toMatchObject({ code: 'EVENT_STORE.WRONG_REVISION', status: 409, details: { streamId: stream('n1'), expected: '5', actual: '0' } });
        expect(await store.streamRevision(stream('n0'))).toBeNull();
        expect(await store.streamRevision(stream('n1'))).toBe(0n);
        expect(await store.streamRevision(stream('n2'))).toBeNull();
        expect(await store.streamRevision(stream('n3'))).toBe(1n);
        expect(await store.streamRevision(stream('n4'))).toBeNull();
      });

      it('names every stale stream at once, in the order given', async () => {
        for (const name of ['s1', 's3']) await store.appendToStream(stream(name), [ev()], { expectedRevision: 'no_stream' });
        const err = await store
          .appendToStreams([
            { streamId: stream('s0'), events: [ev()], expectedRevision: 'no_stream' },
            { streamId: stream('s1'), events: [ev()], expectedRevision: 'no_stream' },
            { streamId: stream('s2'), events: [ev()], expectedRevision: 4n },
            { streamId: stream('s3'), events: [ev()], expectedRevision: 0n },
            { streamId: stream('s4'), events: [ev()], expectedRevision: 'no_stream' },
          ])
          .catch((e: unknown) => e);
        expect(err).toMatchObject({ code: 'EVENT_STORE.WRONG_REVISION', details: { streamId: stream('s1') } });
        expect((err as { details: { stale: unknown } }).details.stale).toEqual([
          { streamId: stream('s1'), expected: 'no_stream', actual: '0' },
          { streamId: stream('s2'), expected: '4', actual: 'no_stream' },
        ]);
        expect(staleStreamsOf(err)).toEqual(new Set([stream('s1'), stream('s2')]));
        for (const name of ['s0', 's4']) expect(await store.streamRevision(stream(name))).toBeNull();
      });

      it('streams whose events are written already are reported as written; the rest of the append is written', async () => {
        const done = { streamId: stream('w1'), events: [ev('X'), ev('Y')], expectedRevision: 'no_stream' as const };
        const [first] = await store.appendToStreams([done]);
        const results = await store.appendToStreams([done, { streamId: stream('w2'), events: [ev('Z')], expectedRevision: 'no_stream' }]);
        expect(results.map((r) => r.nextRevision)).toEqual([1n, 0n]);
        expect(comparePositions(results[0]!.position, first!.position)).toBe(0);
        expect((await store.readStream(stream('w1'))).map((e) => e.type)).toEqual(['X', 'Y']);
        expect((await store.readStream(stream('w2'))).map((e) => e.type)).toEqual(['Z']);
      });

      it('re-sending the same appends is a no-op with the same results', async () => {
        const appends = [
          { streamId: stream('r1'), events: [ev('X'), ev('Y')], expectedRevision: 'no_stream' as const },
          { streamId: stream('r2'), events: [ev('Z')], expectedRevision: 'no_stream' as const },
        ];
        const first = await store.appendToStreams(appends);
        const again = await store.appendToStreams(appends);
        expect(again.map((r) => r.nextRevision)).toEqual(first.map((r) => r.nextRevision));
        for (const [i, r] of again.entries()) expect(comparePositions(r.position, first[i]!.position)).toBe(0);
        expect(await store.readStream(stream('r1'))).toHaveLength(2);
        expect(await store.readStream(stream('r2'))).toHaveLength(1);
      });
    });

    describe('reading a stream', () => {
      it('forwards, backwards, from a revision, with a count', async () => {
        const events = Array.from({ length: 6 }, (_, i) => ev('Step', { i }));
        await store.appendToStream(stream('read'), events);
        const fwd = await store.readStream(stream('read'));
        expect(fwd.map((e) => (e.data as { i: number }).i)).toEqual([0, 1, 2, 3, 4, 5]);
        expect(fwd[0]).toMatchObject({ id: events[0]!.id, type: 'Step', version: 1, streamId: stream('read'), revision: 0n });
        expect(fwd[0]!.metadata).toEqual(events[0]!.metadata);
        expect(fwd[0]!.recordedAt).toBeInstanceOf(Date);
        const from2 = await store.readStream(stream('read'), { fromRevision: 2n, maxCount: 2 });
        expect(from2.map((e) => e.revision)).toEqual([2n, 3n]);
        const back = await store.readStream(stream('read'), { direction: 'backwards', maxCount: 3 });
        expect(back.map((e) => e.revision)).toEqual([5n, 4n, 3n]);
        const backFrom = await store.readStream(stream('read'), { direction: 'backwards', fromRevision: 1n });
        expect(backFrom.map((e) => e.revision)).toEqual([1n, 0n]);
        expect(await store.readStream(stream('nothing-here'))).toEqual([]);
        expect(await store.streamRevision(stream('nothing-here'))).toBeNull();
      });

      it('up to a time: only events recorded at or before it', async () => {
        await store.appendToStream(stream('time'), [ev('Early')]);
        const [early] = await store.readStream(stream('time'));
        await sleep(30);
        await store.appendToStream(stream('time'), [ev('Late')]);
        const upToEarly = await store.readStream(stream('time'), { until: early!.recordedAt });
        expect(upToEarly.map((e) => e.type)).toEqual(['Early']);
        const all = await store.readStream(stream('time'), { until: new Date(Date.now() + 60_000) });
        expect(all.map((e) => e.type)).toEqual(['Early', 'Late']);
        const none = await store.readStream(stream('time'), { until: new Date(early!.recordedAt.getTime() - 1000) });
        expect(none).toEqual([]);
        const backwards = await store.readStream(stream('time'), { direction: 'backwards', until: early!.recordedAt });
        expect(backwards.map((e) => e.type)).toEqual(['Early']);
      });
    });

    describe('the global log', () => {
      it('reads after a checkpoint, filtered by stream prefix, in append order', async () => {
        const p = `ct${run}-`;
        await store.appendToStream(stream('g1'), [ev('One')]);
        await store.appendToStream(`other${run}-x`, [ev('Elsewhere')]);
        await store.appendToStream(stream('g2'), [ev('Two'), ev('Three')]);
        // Readable soon, not necessarily at once: a transaction anywhere on the server may hold readers back.
        const all = (await eventually(async () => {
          const read = await readEverything(store, p);
          return read.length === 3 ? read : null;
        }))!;
        expect(all.map((e) => e.type)).toEqual(['One', 'Two', 'Three']);
        const after = await store.readAll({ after: all[0]!.position, limit: 10, streamPrefixes: [p] });
        expect(after.map((e) => e.type)).toEqual(['Two', 'Three']);
        const head = await store.headPosition([p]);
        expect(comparePositions(head, all[2]!.position)).toBe(0);
        const lag = await store.lagAfter(all[0]!.position, [p]);
        expect(lag.events).toBe(2);
        expect(lag.oldestRecordedAt).toBeInstanceOf(Date);
        expect((await store.lagAfter(head, [p])).events).toBe(0);
      });

      it('watch wakes a reader when an event is appended', async () => {
        let woken = 0;
        const stop = await store.watch(() => woken++);
        try {
          await store.appendToStream(stream('w'), [ev()]);
          await eventually(() => woken > 0, 10_000, 20);
        } finally {
          await stop();
        }
      });

      it('20 concurrent writers, some holding their transaction open while later ones commit: a following reader never skips', async () => {
        for (let schedule = 0; schedule < 8; schedule++) {
          const seed = 1000 + schedule;
          const rnd = mulberry32(seed); // seeded, so a failing schedule can be replayed
          const p = `ct${run}-s${schedule}-`;
          const seen: RecordedEvent[] = [];
          const sizes = Array.from({ length: 20 }, () => 1 + Math.floor(rnd() * 3));
          const total = sizes.reduce((a, b) => a + b, 0);
          // The reader follows the log with small random batch sizes while the writers work. It stops
          // once it has seen every event: a transaction anywhere in the cluster (another test file)
          // may hold readers back for a moment, which delays them but must never make them skip.
          const reader = (async () => {
            let after = START;
            const deadline = Date.now() + 30_000;
            while (seen.length < total && Date.now() < deadline) {
              const batch = await store.readAll({ after, limit: 1 + Math.floor(rnd() * 4), streamPrefixes: [p] });
              seen.push(...batch);
              if (batch.length) after = batch[batch.length - 1]!.position;
              else await sleep(rnd() * 5);
            }
          })();
          const writers = sizes.map(async (size, w) => {
            await sleep(rnd() * 20);
            const events = Array.from({ length: size }, (_, i) => ev('W', { w, i }));
            if (rnd() < 0.4) {
              // Take a position now, commit after later writers have committed.
              return h.appendHeld(`${p}${w}`, events, sleep(10 + rnd() * 60));
            }
            return store.appendToStream(`${p}${w}`, events);
          });
          await Promise.all(writers);
          await reader;
          const final = await readEverything(store, p);
          const seenIds = seen.map((e) => e.id);
          expect({ seed, ids: seenIds }).toEqual({ seed, ids: final.map((e) => e.id) });
          expect(new Set(seenIds).size).toBe(seenIds.length);
          for (let i = 1; i < seen.length; i++) expect(comparePositions(seen[i - 1]!.position, seen[i]!.position)).toBeLessThan(0);
        }
      });
    });
  });
}
