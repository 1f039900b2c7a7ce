/**
 * The EventStoreDB/KurrentDB adapter against a hand-written fake of the few client methods it uses
 * (test/support/fake-kurrentdb.ts): it answers reads and appends the way the server does, with the
 * library's own error classes, and counts what each call costs, so the adapter is held to a bounded
 * cost on a large log. The contract suite (test/contract) covers a real server when EVENTSTORE_URL
 * is set.
 */
import {
  ANY,
  AccessDeniedError,
  BACKWARDS,
  DeadlineExceededError,
  END,
  FORWARDS,
  NO_STREAM,
  START as ESDB_START,
  TransactionMaxSizeExceededError,
  UnavailableError,
  UnsupportedError,
  excludeSystemEvents,
  streamNameFilter,
  type AppendResult as EsdbAppendResult,
  type AppendToStreamOptions,
  type EventData,
  type Position,
} from '@kurrent/kurrentdb-client';
import { AppError } from '../../../../src/platform/errors';
import { EventStoreDbAdapter, MULTI_STREAM_APPEND_SINCE, requireMultiStreamAppend } from '../../../../src/platform/event-store/eventstoredb';
import { START, staleStreamsOf, type EventToAppend, type LogPosition } from '../../../../src/platform/event-store/port';
import { FakeKurrentDbClient, FakeSubscription, type Recorded } from '../../../support/fake-kurrentdb';

const plain = (p: Position): LogPosition => ({ commit: p.commit, prepare: p.prepare });

function ev(type = 'ThingHappened', data: unknown = { n: 1 }, extra: Partial<EventToAppend['metadata']> = {}): EventToAppend {
  return {
    id: crypto.randomUUID(),
    type,
    version: 1,
    data,
    metadata: { by: 'user-1', why: 'DoThing', correlationId: 'corr-1', at: '2024-05-01T09:59:59.000Z', ...extra },
  };
}

async function eventually(check: () => boolean, ms = 2000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}
const settle = () => new Promise((r) => setImmediate(r));

let fake: FakeKurrentDbClient;
let store: EventStoreDbAdapter;
beforeEach(() => {
  fake = new FakeKurrentDbClient();
  store = new EventStoreDbAdapter(fake);
});

