/**
 * A hand-written fake of the few KurrentDB client methods the `eventstoredb` adapter uses
 * (src/platform/event-store/eventstoredb.ts, `EsdbClient`). It keeps `$all` as an array and answers
 * the way the server does: reads from an inclusive `fromPosition`, a filter applied on the server in
 * either direction, `maxCount` counting the events that pass it, StreamNotFoundError for a missing
 * stream; appends check the expected state and recognise events written already (the same ids) as
 * a no-op. A multi-stream append is one transaction, as KurrentDB's (25.1 and later): every stream's
 * expected state holds and all its events are written, in the order given, under one commit
 * position, or none is, and the conflict names the first stream whose state does not hold. The
 * errors are the library's own classes, so the adapter's `instanceof` checks run for real. It counts
 * what each call costs (calls, events sent), so the adapter is held to a bounded cost on a large log.
 *
 * `live`: a subscription is confirmed at once and hears every event recorded after it (the
 * service runs on it); without, a test confirms and feeds subscriptions itself.
 * `realClock`: events are recorded at the time they are written, not at `now`.
 */
import { PassThrough } from 'node:stream';
import {
  ANY,
  BACKWARDS,
  END,
  NO_STREAM,
  START as ESDB_START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  type AllStreamJSONRecordedEvent,
  type AllStreamResolvedEvent,
  type AppendResult as EsdbAppendResult,
  type AppendStreamRequest,
  type AppendStreamState,
  type AppendToStreamOptions,
  type CurrentStreamState,
  type EventData,
  type JSONType,
  type MultiAppendResult,
  type Position,
  type ReadAllOptions as EsdbReadAllOptions,
  type ReadStreamOptions as EsdbReadStreamOptions,
  type SubscribeToAllOptions,
} from '@kurrent/kurrentdb-client';
import type { EsdbClient } from '../../src/platform/event-store/eventstoredb';

export type Recorded = AllStreamJSONRecordedEvent;

/**
 * A read as the client returns it: an async iterator the adapter may leave (`return`), which ends the
 * call. (`cancel`, the previous client's way to end one, does the same.)
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

export class FakeSubscription extends PassThrough {
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

function passes(filter: FilterLike | undefined, e: Recorded): boolean {
  if (!filter) return true;
  const subject = filter.filterOn === 'streamName' ? e.streamId : e.type;
  return filter.prefixes ? filter.prefixes.some((p) => subject.startsWith(p)) : new RegExp(filter.regex!).test(subject);
}

export function atOrBefore(a: Position, b: Position): boolean {
  if (a.commit !== b.commit) return a.commit < b.commit;
  return a.prepare <= b.prepare;
}

/** What an append of `events` to a stream at its expected state comes to, as the server decides it. */
type Check = { write: true } | { written: bigint } | { conflict: CurrentStreamState };

export class FakeKurrentDbClient implements EsdbClient {
  /** `$all`, in log order. */
  log: Recorded[] = [];
  /** when events are recorded; null: the time they are written */
  now: Date | null = new Date('2024-05-01T10:00:00.000Z');
  appendCalls: Array<{ streamName: string; events: EventData[]; options: AppendToStreamOptions | undefined }> = [];
  appendFailure: Error | null = null;
  multiAppendCalls: AppendStreamRequest[][] = [];
  multiAppendFailure: Error | null = null;
  /**
   * Awaited as a write reaches the server, before it is checked: what else the server receives
   * meanwhile (test/support/before-append.ts steps in here), or a fault it answers with (thrown).
   */
  beforeWrite: ((writes: readonly { streamName: string; events: readonly EventData[] }[]) => Promise<void>) | null = null;
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
  /** each stream's events, so a large log is written and read in linear time */
  private readonly streams = new Map<string, Recorded[]>();
  private readonly live: boolean;

  constructor(opts: { live?: boolean; realClock?: boolean } = {}) {
    this.live = opts.live ?? false;
    if (opts.realClock) this.now = null;
  }

  /** Writes straight into the log, as another writer (or the server itself) would. */
  record(streamId: string, type: string, data: JSONType = {}, metadata?: unknown, at?: { id?: string; commit?: bigint }): Recorded {
    let stream = this.streams.get(streamId);
    if (!stream) this.streams.set(streamId, (stream = []));
    // Distinct commit and prepare, so a mix-up of the two shows; a transaction's events share its commit.
    const position: Position = { commit: at?.commit ?? this.nextPosition + 7n, prepare: this.nextPosition };
    this.nextPosition += 100n;
    const e = {
      streamId,
      id: at?.id ?? `00000000-0000-4000-8000-${String(this.log.length).padStart(12, '0')}`,
      isJson: true as const,
      revision: BigInt(stream.length),
      type,
      created: this.now ? new Date(this.now) : new Date(),
      data,
      metadata: metadata as Recorded['metadata'],
      position,
    };
    this.log.push(e);
    stream.push(e);
    if (this.live) {
      for (const s of this.subscriptions) {
        if (!s.writableEnded && !s.destroyed && passes(s.options?.filter as FilterLike | undefined, e)) s.write({ event: e });
      }
    }
    return e;
  }

