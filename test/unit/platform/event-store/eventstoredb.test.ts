/**
 * The EventStoreDB/KurrentDB adapter against a hand-written fake of the few client methods it uses.
 * The fake keeps `$all` as an array and answers reads the way the server does (inclusive
 * `fromPosition`, a filter applied on the server in either direction, `maxCount` counting the events
 * that pass it, StreamNotFoundError for a missing stream, system events mixed in); the errors are the
 * library's own classes, so the adapter's `instanceof` checks run for real. It counts what each read
 * costs (calls, events sent), so the adapter is held to a bounded cost on a large log. The contract
 * suite (test/contract) covers a real server when EVENTSTORE_URL is set.
 */
import { PassThrough } from 'node:stream';
import {
  ANY,
  AccessDeniedError,
  BACKWARDS,
  DeadlineExceededError,
  END,
  FORWARDS,
  NO_STREAM,
  START as ESDB_START,
  StreamNotFoundError,
  UnavailableError,
  WrongExpectedVersionError,
  excludeSystemEvents,
  streamNameFilter,
  type AllStreamJSONRecordedEvent,
  type AllStreamResolvedEvent,
  type AppendResult as EsdbAppendResult,
  type AppendToStreamOptions,
  type EventData,
  type JSONType,
  type Position,
  type ReadAllOptions as EsdbReadAllOptions,
  type ReadStreamOptions as EsdbReadStreamOptions,
  type SubscribeToAllOptions,
} from '@kurrent/kurrentdb-client';
import { AppError } from '../../../../src/platform/errors';
import { EventStoreDbAdapter, type EsdbClient } from '../../../../src/platform/event-store/eventstoredb';
import { START, type EventToAppend, type LogPosition } from '../../../../src/platform/event-store/port';

type Recorded = AllStreamJSONRecordedEvent;

/**
 * A read as the client returns it: an async iterator the adapter may leave (`return`), which ends the
 * call. (`cancel`, the previous client's way to end one, does the same.) `sent` counts what it yielded.
 */
function read<E>(items: () => AsyncGenerator<E>, onEnd: () => void): AsyncIterableIterator<E> & { cancel(): Promise<void> } {
  const it = items();
  let ended = false;
  const end = () => {
    if (!ended) onEnd();
    ended = true;
  };
  const self = {
    next: () => it.next(),
    return: async (value?: unknown) => {
      end();
      return it.return(value as never);
    },
    cancel: async () => {
      end();
      await it.return(undefined as never);
    },
    [Symbol.asyncIterator]() {
      return self;
    },
  };
  return self as AsyncIterableIterator<E> & { cancel(): Promise<void> };
}

/** A read that fails the way the client's reads do: on the first `next`. */
// eslint-disable-next-line require-yield -- it fails before yielding anything
async function* failing(e: Error): AsyncGenerator<never> {
  throw e;
}

/** A read that never answers (a server that does not). */
// eslint-disable-next-line require-yield -- it never yields
async function* hanging(): AsyncGenerator<never> {
  await new Promise(() => undefined);
}

class FakeSubscription extends PassThrough {
  unsubscribed = false;
  constructor(readonly options: SubscribeToAllOptions | undefined) {
    super({ objectMode: true });
  }
  async unsubscribe(): Promise<void> {
    this.unsubscribed = true;
    this.end();
  }
}

type FilterLike = { filterOn: 'streamName' | 'eventType'; prefixes?: string[]; regex?: string };

class FakeClient implements EsdbClient {
  /** `$all`, in log order. */
  log: Recorded[] = [];
  now = new Date('2024-05-01T10:00:00.000Z');
  appendCalls: Array<{ streamName: string; events: EventData[]; options: AppendToStreamOptions | undefined }> = [];
  appendFailure: Error | null = null;
  readStreamCalls: Array<{ streamName: string; options: EsdbReadStreamOptions | undefined }> = [];
  readAllCalls: EsdbReadAllOptions[] = [];
  /** events the server sent for reads of `$all` (what they transferred and the client decoded) */
  sentByReads = 0;
  readFailure: Error | null = null;
  /** when set, readAll answers with a read that never yields (a server that does not answer) */
  readAllHangs = false;
  cancels = 0;
  subscriptions: FakeSubscription[] = [];
  disposed = false;
  private nextPosition = 1000n;
  /** events per stream, so a large log is written in linear time */
  private readonly lengths = new Map<string, number>();

  /** Writes straight into the log, as another writer (or the server itself) would. */
  record(streamId: string, type: string, data: JSONType = {}, metadata?: unknown): Recorded {
    const revision = BigInt(this.lengths.get(streamId) ?? 0);
    this.lengths.set(streamId, Number(revision) + 1);
    // Distinct commit and prepare, so a mix-up of the two shows.
    const position: Position = { commit: this.nextPosition + 7n, prepare: this.nextPosition };
    this.nextPosition += 100n;
    const e = {
      streamId,
      id: `00000000-0000-4000-8000-${String(this.log.length).padStart(12, '0')}`,
      isJson: true as const,
      revision,
      type,
      created: new Date(this.now),
      data,
      metadata: metadata as Recorded['metadata'],
      position,
    };
    this.log.push(e);
    return e;
  }