describe('EventStoreDbAdapter: appending', () => {
  it('maps the expected revision to the client constants', async () => {
    const seen: unknown[] = [];
    const client = Object.assign(new FakeKurrentDbClient(), {
      appendToStream: async (_s: string, _e: EventData[], o?: AppendToStreamOptions): Promise<EsdbAppendResult> => {
        seen.push(o?.streamState);
        return { success: true, nextExpectedRevision: 0n, position: { commit: 1n, prepare: 1n } };
      },
    });
    const s = new EventStoreDbAdapter(client);
    await s.appendToStream('good-1', [ev()]);
    await s.appendToStream('good-1', [ev()], { expectedRevision: 'any' });
    await s.appendToStream('good-1', [ev()], { expectedRevision: 'no_stream' });
    await s.appendToStream('good-1', [ev()], { expectedRevision: 7n });
    expect(seen).toEqual([ANY, ANY, NO_STREAM, 7n]);
  });

  it('writes JSON data under the given id, with the version and the metadata in the event metadata', async () => {
    const a = { ...ev('LinkMirrored', { sku: 'A-1', sizes: ['S', 'M'] }), version: 3 };
    const b = ev('LinkParsed', { ok: true }, { causationId: 'cause-9' });
    await store.appendToStream('link-1', [a, b], { expectedRevision: 'no_stream' });
    const [call] = fake.appendCalls;
    expect(call!.streamName).toBe('link-1');
    expect(call!.events[0]).toStrictEqual({
      id: a.id,
      contentType: 'application/json',
      type: 'LinkMirrored',
      data: { sku: 'A-1', sizes: ['S', 'M'] },
      metadata: { v: 3, by: 'user-1', why: 'DoThing', correlationId: 'corr-1', at: '2024-05-01T09:59:59.000Z' },
    });
    expect(call!.events[1]!.metadata).toStrictEqual({
      v: 1,
      by: 'user-1',
      why: 'DoThing',
      correlationId: 'corr-1',
      causationId: 'cause-9',
      at: '2024-05-01T09:59:59.000Z',
    });
  });

  it('returns the revision and the (commit, prepare) position of the last event appended', async () => {
    const r = await store.appendToStream('good-1', [ev(), ev(), ev()]);
    const last = fake.log[2]!;
    expect(r).toEqual({ nextRevision: 2n, position: plain(last.position) });
    expect(r.position.commit).not.toBe(r.position.prepare);
  });

  it('a wrong expected revision is a 409 WRONG_REVISION with the stream, the expectation and the actual revision', async () => {
    await store.appendToStream('good-1', [ev(), ev()]);
    const err = await store.appendToStream('good-1', [ev()], { expectedRevision: 'no_stream' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({
      code: 'EVENT_STORE.WRONG_REVISION',
      status: 409,
      details: { streamId: 'good-1', expected: 'no_stream', actual: '1' },
    });
    await expect(store.appendToStream('good-2', [ev()], { expectedRevision: 3n })).rejects.toMatchObject({
      status: 409,
      details: { streamId: 'good-2', expected: '3', actual: 'no_stream' },
    });
  });

  it('a client that reports a failed append instead of throwing still gives WRONG_REVISION', async () => {
    const client = Object.assign(new FakeKurrentDbClient(), {
      appendToStream: async (): Promise<EsdbAppendResult> => ({ success: false, nextExpectedRevision: 1n }),
    });
    await expect(new EventStoreDbAdapter(client).appendToStream('good-1', [ev()], { expectedRevision: 0n })).rejects.toMatchObject({
      code: 'EVENT_STORE.WRONG_REVISION',
      status: 409,
    });
  });

  it.each([
    ['UnavailableError', new UnavailableError(undefined, 'connect ECONNREFUSED')],
    ['DeadlineExceededError', new DeadlineExceededError(undefined, 'deadline exceeded')],
    ['a failed cluster discovery', new Error('Failed to discover after 10 attempts.')],
    // What the real client throws from an append when nothing listens: its server-features call is not converted.
    ['a raw gRPC UNAVAILABLE', Object.assign(new Error('14 UNAVAILABLE: No connection established'), { code: 14, details: 'No connection established' })],
  ])('%s is a 503 UNAVAILABLE', async (_name, failure) => {
    fake.appendFailure = failure;
    const err = await store.appendToStream('good-1', [ev()]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'EVENT_STORE.UNAVAILABLE', status: 503 });
  });

  it('other client errors pass through unchanged', async () => {
    const denied = new AccessDeniedError(undefined, 'access denied');
    fake.appendFailure = denied;
    await expect(store.appendToStream('good-1', [ev()])).rejects.toBe(denied);
  });

  it('an idempotent re-append, which the server answers without a position, reports the position of the events already there', async () => {
    const batch = [ev('X'), ev('Y')];
    const first = await store.appendToStream('good-1', batch, { expectedRevision: 'no_stream' });
    await store.appendToStream('good-1', [ev('Z')]);
    const again = await store.appendToStream('good-1', batch, { expectedRevision: 'no_stream' });
    expect(again).toEqual(first);
    expect(fake.log).toHaveLength(3);
  });

  it('an empty append writes nothing and reports the stream revision', async () => {
    expect(await store.appendToStream('good-1', [])).toEqual({ nextRevision: -1n, position: START });
    await store.appendToStream('good-1', [ev(), ev()]);
    expect(await store.appendToStream('good-1', [], { expectedRevision: 'no_stream' })).toEqual({ nextRevision: 1n, position: START });
    expect(fake.appendCalls).toHaveLength(1);
  });
});

describe('EventStoreDbAdapter: appending to several streams', () => {
  const versioned = (type: string, version: number) => ({ ...ev(type, { type }), version });

  it('is one multi-stream append, each stream at its expected state, its metadata as text; it reports where each stream ends', async () => {
    fake.record('good-1', 'Old');
    const results = await store.appendToStreams([
      { streamId: 'good-1', events: [versioned('A', 3), ev('B', { i: 2 }, { causationId: 'cause-1' })], expectedRevision: 0n },
      { streamId: 'link-1', events: [ev('C')], expectedRevision: 'no_stream' },
      { streamId: 'family-1', events: [ev('D')], expectedRevision: 'any' },
      { streamId: 'family-2', events: [], expectedRevision: 'any' },
    ]);
    expect(fake.appendCalls).toEqual([]);
    expect(fake.multiAppendCalls).toHaveLength(1);
    const [requests] = fake.multiAppendCalls;
    expect(requests!.map((r) => [r.streamName, r.expectedState, r.events.length])).toEqual([
      ['good-1', 0n, 2],
      ['link-1', NO_STREAM, 1],
      ['family-1', ANY, 1],
    ]);
    expect(requests![0]!.events[1]!.metadata).toStrictEqual({
      v: '1',
      by: 'user-1',
      why: 'DoThing',
      correlationId: 'corr-1',
      causationId: 'cause-1',
      at: '2024-05-01T09:59:59.000Z',
    });
    const last = (streamId: string) => fake.log.filter((e) => e.streamId === streamId).at(-1)!;
    expect(results).toEqual([
      { nextRevision: 2n, position: plain(last('good-1').position) },
      { nextRevision: 0n, position: plain(last('link-1').position) },
      { nextRevision: 0n, position: plain(last('family-1').position) },
      { nextRevision: -1n, position: START },
    ]);
    // The positions come from one read of the append's events, from where the server says it starts.
    const reads = fake.readAllCalls.filter((c) => c.direction === FORWARDS);
    expect(reads).toHaveLength(1);
    expect(reads[0]).toMatchObject({ fromPosition: { commit: last('good-1').position.commit }, maxCount: 4 });
    // The schema version written as text reads back as the number it was.
    expect((await store.readStream('good-1')).map((e) => [e.type, e.version])).toEqual([
      ['Old', 1],
      ['A', 3],
      ['B', 1],
    ]);
  });

  it('a stale stream leaves every stream unwritten; the conflict names every stale stream, in the order given', async () => {
    fake.record('link-1', 'Old');
    fake.record('link-3', 'Old');
    fake.record('link-3', 'Old');
    const before = fake.log.length;
    const err = await store
      .appendToStreams([
        { streamId: 'family-1', events: [ev()], expectedRevision: 'no_stream' },
        { streamId: 'link-1', events: [ev()], expectedRevision: 'no_stream' },
        { streamId: 'link-2', events: [ev()], expectedRevision: 4n },
        { streamId: 'link-3', events: [ev()], expectedRevision: 1n },
        { streamId: 'good-1', events: [ev()], expectedRevision: 'any' },
      ])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'EVENT_STORE.WRONG_REVISION', status: 409, details: { streamId: 'link-1', expected: 'no_stream', actual: '0' } });
    expect((err as AppError).details).toMatchObject({
      stale: [
        { streamId: 'link-1', expected: 'no_stream', actual: '0' },
        { streamId: 'link-2', expected: '4', actual: 'no_stream' },
      ],
    });
    expect(staleStreamsOf(err)).toEqual(new Set(['link-1', 'link-2']));
    expect(fake.log).toHaveLength(before);
    expect(fake.multiAppendCalls).toHaveLength(1);
  });

  it('streams whose events are written already are reported as written, and the rest is appended', async () => {
    const done = { streamId: 'link-1', events: [ev('X'), ev('Y')], expectedRevision: 'no_stream' as const };
    const [first] = await store.appendToStreams([done]);
    const results = await store.appendToStreams([done, { streamId: 'link-2', events: [ev('Z')], expectedRevision: 'no_stream' }]);
    expect(results[0]).toEqual(first);
    expect(results[1]!.nextRevision).toBe(0n);
    expect(fake.log.map((e) => e.type)).toEqual(['X', 'Y', 'Z']);
    // The first try, then the rest alone.
    expect(fake.multiAppendCalls.map((c) => c.map((r) => r.streamName))).toEqual([['link-1'], ['link-1', 'link-2'], ['link-2']]);
  });

  it('an append written already, whole, is a no-op that reports where its events are', async () => {
    const appends = [
      { streamId: 'link-1', events: [ev('X'), ev('Y')], expectedRevision: 'no_stream' as const },
      { streamId: 'good-1', events: [ev('Z')], expectedRevision: 'any' as const },
    ];
    const first = await store.appendToStreams(appends);
    fake.record('link-1', 'Later');
    const again = await store.appendToStreams(appends);
    expect(again).toEqual(first);
    expect(fake.log.map((e) => e.type)).toEqual(['X', 'Y', 'Z', 'Later']);
  });

  it.each([
    ['UnavailableError', new UnavailableError(undefined, 'connect ECONNREFUSED'), { code: 'EVENT_STORE.UNAVAILABLE', status: 503 }],
    [
      'a server without multi-stream appends',
      new UnsupportedError('multiStreamAppend', MULTI_STREAM_APPEND_SINCE),
      { code: 'EVENT_STORE.UNAVAILABLE', status: 503, message: expect.stringContaining(`KurrentDB ${MULTI_STREAM_APPEND_SINCE} or later`) },
    ],
  ])('%s is a 503', async (_name, failure, expected) => {
    fake.multiAppendFailure = failure;
    await expect(store.appendToStreams([{ streamId: 'link-1', events: [ev()], expectedRevision: 'any' }])).rejects.toMatchObject(expected);
  });

  it('an append larger than the server takes says so', async () => {
    const tooLarge = Object.assign(Object.create(TransactionMaxSizeExceededError.prototype) as TransactionMaxSizeExceededError, { size: 2_000_000, maxSize: 1_048_576 });
    fake.multiAppendFailure = tooLarge;
    await expect(store.appendToStreams([{ streamId: 'link-1', events: [ev()], expectedRevision: 'any' }])).rejects.toThrow(/2000000 bytes.*1048576/);
  });

  it('a server that cannot append to several streams atomically is refused at start, naming the version needed', () => {
    const server = (version: string, methods: string[]) => ({ serverVersion: version, supports: (m: { path: string }) => methods.includes(m.path) });
    expect(() => requireMultiStreamAppend(server('24.10.0', ['/event_store.client.streams.Streams/Append']))).toThrow(
      /KurrentDB\/EventStoreDB 24\.10\.0, which cannot append to several streams in one atomic write: this service needs KurrentDB 25\.1 or later/,
    );
    expect(() => requireMultiStreamAppend(server('unknown', []))).toThrow(/before 21\.10.*25\.1 or later/);
    expect(() => requireMultiStreamAppend(server('26.2.3', ['/kurrentdb.protocol.v2.streams.StreamsService/AppendSession']))).not.toThrow();
  });
});

