/**
 * The typed event registry. Every event type has a zod schema and a current version; events stored
 * under an older version are upcast on read (never rewritten), one version step at a time.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { AppError } from '../errors';
import type { EventMetadata, EventToAppend, RecordedEvent } from '../event-store/port';

export interface EventDefinition<T extends string = string, S extends z.ZodType = z.ZodType> {
  readonly type: T;
  readonly version: number;
  readonly schema: S;
  /** `upcasters[n]` turns data of version n into version n + 1 */
  readonly upcasters: Readonly<Record<number, (data: unknown) => unknown>>;
}

export function defineEvent<T extends string, S extends z.ZodType>(
  type: T,
  version: number,
  schema: S,
  upcasters: Record<number, (data: unknown) => unknown> = {},
): EventDefinition<T, S> {
  for (let v = 1; v < version; v++) {
    if (!upcasters[v]) throw new Error(`event ${type} v${version} has no upcaster from v${v}`);
  }
  return { type, version, schema, upcasters };
}

/** The union of `{type, data}` for a list of definitions. */
export type EventUnion<Defs extends readonly EventDefinition[]> = {
  [K in keyof Defs]: Defs[K] extends EventDefinition<infer T, infer S> ? { type: T; data: z.infer<S> } : never;
}[number];

/** An event as code writes and reads it: its type and its data. */
export interface AnyEvent {
  type: string;
  data: unknown;
}

/** Where and when a stored event was recorded: everything of it but its type and data. */
export interface EventEnvelope {
  id: string;
  streamId: string;
  revision: bigint;
  position: RecordedEvent['position'];
  metadata: EventMetadata;
  recordedAt: Date;
  /** the version it was stored under, before upcasting */
  storedVersion: number;
}

/**
 * A stored event, upcast to the current version and validated. Over a union of events (`E`, e.g. a
 * slice's `EventUnion`) it is a union too, one member per event type, so a check of `type` narrows
 * `data` to that type's.
 */
export type DecodedEvent<E extends AnyEvent = AnyEvent> = E extends AnyEvent ? EventEnvelope & { type: E['type']; data: E['data'] } : never;

export class EventRegistry {
  private readonly defs = new Map<string, EventDefinition>();

  constructor(definitions: readonly EventDefinition[] = []) {
    for (const d of definitions) this.register(d);
  }

  register(def: EventDefinition): this {
    if (this.defs.has(def.type)) throw new Error(`event type ${def.type} registered twice`);
    this.defs.set(def.type, def);
    return this;
  }

  has(type: string): boolean {
    return this.defs.has(type);
  }

  types(): string[] {
    return [...this.defs.keys()];
  }

  /** Validates new event data against the current schema and stamps the current version. */
  encode(type: string, data: unknown, metadata: EventMetadata, id: string = randomUUID()): EventToAppend {
    const def = this.require(type);
    const parsed = def.schema.safeParse(data);
    if (!parsed.success) {
      // A command produced an event its own schema rejects: a bug, not bad input.
      throw new AppError('EVENT.INVALID', 500, `event ${type} does not match its schema`, z.treeifyError(parsed.error));
    }
    return { id, type, version: def.version, data: parsed.data, metadata };
  }

  /**
   * Upcasts a stored event to the current version and validates it. `trustCurrent`: an event stored
   * at the current version is taken as it is, unvalidated: `encode` validated it on its way into the
   * log, and what it stored is the schema's own output. A rebuild's replay decodes so (it validated
   * every detail of the catalogue again, most of its time in JavaScript: docs/benchmarks.md); an
   * event of an older version is still upcast and validated.
   */
  decode(e: RecordedEvent, opts: { trustCurrent?: boolean } = {}): DecodedEvent {
    const def = this.require(e.type);
    if (e.version > def.version) {
      throw new AppError('EVENT.UNKNOWN_VERSION', 500, `event ${e.type} v${e.version} is newer than this code (v${def.version})`);
    }
    let data = e.data;
    for (let v = e.version; v < def.version; v++) data = def.upcasters[v]!(data);
    if (!(opts.trustCurrent && e.version === def.version)) {
      const parsed = def.schema.safeParse(data);
      if (!parsed.success) {
        throw new AppError('EVENT.INVALID', 500, `stored event ${e.id} (${e.type} v${e.version}) does not match its schema`, z.treeifyError(parsed.error));
      }
      data = parsed.data;
    }
    return {
      id: e.id,
      streamId: e.streamId,
      revision: e.revision,
      position: e.position,
      type: e.type,
      data,
      metadata: e.metadata,
      recordedAt: e.recordedAt,
      storedVersion: e.version,
    };
  }

  private require(type: string): EventDefinition {
    const def = this.defs.get(type);
    if (!def) throw new AppError('EVENT.UNKNOWN_TYPE', 500, `unknown event type ${type}`);
    return def;
  }
}

/** Metadata for a command: who, why, which request. */
export function eventMetadata(by: string, why: string, correlationId: string = randomUUID(), at: Date = new Date(), causationId?: string): EventMetadata {
  return causationId ? { by, why, correlationId, causationId, at: at.toISOString() } : { by, why, correlationId, at: at.toISOString() };
}