  private check(streamName: string, events: EventData[], expected: AppendStreamState): Check {
    const stream = this.streams.get(streamName) ?? [];
    const at = stream.findIndex((e) => e.id === events[0]!.id);
    if (at >= 0 && events.every((ev, i) => stream[at + i]?.id === ev.id)) return { written: BigInt(at + events.length - 1) };
    const current = stream.length ? BigInt(stream.length - 1) : NO_STREAM;
    if (expected !== ANY && expected !== current) return { conflict: current };
    return { write: true };
  }

  private currentOf(streamName: string): CurrentStreamState {
    const n = this.streams.get(streamName)?.length ?? 0;
    return n ? BigInt(n - 1) : NO_STREAM;
  }

  async appendToStream(streamName: string, events: EventData[], options?: AppendToStreamOptions): Promise<EsdbAppendResult> {
    this.appendCalls.push({ streamName, events, options });
    if (this.appendFailure) throw this.appendFailure;
    await this.beforeWrite?.([{ streamName, events }]);
    const expected = options?.streamState ?? ANY;
    const c = this.check(streamName, events, expected);
    // The server recognises a re-append of the same events and reports no position for it.
    if ('written' in c) return { success: true, nextExpectedRevision: c.written };
    if ('conflict' in c) throw new WrongExpectedVersionError(undefined, { streamName, expected, current: c.conflict });
    let last!: Recorded;
    for (const ev of events) last = this.record(streamName, ev.type, ev.data as JSONType, ev.metadata, { id: ev.id });
    return { success: true, nextExpectedRevision: last.revision, position: last.position };
  }

  async multiStreamAppend(requests: AppendStreamRequest[]): Promise<MultiAppendResult> {
    this.multiAppendCalls.push(requests);
    if (this.multiAppendFailure) throw this.multiAppendFailure;
    for (const r of requests) {
      for (const e of r.events) {
        const m = e.metadata;
        // As the client checks before it sends anything.
        if (m != null && (typeof m !== 'object' || Array.isArray(m) || m instanceof Uint8Array || Object.values(m).some((v) => typeof v !== 'string'))) {
          throw new Error('multiStreamAppend requires metadata to be a plain object with string keys and string values.');
        }
      }
    }
    await this.beforeWrite?.(requests);
    if (new Set(requests.map((r) => r.streamName)).size !== requests.length) throw new Error('a stream appears twice in one append session');
    const checks = requests.map((r) => this.check(r.streamName, r.events, r.expectedState));
    const responses = (revisions: bigint[]) => requests.map((r, i) => ({ streamName: r.streamName, revision: revisions[i]! }));
    if (checks.every((c) => 'written' in c)) {
      // Written already, every stream: a no-op. The position it answers is not where those events are.
      return { position: -1n, responses: responses(checks.map((c) => (c as { written: bigint }).written)) };
    }
    // A stream written already beside streams still to write is a stream not at its expected state.
    const failed = checks.findIndex((c) => !('write' in c));
    if (failed >= 0) {
      const r = requests[failed]!;
      throw new WrongExpectedVersionError(undefined, { streamName: r.streamName, expected: r.expectedState, current: this.currentOf(r.streamName) });
    }
    const commit = this.nextPosition;
    const revisions = requests.map((r) => {
      let last!: Recorded;
      for (const ev of r.events) last = this.record(r.streamName, ev.type, ev.data as JSONType, ev.metadata, { id: ev.id, commit });
      return last.revision;
    });
    return { position: commit, responses: responses(revisions) };
  }

  readStream(streamName: string, options?: EsdbReadStreamOptions) {
    this.readStreamCalls.push({ streamName, options });
    const onEnd = () => this.cancels++;
    if (this.readFailure) return read(() => failing(this.readFailure!), onEnd);
    let events = this.streams.get(streamName) ?? [];
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
        if (!passes(filter, event)) continue;
        sent++;
        fake.sentByReads++;
        yield { event };
      }
    }, onEnd);
  }

  subscribeToAll(options?: SubscribeToAllOptions): FakeSubscription {
    const s = new FakeSubscription(options);
    this.subscriptions.push(s);
    if (this.live) setImmediate(() => s.emit('confirmation'));
    return s;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    for (const s of this.subscriptions) s.end();
  }
}
