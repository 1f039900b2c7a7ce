/**
 * The `eventstoredb` event-store adapter (KurrentDB, and EventStoreDB from 22.6), on
 * `@kurrent/kurrentdb-client`.
 *
 * Positions are the server's (commit, prepare) pair; the log is committed in that order, so a
 * reader following `$all` never meets a lower position committing after a higher one.
 *
 * Data is stored as JSON; the schema version and the port's metadata travel in the event's JSON
 * metadata as `{ v, by, why, correlationId, causationId?, at }`.
 *
 * Reading `$all`: every read takes a filter the server applies (by stream prefix, or leaving out
 * system events), in either direction, so only the port's events, and only as many as asked for,
 * cross the wire. The last event of a few streams in a long log is one backward read of one event,
 * not a scan (`headPosition` with prefixes, which country, category, tag and tag-group commands ask
 * under their lock, paged backwards through the unfiltered log before: hundreds of thousands of
 * events per command after an organisation). The client this adapter used before
 * (`@eventstore/db-client`) sent no filter with a read and filtered only catch-up subscriptions,
 * which read forwards; its successor filters reads too (KurrentDB's Rust-based client, which
 * also parses `kurrentdb://` connection strings itself).
 */
import {
  ANY,
  BACKWARDS,
  CancelledError,
  DeadlineExceededError,
  END,
  KurrentDBClient,
  FORWARDS,
  NO_STREAM,
  NotLeaderError,
  START as ESDB_START,
  StreamNotFoundError,
  TimeoutError,
  UnavailableError,
  WrongExpectedVersionError,
  convertToCommandError,
  excludeSystemEvents,
  streamNameFilter,
  type AllStreamRecordedEvent,
  type AllStreamResolvedEvent,
  type AppendResult as EsdbAppendResult,
  type AppendToStreamOptions,
  type EventData,
  type AppendStreamState,
  type JSONType,
  type Filter,
  type ReadAllOptions as EsdbReadAllOptions,
  type ReadStreamOptions as EsdbReadStreamOptions,
  type ResolvedEvent,
  type SubscribeToAllOptions,
} from '@kurrent/kurrentdb-client';
import { AppError } from '../errors';
import { toClientConnectionString } from './connection-string';
import {
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  type LogLag,
  type LogPosition,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type StreamAppend,
  EventStoreErrors,
  START,
  comparePositions,
} from './port';

/** A read the adapter may abandon half-way: leaving it (`return`) ends the call behind it. */
type Read<E> = AsyncIterableIterator<E>;

/** What the adapter uses of `KurrentDBClient`. The real client satisfies it; unit tests pass a fake. */
export interface EsdbClient {
  appendToStream(streamName: string, events: EventData[], options?: AppendToStreamOptions): Promise<EsdbAppendResult>;
  readStream(streamName: string, options?: EsdbReadStreamOptions): Read<ResolvedEvent>;
  readAll(options?: EsdbReadAllOptions): Read<AllStreamResolvedEvent>;
  subscribeToAll(options?: SubscribeToAllOptions): AsyncIterable<AllStreamResolvedEvent> & {
    on(event: 'data', listener: (resolved: AllStreamResolvedEvent) => void): unknown;
    once(event: 'confirmation' | 'caughtUp' | 'end', listener: () => void): unknown;
    once(event: 'error', listener: (e: unknown) => void): unknown;
    unsubscribe(): Promise<void>;
  };
  dispose(): Promise<void>;
}

type EsdbRecordedEvent = NonNullable<ResolvedEvent['event']>;

/** Events per further page of a read that met events the server's filter let through but the port does not keep. */
const PAGE = 256;
/** /readyz must answer even when the server does not: reads of `$all` carry no gRPC deadline. */
const PING_TIMEOUT_MS = 5000;
/** How long `watch` waits for its subscription to go live before returning anyway. */
const WATCH_START_TIMEOUT_MS = 5000;
const WATCH_RETRY_MIN_MS = 250;
const WATCH_RETRY_MAX_MS = 10_000;

