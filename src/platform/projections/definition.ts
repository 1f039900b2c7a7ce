/**
 * What a projection is: a name, the events it handles, its own tables and the SQL per event.
 * Definitions live in /projections; the runner (./runner.ts) applies them. A projection names the
 * events it handles once, as types: its handler map's keys, or the definitions it applies per batch.
 */
import type pg from 'pg';
import type { CacheDomain } from '../cache/public-cache';
import type { LogPosition } from '../event-store/port';
import type { AnyEvent, DecodedEvent, EventDefinition, EventUnion } from '../events/registry';

/**
 * The connection a handler writes through: the runner's client, inside the batch transaction.
 * Table names must be unqualified: during a rebuild the runner points `search_path` at the shadow
 * schema first, so the same SQL fills the shadow tables.
 */
export type ProjectionDb = Pick<pg.ClientBase, 'query'>;

export interface ProjectionDefinition {
  readonly name: string;
  /** event types handled; other events only move the checkpoint */
  readonly handles: readonly string[];
  /** server-side filter on stream-id prefixes (e.g. `['link-', 'family-']`); empty = every stream */
  readonly streamPrefixes: readonly string[];
  /** the read-model tables this projection owns (and replaces on rebuild) */
  readonly tables: readonly string[];
  /** cache domains a committed batch voids */
  readonly domains: readonly CacheDomain[];
  /**
   * Applies a batch of this projection's events, in log order, inside the batch transaction. Its rows
   * must be those of applying the events one at a time, whatever the batch boundaries (the runner
   * shrinks the batch to find a poison event, and a rebuild batches differently from live).
   */
  applyBatch(db: ProjectionDb, events: readonly DecodedEvent[], mode?: BatchMode): Promise<BatchOutcome | void>;
  /**
   * For projections with derived state that a rebuild can compute once at the end instead of after
   * every batch (the catalog's family aggregates). While a rebuild replays the log, its batches run
   * with `deferDerived`; once the replay has caught up, the runner calls `settle` in the shadow, in
   * transactions of their own, until it answers null: each call does a bounded step after `after`
   * (null the first time) and answers where it got. Then batches run as usual, and the swap follows.
   */
  settle?(db: ProjectionDb, after: string | null): Promise<string | null>;
  /**
   * Where the `settle` step after `after` will end (the answer it will give), or null when it will
   * be the last: the rebuild then runs the step after it at the same time, on a second connection.
   * Steps must touch disjoint rows.
   */
  settleSplit?(db: ProjectionDb, after: string | null): Promise<string | null>;
  /** For a rebuild on the postgres log: streams folded in SQL before the replay (`SqlFold`). */
  readonly sqlFold?: SqlFold;
}

/**
 * Streams whose rows a rebuild can write straight from the postgres log (`es_events`) in SQL, where a
 * row is "the last event of each kind" of its stream: their events stay in the server, and each row
 * is written once. The rebuild folds them first, up to the head of the log as it was when the fold
 * began (`upTo`), in ranges of streams in stream_id order, each range its own short transaction: a
 * transaction that writes holds back every reader of the log while it runs (docs/architecture.md),
 * so the fold never holds the live projections back for more than one range. Events up to `upTo`
 * never change, so the ranges together write what one statement over every stream would. Its replay
 * then reads the other streams' events up to that position, and every event after it, as usual. The
 * rows must be those the replay would write (the replay test and the rebuild identity tests hold
 * them so).
 */
export interface SqlFold {
  /** the streams folded: a subset of the projection's `streamPrefixes` */
  readonly streamPrefixes: readonly string[];
  /** streams per range (one range, one transaction): `foldRange`'s `streams` */
  readonly rangeStreams: number;
  /**
   * Whether it can fold this log up to `upTo` (inclusive): false when it holds events of an older
   * version (the replay upcasts them). Asked once, before any range is written; it only reads.
   */
  accepts(db: ProjectionDb, upTo: LogPosition): Promise<boolean>;
  /**
   * Writes the rows of the next `streams` streams after `after` (null: from the first), of
   * their events up to `upTo`, into the shadow tables (`db`'s search_path points there). Answers the
   * last stream of the range, or null when the range was the last one (it then took every stream
   * after `after`), and how many events it folded.
   */
  foldRange(db: ProjectionDb, upTo: LogPosition, after: string | null, streams: number): Promise<{ last: string | null; events: number }>;
}

/**
 * What a batch says of its effects. `families`: the families whose rows (or whose goods' rows) the
 * batch may have changed, removed ones included; the runner records them with the commit's version of
 * the `goods` cache domain (migration 034), so the storefront reads only those again. A projection
 * that owns the families table and answers nothing is taken to have changed any family; one that does
 * not own it, none.
 *
 * `unseen`: the batch changed nothing any public answer shows, so its commit bumps no cache domain
 * and every cached answer stays (docs/api.md, Public read caching, rule 7). The catalog says so of a
 * batch that touched no family: links outside families and goods outside them are not public, and
 * a first synchronisation of a catalog not yet organised is all such batches.
 */
