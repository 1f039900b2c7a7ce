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
 * An append to several streams is one multi-stream append of the server (KurrentDB 25.1 and later;
 * `open` refuses an older server): all of it is written, or none (docs/deployment.md, Appending on
 * KurrentDB).
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
  TransactionMaxSizeExceededError,
  UnavailableError,
  UnsupportedError,
  WrongExpectedVersionError,
  convertToCommandError,
  excludeSystemEvents,
  streamNameFilter,
  type AllStreamRecordedEvent,
  type AllStreamResolvedEvent,
  type AppendResult as EsdbAppendResult,
  type AppendStreamRequest,
  type AppendToStreamOptions,
  type EventData,
  type AppendStreamState,
  type JSONType,
  type Filter,
  type MultiAppendResult,
  type ReadAllOptions as EsdbReadAllOptions,
  type ReadStreamOptions as EsdbReadStreamOptions,
  type ResolvedEvent,
  type SubscribeToAllOptions,
} from '@kurrent/kurrentdb-client';
import { StreamsServiceService } from '@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v2/streams/streams_grpc_pb';
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
  type StaleStream,
  type StreamAppend,
  EventStoreErrors,
  START,
  comparePositions,
  wrongRevision,
} from './port';

/** A read the adapter may abandon half-way: leaving it (`return`) ends the call behind it. */
type Read<E> = AsyncIterableIterator<E>;

