/**
 * The event store port. Two adapters implement it (`postgres`, `eventstoredb`) and one contract suite
 * (test/contract) holds both to it. The store knows nothing of event schemas: it keeps a type, a
 * schema version, data and metadata; the event catalogue (../events) validates and upcasts.
 */
import { AppError } from '../errors';
import type { Logger } from '../log';

/** What an append expects the stream to be: anything, absent, or exactly at a revision (0-based). */
export type ExpectedRevision = 'any' | 'no_stream' | bigint;

/**
 * A place in the global log. Both adapters order events by a pair compared lexicographically:
 * postgres (transaction id, sequence), EventStoreDB (commit position, prepare position).
 */
export interface LogPosition {
  readonly commit: bigint;
  readonly prepare: bigint;
}

export const START: LogPosition = Object.freeze({ commit: -1n, prepare: -1n });

export function comparePositions(a: LogPosition, b: LogPosition): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

export const positionToString = (p: LogPosition): string => `${p.commit}/${p.prepare}`;

export function positionFromString(s: string): LogPosition {
  const m = /^(-?\d+)\/(-?\d+)$/.exec(s);
  if (!m) throw new Error(`not a log position: ${s}`);
  return { commit: BigInt(m[1]!), prepare: BigInt(m[2]!) };
}

/** Who did it, why, and which request it belongs to. Every event carries it. */
export interface EventMetadata {
  /** a user id, or `system:sync`, `system:organise`, … */
  by: string;
  /** the command name, e.g. `SyncOriginGoods`, `SetFamilyPriceOverride` */
  why: string;
  correlationId: string;
  causationId?: string;
  /** ISO time the command was decided */
  at: string;
}

export interface EventToAppend {
  /** UUID; a re-sent append with the same ids is a no-op. Synchronisation derives it from content. */
  id: string;
  type: string;
  /** schema version of `data` */
  version: number;
  data: unknown;
  metadata: EventMetadata;
}

export interface RecordedEvent {
  id: string;
  streamId: string;
  /** 0-based revision within the stream */
  revision: bigint;
  position: LogPosition;
  type: string;
  version: number;
  data: unknown;
  metadata: EventMetadata;
  recordedAt: Date;
}

/** One stream's part of a multi-stream append. */
export interface StreamAppend {
  streamId: string;
  events: readonly EventToAppend[];
  expectedRevision: ExpectedRevision;
}

export interface AppendResult {
  /** revision of the last event now in the stream */
  nextRevision: bigint;
  /** global position of the last event appended (or already present, for an idempotent re-append) */
  position: LogPosition;
}

export interface ReadStreamOptions {
  direction?: 'forwards' | 'backwards';
  /** first revision to read (inclusive); for backwards reads, the revision to start down from */
  fromRevision?: bigint;
  maxCount?: number;
  /** only events recorded at or before this time */
  until?: Date;
}

export interface ReadAllOptions {
  /** exclusive: read events strictly after this position (`START` for the beginning) */
  after: LogPosition;
  limit: number;
  /** server-side filter on stream-id prefixes, e.g. `['link-', 'family-']` */
  streamPrefixes?: readonly string[];
  /** inclusive upper bound: nothing after this position (a reader scanning up to a head it read) */
  upTo?: LogPosition;
}

export interface LogLag {
  /**
   * committed events after the position, including those a read fence still holds back from
   * readers; exact unless `capped`
   */
  events: number;
  /**
   * the lag was larger than the read allowed (`cap`): `events` is then an estimate (postgres: from
   * the log's sequence and a window of the next rows) or a lower bound (eventstoredb: the events read)
   */
  capped: boolean;
  /** when the oldest of them was recorded (capped: the oldest seen), or null when there are none */
  oldestRecordedAt: Date | null;
}