describe('EventStoreDbAdapter: reading a stream', () => {
  it('round-trips data, version and metadata, with revision, position and recordedAt from the server', async () => {
    const a = { ...ev('FamilyCreated', { name: 'Tees' }), version: 2 };
    const b = ev('FamilyMemberAdded', { link: 'link-9' }, { causationId: 'cmd-1' });
    await store.appendToStream('family-1', [a, b]);
    const [ra, rb] = await store.readStream('family-1');
    expect(ra).toEqual({
      id: a.id,
      streamId: 'family-1',
      revision: 0n,
      position: plain(fake.log[0]!.position),
      type: 'FamilyCreated',
      version: 2,
      data: { name: 'Tees' },
      metadata: a.metadata,
      recordedAt: fake.now,
    });
    expect(ra!.metadata).not.toHaveProperty('causationId');
    expect(ra!.recordedAt).toBeInstanceOf(Date);
    expect(rb!.metadata).toStrictEqual(b.metadata);
    expect(rb!.version).toBe(1);
  });

  it('an event written without our metadata reads as version 1 with empty metadata', async () => {
    fake.record('good-1', 'Imported', { x: 1 });
    const [e] = await store.readStream('good-1');
    expect(e).toMatchObject({ version: 1, metadata: { by: '', why: '', correlationId: '', at: '' }, data: { x: 1 } });
  });

  it('reads forwards from START by default, backwards from END, from a revision, with a count', async () => {
    await store.appendToStream(
      'good-1',
      [0, 1, 2, 3, 4, 5].map((i) => ev('Step', { i })),
    );
    expect((await store.readStream('good-1')).map((e) => e.revision)).toEqual([0n, 1n, 2n, 3n, 4n, 5n]);
    expect(fake.readStreamCalls.at(-1)!.options).toEqual({ direction: FORWARDS, fromRevision: ESDB_START });
    expect((await store.readStream('good-1', { direction: 'backwards', maxCount: 3 })).map((e) => e.revision)).toEqual([5n, 4n, 3n]);
    expect(fake.readStreamCalls.at(-1)!.options).toEqual({ direction: BACKWARDS, fromRevision: END, maxCount: 3 });
    expect((await store.readStream('good-1', { fromRevision: 2n, maxCount: 2 })).map((e) => e.revision)).toEqual([2n, 3n]);
    expect((await store.readStream('good-1', { direction: 'backwards', fromRevision: 1n })).map((e) => e.revision)).toEqual([1n, 0n]);
  });

  it('a missing stream reads as empty and has no revision', async () => {
    expect(await store.readStream('good-404')).toEqual([]);
    expect(await store.streamRevision('good-404')).toBeNull();
  });

  it('streamRevision reads one event backwards from the end', async () => {
    await store.appendToStream('good-1', [ev(), ev(), ev()]);
    expect(await store.streamRevision('good-1')).toBe(2n);
    expect(fake.readStreamCalls.at(-1)!.options).toEqual({ direction: BACKWARDS, fromRevision: END, maxCount: 1 });
  });

  it('until, forwards: events recorded at or before it, stopping at the first one after it', async () => {
    const t = (s: number) => new Date(Date.UTC(2024, 4, 1, 10, 0, s));
    for (const [i, s] of [0, 10, 20, 30].entries()) {
      fake.now = t(s);
      fake.record('good-1', `E${i}`);
    }
    expect((await store.readStream('good-1', { until: t(10) })).map((e) => e.type)).toEqual(['E0', 'E1']);
    // It left the read at E2 rather than reading on.
    expect(fake.cancels).toBe(1);
    expect((await store.readStream('good-1', { until: t(9) })).map((e) => e.type)).toEqual(['E0']);
    expect(await store.readStream('good-1', { until: t(-1) })).toEqual([]);
    expect((await store.readStream('good-1', { until: t(60) })).map((e) => e.type)).toEqual(['E0', 'E1', 'E2', 'E3']);
  });

  it('until, backwards: skips the later events and counts only the ones kept', async () => {
    const t = (s: number) => new Date(Date.UTC(2024, 4, 1, 10, 0, s));
    for (const [i, s] of [0, 10, 20, 30].entries()) {
      fake.now = t(s);
      fake.record('good-1', `E${i}`);
    }
    expect((await store.readStream('good-1', { direction: 'backwards', until: t(10) })).map((e) => e.type)).toEqual(['E1', 'E0']);
    const latestBefore = await store.readStream('good-1', { direction: 'backwards', until: t(20), maxCount: 1 });
    expect(latestBefore.map((e) => e.type)).toEqual(['E2']);
    expect(fake.readStreamCalls.at(-1)!.options).not.toHaveProperty('maxCount');
  });

  it('a connection failure while reading is a 503', async () => {
    fake.readFailure = new UnavailableError(undefined, 'gone');
    await expect(store.readStream('good-1')).rejects.toMatchObject({ code: 'EVENT_STORE.UNAVAILABLE', status: 503 });
    await expect(store.streamRevision('good-1')).rejects.toMatchObject({ status: 503 });
  });
});