/** What the adapter uses of `KurrentDBClient`. The real client satisfies it; unit tests pass a fake. */
export interface EsdbClient {
  appendToStream(streamName: string, events: EventData[], options?: AppendToStreamOptions): Promise<EsdbAppendResult>;
  /** One atomic append to several streams, each at its expected state (KurrentDB 25.1 and later). */
  multiStreamAppend(requests: AppendStreamRequest[]): Promise<MultiAppendResult>;
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
/** Streams of a conflicting multi-stream append whose revisions are read at once. */
const CONFLICT_READS = 32;
/** The first KurrentDB whose client API appends to several streams in one atomic write. */
export const MULTI_STREAM_APPEND_SINCE = '25.1';

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

/**
 * An event of a multi-stream append: its metadata must be a flat object of strings (the server keeps
 * it as the event's properties and reads it back as JSON of strings), so the schema version goes as text.
 */
function toMultiStreamEventData(e: EventToAppend): EventData {
  const data = toEventData(e);
  return { ...data, metadata: { ...(data.metadata as Record<string, JSONType>), v: String(e.version) } };
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The schema version: a number from a single-stream append, text from a multi-stream one. */
function schemaVersion(v: unknown): number {
  if (typeof v === 'number') return v;
  return typeof v === 'string' && /^[1-9]\d*$/.test(v) ? Number(v) : 1;
}

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
    version: schemaVersion(m.v),
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

const staleStream = (streamId: string, expected: ExpectedRevision, actual: string): StaleStream => ({ streamId, expected: String(expected), actual });

/** What the server's features say about a capability: the client's `ServerFeatures`, as far as the adapter reads it. */
export interface ServerFeaturesLike {
  serverVersion: string;
  supports(method: { path: string }, feature?: string): boolean;
}

/**
 * Refuses a server that cannot append to several streams atomically: commands whose streams must
 * change together (a good and its link's claim, a family and its members) would no longer do so.
 */
export function requireMultiStreamAppend(features: ServerFeaturesLike): void {
  if (features.supports(StreamsServiceService.appendSession)) return;
  const version = features.serverVersion === 'unknown' ? 'of a version that does not say (before 21.10)' : features.serverVersion;
  throw new Error(
    `the event store (EVENTSTORE_URL) is KurrentDB/EventStoreDB ${version}, which cannot append to several streams in one atomic write: this service needs KurrentDB ${MULTI_STREAM_APPEND_SINCE} or later`,
  );
}

/** An append to several streams on a server without it (one replaced by an older version since start-up). */
const noMultiStreamAppend = () =>
  AppError.unavailable(EventStoreErrors.UNAVAILABLE, `the event store cannot append to several streams atomically: KurrentDB ${MULTI_STREAM_APPEND_SINCE} or later is needed`);

export class EventStoreDbAdapter implements EventStore {
  readonly kind = 'eventstoredb' as const;
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

  /**
   * `connect`, then asks the server what it can do: one that cannot append to several streams
   * atomically (before KurrentDB 25.1) is refused, so the service does not start on it.
   */
  static async open(url: string, onWatchError?: (e: unknown) => void): Promise<EventStoreDbAdapter> {
    const client = KurrentDBClient.connectionString(toClientConnectionString(url));
    try {
      // The client asks a server for its features on its first call and keeps the answer; it shows
      // them to its own methods only.
      const features = await (client as unknown as { capabilities: Promise<ServerFeaturesLike> }).capabilities.catch((e: unknown) => {
        throw mapError(e);
      });
      requireMultiStreamAppend(features);
    } catch (e) {
      await client.dispose().catch(() => undefined);
      throw e;
    }
    return new EventStoreDbAdapter(client, onWatchError);
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
      if (err instanceof WrongExpectedVersionError) throw wrongRevision([staleStream(streamId, expected, String(err.actualState))]);
      throw mapError(err);
    }
    // A client built with `throwOnAppendFailure=false` reports a conflict here instead (its revision is then unreliable).
    if (!result.success) throw wrongRevision([staleStream(streamId, expected, 'unknown')]);
    // The server reports no position when it recognised the events as already written (an idempotent
    // re-append); the port still owes the position of the last of them, so look it up.
    const position = result.position ?? (await this.positionAt(streamId, result.nextExpectedRevision));
    return { nextRevision: result.nextExpectedRevision, position: { commit: position.commit, prepare: position.prepare } };
  }

  async appendToStreams(appends: readonly StreamAppend[]): Promise<AppendResult[]> {
    const writes = appends.filter((a) => a.events.length > 0);
    const results = writes.length ? await this.appendMany(writes) : new Map<string, AppendResult>();
    return Promise.all(appends.map((a) => results.get(a.streamId) ?? this.appendToStream(a.streamId, [])));
  }

  /** The streams in one multi-stream append: the server writes all of them, or (a conflict) none. */
  private async appendMany(writes: readonly StreamAppend[]): Promise<Map<string, AppendResult>> {
    let result: MultiAppendResult;
    try {
      result = await this.client.multiStreamAppend(
        writes.map((w) => ({ streamName: w.streamId, events: w.events.map(toMultiStreamEventData), expectedState: toStreamState(w.expectedRevision) })),
      );
    } catch (e) {
      const err = asClientError(e);
      if (err instanceof UnsupportedError) throw noMultiStreamAppend();
      if (err instanceof TransactionMaxSizeExceededError) {
        throw new Error(`a multi-stream append of ${err.size} bytes is larger than the server allows (${err.maxSize}, KurrentDB's MaxAppendSize)`, { cause: e });
      }
      if (!(err instanceof WrongExpectedVersionError)) throw mapError(err);
      return this.explainConflict(writes, err);
    }
    return this.resultsOf(writes, result);
  }

  /**
   * The server names one stream of a conflict, the first it met. Every stream the append expected at
   * a revision (or absent) is read: those whose revision is not the one expected are stale, named all
   * at once; a stream whose events are written already (a re-sent append, or a batch that repeats
   * some writes) is reported as written, and the rest of the append is sent again.
   */
  private async explainConflict(writes: readonly StreamAppend[], err: WrongExpectedVersionError): Promise<Map<string, AppendResult>> {
    const checked = writes.filter((w) => w.expectedRevision !== 'any' || w.streamId === err.streamName);
    const outcomes: Awaited<ReturnType<EventStoreDbAdapter['conflictOf']>>[] = [];
    for (let i = 0; i < checked.length; i += CONFLICT_READS) outcomes.push(...(await Promise.all(checked.slice(i, i + CONFLICT_READS).map((w) => this.conflictOf(w)))));
    const written = new Map<string, AppendResult>();
    const stale: StaleStream[] = [];
    checked.forEach((w, i) => {
      const o = outcomes[i];
      if (o && 'written' in o) written.set(w.streamId, o.written);
      else if (o) stale.push(o.stale);
      // The stream the server named, as expected by the time it is read (deleted and written again?): stale as the server saw it.
      else if (w.streamId === err.streamName) stale.push(staleStream(w.streamId, w.expectedRevision, String(err.actualState)));
    });
    // A conflict always names a stream of its append; were it not so, the first stands for it.
    if (stale.length === 0 && written.size === 0) stale.push(staleStream(writes[0]!.streamId, writes[0]!.expectedRevision, String(err.actualState)));
    if (stale.length) throw wrongRevision(stale);
    const rest = writes.filter((w) => !written.has(w.streamId));
    return new Map([...written, ...(rest.length ? await this.appendMany(rest) : [])]);
  }

  /**
   * One stream of a conflicting append, read now: as expected (null), stale, or written already (its
   * events at the revisions the append would have given them; expected `any`: the stream's last ones).
   */
  private async conflictOf(w: StreamAppend): Promise<{ written: AppendResult } | { stale: StaleStream } | null> {
    const k = BigInt(w.events.length);
    const last = await this.streamRevision(w.streamId);
    const expected = w.expectedRevision === 'any' ? null : w.expectedRevision === 'no_stream' ? -1n : w.expectedRevision;
    if (expected !== null && (last ?? -1n) === expected) return null;
    const from = expected !== null ? expected + 1n : (last ?? -1n) - k + 1n;
    if (last !== null && from >= 0n && from + k - 1n <= last) {
      const stored = await this.readStream(w.streamId, { fromRevision: from, maxCount: w.events.length });
      if (stored.length === w.events.length && stored.every((e, i) => e.id === w.events[i]!.id)) {
        return { written: { nextRevision: stored.at(-1)!.revision, position: stored.at(-1)!.position } };
      }
    }
    if (expected === null) return null;
    return { stale: staleStream(w.streamId, w.expectedRevision, last === null ? 'no_stream' : String(last)) };
  }

  /**
   * Each stream's revision and the position of its last event. The server answers one position for
   * the whole append, where it starts: the append's events are read from there, in one read of as
   * many events as it wrote. Where that does not find a stream's last event (an append the server
   * recognised as written already answers another position), that event is read from its stream.
   */
  private async resultsOf(writes: readonly StreamAppend[], result: MultiAppendResult): Promise<Map<string, AppendResult>> {
    const revisions = new Map(result.responses.map((r) => [r.streamName, r.revision]));
    const lastOf = new Map(writes.map((w) => [w.events[w.events.length - 1]!.id, w.streamId]));
    const positions = new Map<string, LogPosition>();
    if (result.position >= 0n) {
      const total = writes.reduce((n, w) => n + w.events.length, 0);
      const read = this.client.readAll({ fromPosition: { commit: result.position, prepare: result.position }, direction: FORWARDS, maxCount: total });
      try {
        for await (const { event } of read) {
          const streamId = event && lastOf.get(event.id);
          if (event?.position && streamId === event.streamId) positions.set(streamId, { commit: event.position.commit, prepare: event.position.prepare });
        }
      } catch (e) {
        throw mapError(e);
      }
    }
    const out = new Map<string, AppendResult>();
    for (const w of writes) {
      const revision = revisions.get(w.streamId) ?? (await this.streamRevision(w.streamId))!;
      out.set(w.streamId, { nextRevision: revision, position: positions.get(w.streamId) ?? (await this.positionAt(w.streamId, revision)) });
    }
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