function toStreamState(expected: ExpectedRevision): AppendStreamState {
  if (expected === 'any') return ANY;
  if (expected === 'no_stream') return NO_STREAM;
  return expected;
}

function toEventData(e: EventToAppend): EventData {
  const { by, why, correlationId, causationId, at } = e.metadata;
  return {
    id: e.id,
    contentType: 'application/json',
    type: e.type,
    // The client JSON.stringifies whatever it is given; the port leaves the shape of data to the registry.
    data: e.data as JSONType,
    metadata: { v: e.version, by, why, correlationId, ...(causationId !== undefined ? { causationId } : {}), at },
  };
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

function toRecorded(e: EsdbRecordedEvent): RecordedEvent {
  if (!e.position) {
    throw new Error(`EventStoreDB sent ${e.streamId}@${e.revision} without its log position (servers before 22.6 do not)`);
  }
  // Events written by other tools may carry other metadata, or none: fall back rather than fail the read.
  const m: Record<string, unknown> =
    e.metadata !== null && typeof e.metadata === 'object' && !Array.isArray(e.metadata) && !(e.metadata instanceof Uint8Array) ? (e.metadata as Record<string, unknown>) : {};
  const metadata: EventMetadata = { by: text(m.by), why: text(m.why), correlationId: text(m.correlationId), at: text(m.at) };
  if (typeof m.causationId === 'string') metadata.causationId = m.causationId;
  return {
    id: e.id,
    streamId: e.streamId,
    revision: e.revision,
    position: { commit: e.position.commit, prepare: e.position.prepare },
    type: e.type,
    version: typeof m.v === 'number' ? m.v : 1,
    data: e.data,
    metadata,
    recordedAt: e.created,
  };
}

/** The port's log holds no system events, and with prefixes only streams that start with one of them. */
function isPortEvent(e: EsdbRecordedEvent, prefixes: readonly string[] | undefined): boolean {
  if (e.streamId.startsWith('$') || e.type.startsWith('$')) return false;
  return !prefixes || prefixes.length === 0 || prefixes.some((p) => e.streamId.startsWith(p));
}

/**
 * The client turns most gRPC failures into its error classes, but not all: an append's first call
 * fetches the server's features and fails with the raw gRPC error when the server is down.
 */
const asClientError = (e: unknown): unknown => (e instanceof Error ? convertToCommandError(e) : e);

function isUnavailable(e: unknown): boolean {
  return (
    e instanceof UnavailableError ||
    e instanceof DeadlineExceededError ||
    e instanceof NotLeaderError ||
    // gRPC ABORTED: the server timed the operation out (e.g. a commit that did not replicate in time).
    e instanceof TimeoutError ||
    // The server cancelled the call (shutting down, losing leadership); the client reconnects on the next call.
    e instanceof CancelledError ||
    // Cluster discovery gave up: a plain Error from the client, no class to test for.
    (e instanceof Error && e.message.startsWith('Failed to discover'))
  );
}

function mapError(e: unknown): unknown {
  const err = asClientError(e);
  if (isUnavailable(err)) {
    return AppError.unavailable(EventStoreErrors.UNAVAILABLE, `the event store is unavailable: ${(err as Error).message}`);
  }
  return err;
}

function wrongRevision(streamId: string, expected: ExpectedRevision, actual: string): AppError {
  return AppError.conflict(EventStoreErrors.WRONG_REVISION, `stream ${streamId} is at revision ${actual}, expected ${String(expected)}`, {
    streamId,
    expected: String(expected),
    actual,
  });
}

export class EventStoreDbAdapter implements EventStore {
  readonly kind = 'eventstoredb' as const;
  /** This client has no multi-stream append: streams are appended one by one, in order. */
  readonly atomicMultiStreamAppend = false;
  private readonly watchers = new Set<AllWatcher>();

  /** `onWatchError` hears subscription failures that `watch` survives by resubscribing. */
  constructor(
    private readonly client: EsdbClient,
    private readonly onWatchError: (e: unknown) => void = () => undefined,
  ) {}

  /**
   * `url`: a `kurrentdb://` (or `kurrent://`, `kdb://`, `esdb://`) connection string; reading `$all`
   * needs a user allowed to (by default an admin).
   */
  static connect(url: string, onWatchError?: (e: unknown) => void): EventStoreDbAdapter {
    return new EventStoreDbAdapter(KurrentDBClient.connectionString(toClientConnectionString(url)), onWatchError);
  }

  async appendToStream(streamId: string, events: readonly EventToAppend[], opts: { expectedRevision?: ExpectedRevision } = {}): Promise<AppendResult> {
    const expected = opts.expectedRevision ?? 'any';
    if (events.length === 0) {
      // Nothing to write: report where the stream is, as the postgres adapter does.
      return { nextRevision: (await this.streamRevision(streamId)) ?? -1n, position: START };
    }
    let result: EsdbAppendResult;
    try {
      result = await this.client.appendToStream(streamId, events.map(toEventData), { streamState: toStreamState(expected) });
    } catch (e) {
      const err = asClientError(e);
      if (err instanceof WrongExpectedVersionError) throw wrongRevision(streamId, expected, String(err.actualState));
      throw mapError(err);
    }
    // A client built with `throwOnAppendFailure=false` reports a conflict here instead (its revision is then unreliable).
    if (!result.success) throw wrongRevision(streamId, expected, 'unknown');
    // The server reports no position when it recognised the events as already written (an idempotent
    // re-append); the port still owes the position of the last of them, so look it up.
    const position = result.position ?? (await this.positionAt(streamId, result.nextExpectedRevision));
    return { nextRevision: result.nextExpectedRevision, position: { commit: position.commit, prepare: position.prepare } };
  }

  async appendToStreams(appends: readonly StreamAppend[]): Promise<AppendResult[]> {
    const out: AppendResult[] = [];
    for (const a of appends) out.push(await this.appendToStream(a.streamId, a.events, { expectedRevision: a.expectedRevision }));
    return out;
  }

  private async positionAt(streamId: string, revision: bigint): Promise<LogPosition> {
    const [event] = await this.readStream(streamId, { fromRevision: revision, maxCount: 1 });
    if (!event || event.revision !== revision) throw new Error(`EventStoreDB reported ${streamId}@${revision}, which cannot be read`);
    return event.position;
  }

  async streamRevision(streamId: string): Promise<bigint | null> {
    const [last] = await this.readStream(streamId, { direction: 'backwards', maxCount: 1 });
    return last ? last.revision : null;
  }

  async readStream(streamId: string, opts: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const backwards = opts.direction === 'backwards';
    const { until, maxCount } = opts;
    if (maxCount !== undefined && maxCount <= 0) return [];
    const read = this.client.readStream(streamId, {
      direction: backwards ? BACKWARDS : FORWARDS,
      fromRevision: opts.fromRevision ?? (backwards ? END : ESDB_START),
      // Read backwards, the events after `until` come first and are skipped, so the server cannot count for us.
      ...(maxCount !== undefined && !(backwards && until) ? { maxCount } : {}),
    });
    const out: RecordedEvent[] = [];
    let leftEarly = false;
    try {
      for await (const { event } of read) {
        if (!event) continue;
        if (until && event.created.getTime() > until.getTime()) {
          // Forwards, everything from here on was recorded later still.
          if (backwards) continue;
          leftEarly = true;
          break;
        }
        out.push(toRecorded(event));
        if (maxCount !== undefined && out.length >= maxCount) {
          leftEarly = true;
          break;
        }
      }
    } catch (e) {
      if (e instanceof StreamNotFoundError) return [];
      throw mapError(e);
    }
    // Leaving a `for await` only destroys the client's stream object; the gRPC call behind it runs on.
    if (leftEarly) await abandon(read);
    return out;
  }

  async readAll(opts: ReadAllOptions): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    if (opts.limit <= 0) return out;
    try {
      await this.scan('forwards', opts.after, opts.streamPrefixes, opts.limit, (event) => {
        if (opts.upTo && comparePositions(event.position, opts.upTo) > 0) return false;
        out.push(toRecorded(event));
        return out.length < opts.limit;
      });
    } catch (e) {
      throw mapError(e);
    }
    return out;
  }

  /**
   * The port's events of `$all` strictly after `from` (forwards) or before it (backwards; `START`
   * means from the end), filtered on the server by `prefixes` (or leaving out system events), handed
   * to `take` until it says it has enough. Each read asks for as many as `want` says are still
   * wanted (plus the event at `from`, which a read from a position includes); a read that comes back
   * with fewer than asked is the end of the log. Only when the server's filter let through events the
   * port does not keep (a `$` type in a matching stream) does a further read follow, from where the
   * last one ended.
   */
  private async scan(
    direction: 'forwards' | 'backwards',
    from: LogPosition,
    prefixes: readonly string[] | undefined,
    want: number,
    take: (event: AllStreamRecordedEvent) => boolean,
  ): Promise<void> {
    const forwards = direction === 'forwards';
    const filter: Filter = prefixes?.length ? streamNameFilter({ prefixes: [...prefixes] }) : excludeSystemEvents();
    let cursor: LogPosition | null = comparePositions(from, START) === 0 ? null : from;
    let page = Number.isFinite(want) ? want : Number.MAX_SAFE_INTEGER;
    for (;;) {
      const asked = cursor ? page + 1 : page;
      const read = this.client.readAll({
        fromPosition: cursor ? { commit: cursor.commit, prepare: cursor.prepare } : forwards ? ESDB_START : END,
        direction: forwards ? FORWARDS : BACKWARDS,
        maxCount: asked,
        filter,
      });
      let seen = 0;
      let last: LogPosition | null = null;
      let enough = false;
      let finished = false;
      try {
        for await (const { event } of read) {
          seen++;
          if (!event) continue;
          last = event.position;
          if (cursor) {
            const c = comparePositions(event.position, cursor);
            if (forwards ? c <= 0 : c >= 0) continue;
          }
          if (isPortEvent(event, prefixes) && !take(event)) {
            enough = true;
            break;
          }
        }
        finished = !enough;
      } finally {
        // The consumer has what it wanted, or the read failed: the rest of the call is not wanted.
        if (!finished) await abandon(read);
      }
      if (enough || seen < asked || !last) return;
      cursor = last;
      page = Math.min(page, PAGE);
    }
  }

  async headPosition(streamPrefixes?: readonly string[]): Promise<LogPosition> {
    let head: LogPosition = START;
    try {
      // One event, read backwards from the end, filtered on the server: one call, whatever the log holds.
      await this.scan('backwards', START, streamPrefixes, 1, (event) => {
        head = { commit: event.position.commit, prepare: event.position.prepare };
        return false;
      });
    } catch (e) {
      throw mapError(e);
    }
    return head;
  }

  /**
   * Reads at most `cap` of the port's events after the position (the server filtering), so the cost
   * is bounded at any lag; past that the count is a lower bound, `capped`.
   */
  async lagAfter(after: LogPosition, streamPrefixes?: readonly string[], cap = 10_000): Promise<LogLag> {
    let events = 0;
    let oldestRecordedAt: Date | null = null;
    if (cap > 0) {
      try {
        await this.scan('forwards', after, streamPrefixes, cap, (event) => {
          oldestRecordedAt ??= event.created;
          return ++events < cap;
        });
      } catch (e) {
        throw mapError(e);
      }
    }
    return { events, capped: events >= cap, oldestRecordedAt };
  }

  async watch(onAppend: () => void, streamPrefixes?: readonly string[]): Promise<() => Promise<void>> {
    const watcher = new AllWatcher(this.client, onAppend, this.onWatchError, streamPrefixes);
    this.watchers.add(watcher);
    await watcher.started;
    return async () => {
      this.watchers.delete(watcher);
      await watcher.stop();
    };
  }

  async ping(): Promise<void> {
    const read = this.client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 1 });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${PING_TIMEOUT_MS} ms`)), PING_TIMEOUT_MS);
    });
    try {
      await Promise.race([drain(read), timeout]);
    } catch (e) {
      // Not awaited: a read still waiting on a server that does not answer ends only once it does.
      void abandon(read);
      throw AppError.unavailable(EventStoreErrors.UNAVAILABLE, `the event store is unavailable: ${(e as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    // Stop watchers first, or they would take the disposal for a dropped subscription and resubscribe.
    await Promise.all([...this.watchers].map((w) => w.stop()));
    this.watchers.clear();
    await this.client.dispose();
  }
}

