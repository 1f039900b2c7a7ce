/**
 * What a projection is: a name, the events it handles, its own tables and the SQL per event.
 * Definitions live in /projections; the runner (./runner.ts) applies them.
 */
import type pg from 'pg';
import type { CacheDomain } from '../cache/public-cache';
import type { DecodedEvent } from '../events/catalogue';

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
  applyBatch(db: ProjectionDb, events: readonly DecodedEvent[], mode?: BatchMode): Promise<void>;
  /**
   * For projections with derived state that a rebuild can compute once at the end instead of after
   * every batch (the catalog's family aggregates). While a rebuild replays the log, its batches run
   * with `deferDerived`; once the replay has caught up, the runner calls `settle` in the shadow, in
   * transactions of their own, until it answers null: each call does a bounded step after `after`
   * (null the first time) and answers where it got. Then batches run as usual, and the swap follows.
   */
  settle?(db: ProjectionDb, after: string | null): Promise<string | null>;
}

export interface BatchMode {
  /** a rebuild's replay, before it settles: leave derived state to `settle` */
  deferDerived: boolean;
}

/**
 * A projection written per event (`apply`), or set-based per batch (`applyBatch`). Per event: each
 * event's SQL in log order, then `afterBatch` once (e.g. recompute what the events touched).
 */
export type ProjectionSpec = Omit<ProjectionDefinition, 'applyBatch' | 'settle'> &
  (
    | { applyBatch: ProjectionDefinition['applyBatch']; settle?: ProjectionDefinition['settle']; apply?: never; afterBatch?: never }
    | {
        apply(db: ProjectionDb, event: DecodedEvent): Promise<void>;
        /** optional: runs once per batch after the events, in the same transaction */
        afterBatch?(db: ProjectionDb, events: readonly DecodedEvent[]): Promise<void>;
        applyBatch?: never;
      }
  );

export function defineProjection(spec: ProjectionSpec): ProjectionDefinition {
  if (!/^[a-z][a-z0-9_]{0,40}$/.test(spec.name)) throw new Error(`projection name ${spec.name}: lower-case letters, digits and _ only`);
  for (const t of spec.tables) if (!/^[a-z][a-z0-9_]{0,60}$/.test(t)) throw new Error(`projection ${spec.name}: bad table name ${t}`);
  const { name, handles, streamPrefixes, tables, domains } = spec;
  if (spec.applyBatch) return { name, handles, streamPrefixes, tables, domains, applyBatch: spec.applyBatch, ...(spec.settle ? { settle: spec.settle } : {}) };
  const { apply, afterBatch } = spec;
  return {
    name,
    handles,
    streamPrefixes,
    tables,
    domains,
    async applyBatch(db, events) {
      for (const e of events) await apply(db, e);
      if (afterBatch && events.length) await afterBatch(db, events);
    },
  };
}

/** Whether events of this stream can concern the projection (used to decide what a command waits for). */
export function coversStream(def: ProjectionDefinition, streamId: string): boolean {
  return def.streamPrefixes.length === 0 || def.streamPrefixes.some((p) => streamId.startsWith(p));
}