export interface BatchOutcome {
  families?: readonly string[];
  unseen?: boolean;
}

export interface BatchMode {
  /** a rebuild's replay, before it settles: leave derived state to `settle` */
  deferDerived: boolean;
}

/** What every projection spec gives as it is. */
type SpecCommon = Pick<ProjectionDefinition, 'name' | 'streamPrefixes' | 'tables' | 'domains'>;

/** One handler per event type of `E`, each given its own event (its data typed by its schema). */
export type EventHandlers<E extends AnyEvent> = {
  readonly [T in E['type']]: (db: ProjectionDb, event: DecodedEvent<Extract<E, { type: T }>>) => Promise<void>;
};

/**
 * A projection written per event: `on` holds a handler for every event of `E` (the events it
 * declares), and its keys are what it handles, so an event type added to `E` without a handler
 * fails the type check. The events' SQL runs in log order, then `afterBatch` once (e.g. recompute
 * what the events touched). `E` has no default: without it, no handler is accepted.
 */
export function defineProjection<E extends AnyEvent = never>(
  spec: SpecCommon & {
    /** without a type argument (`E` never) no handler fits, rather than any (an empty map accepts every key) */
    on: [E] extends [never] ? Readonly<Record<string, never>> : EventHandlers<E>;
    /** optional: runs once per batch after the events, in the same transaction */
    afterBatch?(db: ProjectionDb, events: readonly DecodedEvent<E>[]): Promise<void>;
  },
): ProjectionDefinition {
  const { on, afterBatch } = spec;
  // Looked up by the event's own type, each handler only ever gets an event of its type.
  const handlers = new Map(Object.entries(on as unknown as Readonly<Record<string, (db: ProjectionDb, event: DecodedEvent) => Promise<void>>>));
  return {
    ...definitionOf(spec, [...handlers.keys()]),
    async applyBatch(db, events) {
      // An event of a type without a handler changes nothing (the runner hands in none).
      for (const e of events) await handlers.get(e.type)?.(db, e);
      if (afterBatch && events.length) await afterBatch(db, handled<E>(events));
    },
  };
}

/**
 * A projection written set-based per batch: `events` are the definitions of the events it handles,
 * and `applyBatch` gets them typed as theirs (a switch over them can end in a `never` check).
 */
export function defineBatchProjection<const Defs extends readonly EventDefinition[]>(
  spec: SpecCommon & {
    events: Defs;
    applyBatch(db: ProjectionDb, events: readonly DecodedEvent<EventUnion<Defs>>[], mode?: BatchMode): Promise<BatchOutcome | void>;
    settle?: ProjectionDefinition['settle'];
    settleSplit?: ProjectionDefinition['settleSplit'];
    sqlFold?: SqlFold;
  },
): ProjectionDefinition {
  const { applyBatch, settle, settleSplit, sqlFold } = spec;
  if (sqlFold && !sqlFold.streamPrefixes.every((p) => spec.streamPrefixes.includes(p))) {
    throw new Error(`projection ${spec.name}: its SQL fold covers streams it does not read`);
  }
  return {
    ...definitionOf(
      spec,
      spec.events.map((d) => d.type),
    ),
    applyBatch: (db, events, mode) => applyBatch(db, handled<EventUnion<Defs>>(events), mode),
    ...(settle ? { settle } : {}),
    ...(settleSplit ? { settleSplit } : {}),
    ...(sqlFold ? { sqlFold } : {}),
  };
}

function definitionOf(spec: SpecCommon, handles: readonly string[]): Omit<ProjectionDefinition, 'applyBatch'> {
  if (!/^[a-z][a-z0-9_]{0,40}$/.test(spec.name)) throw new Error(`projection name ${spec.name}: lower-case letters, digits and _ only`);
  for (const t of spec.tables) if (!/^[a-z][a-z0-9_]{0,60}$/.test(t)) throw new Error(`projection ${spec.name}: bad table name ${t}`);
  const { name, streamPrefixes, tables, domains } = spec;
  return { name, handles, streamPrefixes, tables, domains };
}

/**
 * The runner hands a projection only events of the types it handles, each decoded and validated
 * against its type's schema by the registry: they are the projection's typed events.
 */
const handled = <E extends AnyEvent>(events: readonly DecodedEvent[]): readonly DecodedEvent<E>[] => events as readonly DecodedEvent<E>[];

/** Whether events of this stream can concern the projection (used to decide what a command waits for). */
export function coversStream(def: ProjectionDefinition, streamId: string): boolean {
  return def.streamPrefixes.length === 0 || def.streamPrefixes.some((p) => streamId.startsWith(p));
}