async function drain(read: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of read);
}

/** Ends a read that was left before its end. It has failed or is no longer wanted, so its own failure to end is not news. */
async function abandon(read: Read<unknown>): Promise<void> {
  await Promise.resolve(read.return?.(undefined)).catch(() => undefined);
}

/**
 * One live subscription to `$all` (system events filtered out by the server) that calls `onAppend`
 * once per burst of events, and subscribes again with backoff when the subscription fails or ends.
 */
class AllWatcher {
  readonly started: Promise<void>;
  private stopped = false;
  private subscription: ReturnType<EsdbClient['subscribeToAll']> | null = null;
  private wakePending = false;
  private retry: { timer: NodeJS.Timeout; resolve: () => void } | null = null;

  constructor(
    private readonly client: EsdbClient,
    private readonly onAppend: () => void,
    private readonly onError: (e: unknown) => void,
    private readonly streamPrefixes?: readonly string[],
  ) {
    // `started` resolves when the first subscription is live, has failed, or is slow to answer.
    this.started = new Promise((resolve) => {
      const timer = setTimeout(() => done(), WATCH_START_TIMEOUT_MS);
      timer.unref();
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      void this.run(done);
    });
  }

  private wake(): void {
    if (this.wakePending || this.stopped) return;
    this.wakePending = true;
    setImmediate(() => {
      this.wakePending = false;
      if (!this.stopped) this.onAppend();
    });
  }

