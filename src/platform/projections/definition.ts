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
  apply(db: ProjectionDb, event: DecodedEvent): Promise<void>;
  /** optional: runs once per batch after the events, in the same transaction (e.g. recompute what they touched) */
  afterBatch?(db: ProjectionDb, events: readonly DecodedEvent[]): Promise<void>;
}

export function defineProjection(def: ProjectionDefinition): ProjectionDefinition {
  if (!/^[a-z][a-z0-9_]{0,40}$/.test(def.name)) throw new Error(`projection name ${def.name}: lower-case letters, digits and _ only`);
  for (const t of def.tables) if (!/^[a-z][a-z0-9_]{0,60}$/.test(t)) throw new Error(`projection ${def.name}: bad table name ${t}`);
  return def;
}

/** Whether events of this stream can concern the projection (used to decide what a command waits for). */
export function coversStream(def: ProjectionDefinition, streamId: string): boolean {
  return def.streamPrefixes.length === 0 || def.streamPrefixes.some((p) => streamId.startsWith(p));
}