describe('EventStoreDbAdapter: the global log', () => {
  /** A log the way a server has it: the port's events with system events in between. */
  function seed(): Recorded[] {
    const mine: Recorded[] = [];
    fake.record('$stats-127.0.0.1:2113', '$statsCollected');
    mine.push(fake.record('link-1', 'LinkMirrored', { i: 0 }, { v: 1, by: 'system:sync', why: 'Sync', correlationId: 'c', at: 'x' }));
    fake.record('$$link-1', '$metadata');
    mine.push(fake.record('family-1', 'FamilyCreated', { i: 1 }));
    fake.record('$ce-link', '$>');
    fake.record('good-1', '$weird');
    mine.push(fake.record('link-2', 'LinkMirrored', { i: 2 }));
    mine.push(fake.record('good-1', 'GoodCreated', { i: 3 }));
    fake.record('$stats-127.0.0.1:2113', '$statsCollected');
    return mine;
  }

  it('reads from the library START when given the port START, filtered on the server, without system events', async () => {
    const mine = seed();
    const read = await store.readAll({ after: START, limit: 100 });
    expect(read.map((e) => e.id)).toEqual(mine.map((e) => e.id));
    expect(fake.readAllCalls).toEqual([{ fromPosition: ESDB_START, direction: FORWARDS, maxCount: 100, filter: excludeSystemEvents() }]);
    expect(read[0]).toMatchObject({ streamId: 'link-1', revision: 0n, position: plain(mine[0]!.position), metadata: { by: 'system:sync' } });
  });

  it('START compares by value: an equal position read back from a checkpoint means the beginning too', async () => {
    seed();
    await store.readAll({ after: { commit: -1n, prepare: -1n }, limit: 1 });
    expect(fake.readAllCalls[0]!.fromPosition).toBe(ESDB_START);
  });

  it('is exclusive of `after` (which the server, reading from it, includes: one more is asked for)', async () => {
    const mine = seed();
    const read = await store.readAll({ after: plain(mine[1]!.position), limit: 100 });
    expect(read.map((e) => e.id)).toEqual([mine[2]!.id, mine[3]!.id]);
    expect(fake.readAllCalls[0]).toMatchObject({ fromPosition: plain(mine[1]!.position), maxCount: 101 });
    expect(await store.readAll({ after: plain(mine[3]!.position), limit: 100 })).toEqual([]);
    const one = await store.readAll({ after: plain(mine[0]!.position), limit: 1 });
    expect(one.map((e) => e.id)).toEqual([mine[1]!.id]);
  });

  it('keeps only streams with one of the prefixes (a server-side stream-name filter), and stops at the limit', async () => {
    const mine = seed();
    const links = await store.readAll({ after: START, limit: 100, streamPrefixes: ['link-'] });
    expect(links.map((e) => e.id)).toEqual([mine[0]!.id, mine[2]!.id]);
    expect(fake.readAllCalls[0]!.filter).toEqual(streamNameFilter({ prefixes: ['link-'] }));
    const two = await store.readAll({ after: START, limit: 2, streamPrefixes: ['link-', 'good-'] });
    expect(two.map((e) => e.id)).toEqual([mine[0]!.id, mine[2]!.id]);
  });

  it('transfers only the matching events: a few streams far into a long log, in one read', async () => {
    for (let i = 0; i < 2500; i++) fake.record(`good-${i}`, 'GoodCreated', { i });
    const far = fake.record('family-1', 'FamilyCreated');
    const families = await store.readAll({ after: START, limit: 10, streamPrefixes: ['family-'] });
    expect(families.map((e) => e.id)).toEqual([far.id]);
    expect(fake.readAllCalls).toHaveLength(1);
    expect(fake.sentByReads).toBe(1);

    fake.sentByReads = 0;
    const many = await store.readAll({ after: START, limit: 1500 });
    expect(many).toHaveLength(1500);
    expect(many.map((e) => (e.data as { i: number }).i)).toEqual(Array.from({ length: 1500 }, (_, i) => i));
    expect(fake.sentByReads).toBe(1500);
  });

  it('ends at upTo, leaving the rest of the read', async () => {
    const mine = seed();
    const upTo = await store.readAll({ after: START, limit: 100, upTo: plain(mine[1]!.position) });
    expect(upTo.map((e) => e.id)).toEqual([mine[0]!.id, mine[1]!.id]);
    expect(fake.cancels).toBe(1);
  });

  it("reads on past events the server's filter let through but the port does not keep", async () => {
    // A `$` type in a matching stream passes a stream-name filter; the port leaves it out.
    const a = fake.record('link-1', 'LinkMirrored');
    for (let i = 0; i < 3; i++) fake.record('link-1', '$metadata');
    const b = fake.record('link-2', 'LinkMirrored');
    const read = await store.readAll({ after: START, limit: 2, streamPrefixes: ['link-'] });
    expect(read.map((e) => e.id)).toEqual([a.id, b.id]);
    expect(fake.readAllCalls.length).toBeGreaterThan(1);
  });

  it('an empty log is one read that finds nothing', async () => {
    expect(await store.readAll({ after: START, limit: 10 })).toEqual([]);
    expect(fake.readAllCalls).toHaveLength(1);
  });

  it('a connection failure is a 503', async () => {
    fake.readFailure = new UnavailableError(undefined, 'gone');
    await expect(store.readAll({ after: START, limit: 10 })).rejects.toMatchObject({ code: 'EVENT_STORE.UNAVAILABLE', status: 503 });
    await expect(store.headPosition()).rejects.toMatchObject({ status: 503 });
    await expect(store.headPosition(['link-'])).rejects.toMatchObject({ status: 503 });
    await expect(store.lagAfter(START)).rejects.toMatchObject({ status: 503 });
  });

  it('headPosition: the last of the port events (with the prefixes), START when there is none', async () => {
    expect(await store.headPosition()).toEqual(START);
    const mine = seed();
    expect(await store.headPosition()).toEqual(plain(mine[3]!.position));
    expect(await store.headPosition(['link-'])).toEqual(plain(mine[2]!.position));
    expect(fake.readAllCalls.at(-1)).toEqual({ fromPosition: END, direction: BACKWARDS, maxCount: 1, filter: streamNameFilter({ prefixes: ['link-'] }) });
    expect(await store.headPosition(['tag-'])).toEqual(START);
  });

  it('headPosition with prefixes costs one read of one event, however long the log behind it', async () => {
    // The log after an organisation: a category's last event, then 100 000 events of other streams.
    const category = fake.record('category-7', 'CategoryRenamed');
    for (let i = 0; i < 100_000; i++) fake.record(`link-${i % 5000}`, 'LinkJoinedFamily');
    fake.sentByReads = 0;
    expect(await store.headPosition(['category-', 'country-'])).toEqual(plain(category.position));
    expect({ reads: fake.readAllCalls.length, sent: fake.sentByReads }).toEqual({ reads: 1, sent: 1 });
    fake.readAllCalls = [];
    fake.sentByReads = 0;
    expect(await store.headPosition(['tag-'])).toEqual(START);
    expect({ reads: fake.readAllCalls.length, sent: fake.sentByReads }).toEqual({ reads: 1, sent: 0 });
    fake.readAllCalls = [];
    expect(await store.headPosition()).toEqual(plain(fake.log.at(-1)!.position));
    expect(fake.readAllCalls).toHaveLength(1);
  });

  it('lagAfter counts the events after a position, with the oldest time, and caps the count at a bounded read', async () => {
    const mine = seed();
    fake.now = new Date('2024-05-01T11:00:00.000Z');
    for (let i = 0; i < 6; i++) fake.record(`link-x${i}`, 'LinkMirrored');
    expect(await store.lagAfter(plain(mine[1]!.position))).toEqual({
      events: 8,
      capped: false,
      oldestRecordedAt: mine[2]!.created,
    });
    fake.sentByReads = 0;
    expect(await store.lagAfter(START, ['link-'], 5)).toEqual({ events: 5, capped: true, oldestRecordedAt: mine[0]!.created });
    expect(fake.sentByReads).toBe(5);
    expect(await store.lagAfter(plain(fake.log.at(-1)!.position))).toEqual({ events: 0, capped: false, oldestRecordedAt: null });
    expect(await store.lagAfter(START, ['link-'], Number.POSITIVE_INFINITY)).toMatchObject({ events: 8, capped: false });
  });
});

