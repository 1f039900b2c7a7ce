/**
 * What a projection is: a name, the events it handles, its own tables and the SQL per event.
 * Definitions live in /projections; the runner (./runner.ts) applies them. A projection names the
 * events it handles once, as types: its handler map's keys, or the definitions it applies per batch.
 */
import type pg from 'pg';
import type { CacheDomain } from '../cache/public-cache';
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
}

/**
 * What a batch says of its effects. `families`: the families whose rows (or whose goods' rows) the
 * batch may have changed, removed ones included; the runner records them with the commit's version of
 * the `goods` cache domain (migration 034), so the storefront reads only those again. A projection
 * that owns the families table and answers nothing is taken to have changed any family; one that does
 * not own it, none.
 */
export interface BatchOutcome {
  families?: readonly string[];
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
  },
): ProjectionDefinition {
  const { applyBatch, settle } = spec;
  return {
    ...definitionOf(
      spec,
      spec.events.map((d) => d.type),
    ),
    applyBatch: (db, events, mode) => applyBatch(db, handled<EventUnion<Defs>>(events), mode),
    ...(settle ? { settle } : {}),
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