  private async run(started: () => void): Promise<void> {
    let delay = WATCH_RETRY_MIN_MS;
    while (!this.stopped) {
      try {
        // Server-side filter: a projection's watcher only hears appends to the streams it reads.
        const filter = this.streamPrefixes?.length ? streamNameFilter({ prefixes: [...this.streamPrefixes] }) : excludeSystemEvents();
        const subscription = this.client.subscribeToAll({ fromPosition: END, filter });
        this.subscription = subscription;
        subscription.once('confirmation', () => {
          delay = WATCH_RETRY_MIN_MS;
          started();
          // Events appended before the subscription went live (or while it was away) were not seen: wake readers.
          this.wake();
        });
        for await (const _ of subscription) this.wake();
      } catch (e) {
        if (!this.stopped) this.onError(e);
      }
      // A first subscription that failed still lets `watch` return: readers poll while it retries.
      started();
      if (this.stopped) return;
      await new Promise<void>((resolve) => {
        this.retry = { timer: setTimeout(resolve, delay), resolve };
        this.retry.timer.unref();
      });
      this.retry = null;
      delay = Math.min(delay * 2, WATCH_RETRY_MAX_MS);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) {
      clearTimeout(this.retry.timer);
      this.retry.resolve();
    }
    // The subscription may already have failed; there is nothing left to end then.
    await this.subscription?.unsubscribe().catch(() => undefined);
  }
}