export interface EventStore {
  readonly kind: 'postgres' | 'eventstoredb';
  appendToStream(streamId: string, events: readonly EventToAppend[], opts?: { expectedRevision?: ExpectedRevision }): Promise<AppendResult>;
  /**
   * Appends to several streams, each at most once, in the order given, atomically: every stream's
   * events are written, or none (postgres: one transaction, one round trip; KurrentDB: one
   * multi-stream append, which needs KurrentDB 25.1 or later). One result per append (a stream
   * given no events is reported where it is). Every expected revision is checked as by
   * `appendToStream`; when any does not hold, nothing is written and WRONG_REVISION names every
   * stale stream at once (`staleStreamsOf`), the first in its details' `streamId`. A stream whose
   * events are all written already (the same ids, in order: a re-sent append) is not stale: it is
   * reported as written, and re-sending a whole append that is is a no-op that reports it.
   */
  appendToStreams(appends: readonly StreamAppend[]): Promise<AppendResult[]>;
  /** Revision of the last event of the stream, or null when it does not exist. */
  streamRevision(streamId: string): Promise<bigint | null>;
  readStream(streamId: string, opts?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /**
   * Events after a position, in global order. A reader that follows this from `START` sees every
   * event exactly once and never skips one, even when a lower position commits after a higher one.
   */
  readAll(opts: ReadAllOptions): Promise<RecordedEvent[]>;
  /**
   * Position of the last readable event (`START` when the log is empty); with `committed`, of the
   * last committed one, even if a read fence still holds it back from readers.
   */
  headPosition(streamPrefixes?: readonly string[], opts?: { committed?: boolean }): Promise<LogPosition>;
  /**
   * How far the log runs past a position, at a bounded cost: at most `cap` events (postgres: rows of
   * the log) are read, 10 000 by default; `Number.POSITIVE_INFINITY` counts exactly, whatever it costs.
   */
  lagAfter(after: LogPosition, streamPrefixes?: readonly string[], cap?: number): Promise<LogLag>;
  /**
   * Stores whose readers wait behind a fence (postgres: below the oldest running transaction) say
   * whether it holds committed events back, since when, and who holds it.
   */
  fence?(): Promise<FenceStatus>;
  /**
   * Stores kept in the service's own tables (postgres) refresh the planner's statistics of the log
   * once it has grown past autovacuum's threshold, whether or not autovacuum runs
   * (../planner-statistics.ts). A read from far behind, a rebuild's replay above all, is planned
   * from them: without any, each batch of a replay at 800 000 events sorted the whole rest of the
   * log (137 ms a read instead of 1). `appended`: at least how many events the caller has just
   * appended (left out: the server's count alone, which reaches it a moment after the appends);
   * `repeated`: one of many calls in a row.
   */
  refreshStatistics?(opts?: { appended?: number; repeated?: boolean; log?: Logger }): Promise<void>;
  /**
   * Calls `onAppend` (possibly spuriously, possibly coalesced) when new events may be readable.
   * Readers still poll as a fallback. With `streamPrefixes`, only appends to those streams need wake
   * it (EventStoreDB filters on the server; postgres wakes on every append). Returns a function that
   * stops watching.
   */
  watch(onAppend: () => void, streamPrefixes?: readonly string[]): Promise<() => Promise<void>>;
  /** Cheap reachability check for /readyz. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface FenceStatus {
  /** committed events readers cannot read yet */
  heldBackEvents: number;
  /** when the oldest of them was recorded, or null */
  heldBackSince: Date | null;
  /** the oldest transaction still running (the fence), when one holds it */
  holder: FenceHolder | null;
}

export interface FenceHolder {
  /** a backend's pid, or null for a prepared transaction */
  pid: number | null;
  state: string;
  ageSeconds: number;
  applicationName: string | null;
  database: string | null;
  /** a prepared transaction's gid */
  preparedGid?: string;
}

/** A stream whose revision was not the one an append expected. */
export interface StaleStream {
  streamId: string;
  /** what the append expected: a revision, `no_stream` or `any` */
  expected: string;
  /** the stream's revision, or `no_stream` */
  actual: string;
}

/**
 * The WRONG_REVISION of an append: a 409 naming its first stale stream (`streamId`, `expected`,
 * `actual`) and, under `stale`, every one, so a batch splits them all off in one step.
 */
export function wrongRevision(stale: readonly StaleStream[]): AppError {
  const [first] = stale;
  if (!first) throw new Error('a conflict names at least one stream');
  const more = stale.length > 1 ? ` (and ${stale.length - 1} more ${stale.length === 2 ? 'stream' : 'streams'})` : '';
  return AppError.conflict(EventStoreErrors.WRONG_REVISION, `stream ${first.streamId} is at revision ${first.actual}, expected ${first.expected}${more}`, {
    ...first,
    stale: stale.map((s) => ({ ...s })),
  });
}

/**
 * The streams a WRONG_REVISION names as stale (every one, for an append to several streams), or
 * null for any other error.
 */
export function staleStreamsOf(e: unknown): Set<string> | null {
  if (!(e instanceof AppError) || e.code !== EventStoreErrors.WRONG_REVISION) return null;
  const d = e.details as { streamId?: unknown; stale?: { streamId?: unknown }[] } | undefined;
  const ids = Array.isArray(d?.stale) ? d.stale.map((s) => s.streamId) : [d?.streamId];
  return new Set(ids.filter((id): id is string => typeof id === 'string'));
}

/** Stable error codes of the port; adapters throw `AppError`s with these. */
export const EventStoreErrors = {
  WRONG_REVISION: 'EVENT_STORE.WRONG_REVISION',
  UNAVAILABLE: 'EVENT_STORE.UNAVAILABLE',
  DUPLICATE_EVENT_ID: 'EVENT_STORE.DUPLICATE_EVENT_ID',
} as const;