describe('EventStoreDbAdapter: watch, ping, close', () => {
  /** Waits for the adapter's subscription number `n` and confirms it, as the server does once it is live. */
  async function confirmed(n: number): Promise<FakeSubscription> {
    await eventually(() => fake.subscriptions.length > n);
    const s = fake.subscriptions[n]!;
    s.emit('confirmation');
    return s;
  }

  it('subscribes to $all from the end without system events, and returns once the subscription is live', async () => {
    let woken = 0;
    const watching = store.watch(() => woken++);
    await confirmed(0);
    const stop = await watching;
    expect(fake.subscriptions[0]!.options).toEqual({ fromPosition: END, filter: excludeSystemEvents() });
    await stop();
  });

  it('given stream prefixes, filters on the server by stream name', async () => {
    const watching = store.watch(() => undefined, ['link-', 'family-']);
    await confirmed(0);
    const stop = await watching;
    expect(fake.subscriptions[0]!.options).toEqual({ fromPosition: END, filter: streamNameFilter({ prefixes: ['link-', 'family-'] }) });
    await stop();
  });

  it('wakes once when it goes live, then once per burst of events', async () => {
    let woken = 0;
    const watching = store.watch(() => woken++);
    const sub = await confirmed(0);
    const stop = await watching;
    await eventually(() => woken === 1);
    for (let i = 0; i < 3; i++) sub.write({ event: fake.record('good-1', 'GoodCreated') });
    await eventually(() => woken === 2);
    await settle();
    await settle();
    expect(woken).toBe(2);
    await stop();
  });

  it('subscribes again after a failure, reports it, and wakes readers for what it missed', async () => {
    const errors: unknown[] = [];
    let woken = 0;
    const s = new EventStoreDbAdapter(fake, (e) => errors.push(e));
    const watching = s.watch(() => woken++);
    const first = await confirmed(0);
    const stop = await watching;
    await eventually(() => woken === 1);
    const failure = new UnavailableError(undefined, 'connection lost');
    first.destroy(failure);
    await confirmed(1);
    await eventually(() => woken === 2);
    expect(errors).toEqual([failure]);
    await stop();
  });

  it('returns even when the first subscription fails, and keeps trying', async () => {
    const errors: unknown[] = [];
    const s = new EventStoreDbAdapter(fake, (e) => errors.push(e));
    const watching = s.watch(() => undefined);
    await eventually(() => fake.subscriptions.length === 1);
    fake.subscriptions[0]!.destroy(new UnavailableError(undefined, 'refused'));
    const stop = await watching;
    await eventually(() => fake.subscriptions.length === 2);
    expect(errors).toHaveLength(1);
    await stop();
  });

  it('stopping unsubscribes, and nothing wakes or resubscribes afterwards', async () => {
    let woken = 0;
    const watching = store.watch(() => woken++);
    const sub = await confirmed(0);
    const stop = await watching;
    await eventually(() => woken === 1);
    sub.write({ event: fake.record('good-1', 'GoodCreated') });
    await stop();
    expect(sub.unsubscribed).toBe(true);
    await new Promise((r) => setTimeout(r, 400));
    expect(woken).toBe(1);
    expect(fake.subscriptions).toHaveLength(1);
  });

  it('close stops the watchers, then disposes of the client', async () => {
    const watching = store.watch(() => undefined);
    const sub = await confirmed(0);
    await watching;
    await store.close();
    expect(sub.unsubscribed).toBe(true);
    expect(fake.disposed).toBe(true);
    await new Promise((r) => setTimeout(r, 400));
    expect(fake.subscriptions).toHaveLength(1);
  });

  it('ping reads one event backwards from the end of $all', async () => {
    fake.record('good-1', 'GoodCreated');
    await expect(store.ping()).resolves.toBeUndefined();
    expect(fake.readAllCalls).toEqual([{ fromPosition: END, direction: BACKWARDS, maxCount: 1 }]);
  });

  it.each([
    ['unavailable', new UnavailableError(undefined, 'refused')],
    ['refused access', new AccessDeniedError(undefined, 'denied')],
  ])('ping on a server that is %s is a 503 UNAVAILABLE', async (_name, failure) => {
    fake.readFailure = failure;
    const err = await store.ping().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'EVENT_STORE.UNAVAILABLE', status: 503 });
  });

  it('ping on a server that does not answer is a 503 after its time-out, and the read is cancelled', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    try {
      fake.readAllHangs = true;
      const pinged = store.ping().catch((e: unknown) => e);
      await jest.advanceTimersByTimeAsync(5000);
      expect(await pinged).toMatchObject({ code: 'EVENT_STORE.UNAVAILABLE', status: 503 });
      expect(fake.cancels).toBe(1);
    } finally {
      jest.useRealTimers();
    }
  });

  it('connect builds a client from a connection string without connecting', async () => {
    const s = EventStoreDbAdapter.connect('kurrentdb://localhost:2113?tls=false');
    expect(s.kind).toBe('eventstoredb');
    await s.close();
  });
});