  async appendToStream(streamName: string, events: EventData[], options?: AppendToStreamOptions): Promise<EsdbAppendResult> {
    this.appendCalls.push({ streamName, events, options });
    if (this.appendFailure) throw this.appendFailure;
    const stream = this.log.filter((e) => e.streamId === streamName);
    const at = stream.findIndex((e) => e.id === events[0]!.id);
    if (at >= 0 && events.every((ev, i) => stream[at + i]?.id === ev.id)) {
      // The server recognises a re-append of the same events and reports no position for it.
      return { success: true, nextExpectedRevision: BigInt(at + events.length - 1) };
    }
    const current = stream.length ? BigInt(stream.length - 1) : NO_STREAM;
    const expected = options?.streamState ?? ANY;
    if (expected !== ANY && expected !== current) {
      throw new WrongExpectedVersionError(undefined, { streamName, expected, current });
    }
    let last!: Recorded;
    for (const ev of events) {
      last = this.record(streamName, ev.type, ev.data as JSONType, ev.metadata);
      last.id = ev.id;
    }
    return { success: true, nextExpectedRevision: last.revision, position: last.position };
  }

  readStream(streamName: string, options?: EsdbReadStreamOptions) {
    this.readStreamCalls.push({ streamName, options });
    const onEnd = () => this.cancels++;
    if (this.readFailure) return read(() => failing(this.readFailure!), onEnd);
    let events = this.log.filter((e) => e.streamId === streamName);
    if (events.length === 0) return read(() => failing(new StreamNotFoundError(undefined, streamName)), onEnd);
    const backwards = options?.direction === BACKWARDS;
    const from = options?.fromRevision;
    if (typeof from === 'bigint') events = events.filter((e) => (backwards ? e.revision <= from : e.revision >= from));
    if (backwards) events = [...events].reverse();
    if (options?.maxCount !== undefined) events = events.slice(0, Number(options.maxCount));
    return read(async function* () {
      for (const event of events) yield { event };
    }, onEnd);
  }

  /**
   * `$all` as the server reads it: from `fromPosition` (inclusive) in either direction, through the
   * filter (on the server: what it leaves out is never sent), at most `maxCount` events that pass it.
   */
  readAll(options?: EsdbReadAllOptions) {
    this.readAllCalls.push(options ?? {});
    const onEnd = () => this.cancels++;
    if (this.readFailure) return read<AllStreamResolvedEvent>(() => failing(this.readFailure!), onEnd);
    if (this.readAllHangs) return read<AllStreamResolvedEvent>(hanging, onEnd);
    const backwards = options?.direction === BACKWARDS;
    const from = options?.fromPosition ?? ESDB_START;
    const filter = options?.filter as FilterLike | undefined;
    const passes = (e: Recorded) => {
      if (!filter) return true;
      const subject = filter.filterOn === 'streamName' ? e.streamId : e.type;
      return filter.prefixes ? filter.prefixes.some((p) => subject.startsWith(p)) : new RegExp(filter.regex!).test(subject);
    };
    let events = backwards ? [...this.log].reverse() : [...this.log];
    // Like the server, a position bound is inclusive (in both directions, the harder case for the adapter).
    if (from === END) events = backwards ? events : [];
    else if (from !== ESDB_START) events = events.filter((e) => (backwards ? atOrBefore(e.position, from) : atOrBefore(from, e.position)));
    const max = options?.maxCount === undefined ? Infinity : Number(options.maxCount);
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const fake = this;
    return read<AllStreamResolvedEvent>(async function* () {
      let sent = 0;
      for (const event of events) {
        if (sent >= max) return;
        if (!passes(event)) continue;
        sent++;
        fake.sentByReads++;
        yield { event };
      }
    }, onEnd);
  }

  subscribeToAll(options?: SubscribeToAllOptions): FakeSubscription {
    const s = new FakeSubscription(options);
    this.subscriptions.push(s);
    return s;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    for (const s of this.subscriptions) s.end();
  }
}

function atOrBefore(a: Position, b: Position): boolean {
  if (a.commit !== b.commit) return a.commit < b.commit;
  return a.prepare <= b.prepare;
}

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

let fake: FakeClient;
let store: EventStoreDbAdapter;
beforeEach(() => {
  fake = new FakeClient();
  store = new EventStoreDbAdapter(fake);
});

describe('EventStoreDbAdapter: appending', () => {
  it('maps the expected revision to the client constants', async () => {
    const seen: unknown[] = [];
    const client = Object.assign(new FakeClient(), {
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
    const client = Object.assign(new FakeClient(), {
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
