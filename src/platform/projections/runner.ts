/**
 * Runs one projection: reads the global log after its checkpoint and applies batches.
 *
 * - Exactly once: the handlers' writes and the checkpoint commit in one transaction, and the
 *   checkpoint moves by compare-and-set, so a batch delivered twice (a retry, a second runner)
 *   applies once.
 * - One leader per projection across processes: a session advisory lock held on the runner's own
 *   connection, the same connection its transactions use. If the connection dies, the lock and the
 *   open transaction die with it, and another process may take over.
 * - Batches are applied whole (the projection's `applyBatch`, set-based where it can be). When a batch
 *   fails for a reason other than a lost connection, the runner halves the batch until the failing
 *   event stands alone: that is the poison event. It stops the projection with the event and error
 *   recorded; every event before it is committed, nothing after it is applied. Never a silent skip.
 * - Rebuild without downtime (./rebuild.ts): between live batches the runner replays the log into
 *   shadow tables, through the same batch apply, and swaps them in when they have caught up.
 * - After each commit a NOTIFY names the cache domains the batch touched and their new versions.
 */
import type pg from 'pg';
import { type SessionLimits, createClient, ident } from '../db';
import { isConnectionError, isTransientDbError } from '../errors';
import type { EventRegistry, DecodedEvent } from '../events/registry';
import { type EventStore, type LogPosition, type RecordedEvent, START, comparePositions, positionToString } from '../event-store/port';
import type { Logger } from '../log';
import { ensureCheckpointRow, toPosition } from './checkpoints';
import type { BatchOutcome, ProjectionDefinition } from './definition';
import { refreshPlannerStatistics } from '../planner-statistics';
import { ShadowRebuild, createShadow, type ShadowTarget } from './rebuild';

export const PROJECTION_CHANNEL = 'catalog_projections';
export const LOCK_NAMESPACE = 72_001; // first key of the two-key advisory lock: "projection leaders"
/**
 * A rebuild reads this many times the live batch size per batch (and the next batch while it applies
 * one). Two, not more: at 100 000 links a batch holds thousands of synced details, and four times the
 * batch size took the service past 400 MB during a rebuild for no gain in speed.
 */
const REBUILD_BATCH_FACTOR = 2;

/** Versions of the `goods` domain whose changed families are kept (migration 034). */
const FAMILY_CHANGES_KEPT = 10_000;

export interface ProjectionCommitNotice {
  projection: string;
  position: string;
  /** new versions of the cache domains this commit voided */
  domains: Record<string, string>;
  rebuilt?: boolean;
}

export interface RunnerOptions {
  definition: ProjectionDefinition;
  store: EventStore;
  registry: EventRegistry;
  databaseUrl: string;
  batchSize: number;
  pollMs: number;
  log: Logger;
  /** limits of the runner's own session (defaults: DEFAULT_SESSION_LIMITS) */
  sessionLimits?: SessionLimits;
  /** hears each committed batch of the live projection: how many events it applied */
  onApplied?: (projection: string, events: number) => void;
}

/** A handler failed on this event for a reason other than a lost connection. */
export class PoisonEventError extends Error {
  constructor(
    readonly event: RecordedEvent,
    readonly index: number,
    override readonly cause: unknown,
  ) {
    super(`event ${event.id} (${event.type}) at ${positionToString(event.position)}: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'PoisonEventError';
  }
}

type Target = { kind: 'live' } | ShadowTarget;

interface Checkpoint {
  position: LogPosition;
  failed: boolean;
}

export class ProjectionRunner {
  private client: pg.Client | null = null;
  private leader = false;
  private stopping = false;
  private loopDone: Promise<void> | null = null;
  private wakeIdle: (() => void) | null = null;
  /** a wake-up that came while the runner was busy: the next idle wait is skipped */
  private wakePending = false;
  /**
   * Events per read while looking for the event a batch fails on (halved after each failure, doubled
   * after each success); null otherwise: live reads take the configured batch size, a rebuild's reads
   * REBUILD_BATCH_FACTOR times that. Kept apart from the batch size so a narrowed limit that happens
   * to equal it is not taken for "not narrowed" (a rebuild would read the failing batch again).
   */
  private narrowed: number | null = null;
  /** the next batch of the live tables and of a rebuild, read while the one before it was applied */
  private readonly prefetched: Record<Target['kind'], { after: LogPosition; limit: number; streams: string; events: Promise<RecordedEvent[]> } | null> = {
    live: null,
    shadow: null,
  };
  private unwatch: (() => Promise<void>) | null = null;
  private readonly handles: Set<string>;
  private readonly log: Logger;
  private readonly rebuild: ShadowRebuild;

  constructor(private readonly opts: RunnerOptions) {
    this.handles = new Set(opts.definition.handles);
    this.log = opts.log.child({ projection: opts.definition.name });
    this.rebuild = new ShadowRebuild(
      { definition: opts.definition, store: opts.store, log: this.log },
      {
        // Nobody waits on a rebuild's batches, so they are larger (until a failing batch shrinks them).
        read: (after, upTo, prefixes) => this.read('shadow', after, upTo, this.narrowed ?? this.opts.batchSize * REBUILD_BATCH_FACTOR, prefixes),
        apply: (from, events, target) => this.applyOrFail(from, events, target),
        skipTo: (from, to, target) => this.skipTo(from, to, target),
        inTransaction: (fn) => this.inTransaction(fn),
        inOtherTransaction: (fn) => this.inOtherTransaction(fn),
        notify: (db, position, domains, rebuilt) => this.notify(db, position, domains, rebuilt),
        refreshStatistics: async (tables, at) => {
          if (!this.client) return;
          await refreshPlannerStatistics(
            this.client,
            tables,
            at === 'swapped' ? { all: true, vacuum: true, log: this.log } : { schema: at.schema, ownWrites: true, repeated: true, log: this.log },
          );
        },
        refreshLogStatistics: async () => {
          await this.opts.store.refreshStatistics?.({ repeated: true, log: this.log });
        },
      },
    );
  }

  get name(): string {
    return this.opts.definition.name;
  }

  isLeader(): boolean {
    return this.leader;
  }

  async start(): Promise<void> {
    if (this.loopDone) return;
    this.stopping = false;
    this.unwatch = await this.opts.store.watch(() => this.wake(), this.opts.definition.streamPrefixes);
    this.loopDone = this.loop();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.loopDone;
    this.loopDone = null;
    await this.unwatch?.();
    this.unwatch = null;
    await this.disconnect();
  }

  /** Ends an idle wait early, or the next one if the runner is busy: new events, a rebuild request, a stop. */
  wake(): void {
    this.wakePending = true;
    this.wakeIdle?.();
  }

  private idle(ms: number): Promise<void> {
    if (this.wakePending) {
      this.wakePending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        resolve();
      }
      this.wakeIdle = () => {
        this.wakeIdle = null;
        this.wakePending = false;
        done();
      };
    });
  }

  private async loop(): Promise<void> {
    let backoff = 100;
    while (!this.stopping) {
      try {
        if (!this.client) {
          await this.connect();
          backoff = 100; // the database answers again: the next failure starts the backoff afresh
        }
        if (!this.leader) {
          this.leader = await this.tryLead();
          if (!this.leader) {
            await this.idle(this.opts.pollMs * 2);
            continue;
          }
          this.log.info('leading projection');
        }
        // Whatever arrives from here on is seen by this step (it reads the head first) or wakes the next.
        this.wakePending = false;
        const worked = await this.step();
        if (backoff > 100) await this.clearRetry();
        backoff = 100;
        if (!worked) await this.idle(this.opts.pollMs);
      } catch (e) {
        if (this.stopping) break;
        // Retried with back-off, never poison: a lost connection reconnects (and leadership is taken
        // again); anything else keeps the connection and the lead. The retry is recorded on the
        // checkpoint (GET /projections `retrying`), so a loop that does not end is seen.
        const lost = isConnectionError(e) || !this.client;
        this.log.warn({ err: e }, lost ? 'projection lost its connection; reconnecting' : 'projection step failed; retrying');
        if (lost) await this.disconnect();
        else await this.noteRetry(e).catch(() => undefined);
        await this.idle(backoff);
        backoff = Math.min(backoff * 2, 10_000);
      }
    }
  }

  private retries = 0;

  /** Records a failed attempt on the checkpoint row: what failed, how often, since when. */
  private async noteRetry(e: unknown): Promise<void> {
    this.retries++;
    const err = e as { code?: unknown; message?: unknown };
    const retrying = { code: typeof err.code === 'string' ? err.code : null, message: String(err.message ?? e), attempts: this.retries };
    await this.client!.query(
      `UPDATE projection_checkpoints SET retrying = jsonb_build_object('since', coalesce(retrying->>'since', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'))) || $2::jsonb
        WHERE name = $1`,
      [this.name, retrying],
    );
  }

  private async clearRetry(): Promise<void> {
    this.retries = 0;
    await this.client?.query(`UPDATE projection_checkpoints SET retrying = NULL WHERE name = $1 AND retrying IS NOT NULL`, [this.name]);
  }

  private async connect(): Promise<void> {
    const client = createClient(this.opts.databaseUrl, `catalog-projection:${this.name}`, this.opts.sessionLimits);
    // Without a listener an 'error' event would crash the process; the next query reports it instead.
    client.on('error', (e) => this.log.warn({ err: e }, 'projection connection error'));
    await client.connect();
    this.client = client;
    await ensureCheckpointRow(client, this.name);
  }

  private async disconnect(): Promise<void> {
    const c = this.client;
    this.client = null;
    this.leader = false;
    if (c) await c.end().catch(() => undefined);
  }

  private async tryLead(): Promise<boolean> {
    const r = await this.client!.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok`, [LOCK_NAMESPACE, this.name]);
    return r.rows[0]!.ok;
  }

  /** One unit of work. Returns false when there was nothing to do. */
  async step(): Promise<boolean> {
    // The head is read first, and reads go no further than it: everything up to it has then been
    // seen, so when none of it belongs to this projection the checkpoint can move there. Otherwise
    // a projection whose streams are quiet would scan the whole log again after every append.
    const head = await this.opts.store.headPosition();
    const cp = await this.readCheckpoint();
    if (!cp.failed) {
      const events = await this.read('live', cp.position, head, Math.min(this.narrowed ?? this.opts.batchSize, this.opts.batchSize));
      if (events.length) {
        await this.applyOrFail(cp.position, events, { kind: 'live' });
        return true;
      }
      if (comparePositions(head, cp.position) > 0) {
        await this.skipTo(cp.position, head, { kind: 'live' });
        return true;
      }
    }
    // Nothing live to do (or the live side is stopped on a poison event): a step of a requested rebuild.
    return this.rebuild.step(this.client!, head, cp.failed);
  }

  /**
   * Events after `after`, no further than `upTo`. A full batch starts the read of the next one, which
   * then runs on the pool while this one is applied on the runner's connection; the next step uses it
   * if it starts where the checkpoint then is (an empty one is read again: it may have been held back).
   */
  private async read(
    target: Target['kind'],
    after: LogPosition,
    upTo: LogPosition,
    limit: number,
    streamPrefixes: readonly string[] = this.opts.definition.streamPrefixes,
  ): Promise<RecordedEvent[]> {
    const ahead = this.prefetched[target];
    this.prefetched[target] = null;
    const streams = streamPrefixes.join('\n');
    let events: RecordedEvent[] | null = null;
    if (ahead && ahead.limit === limit && ahead.streams === streams && comparePositions(ahead.after, after) === 0) {
      events = await ahead.events.catch(() => null);
    }
    if (!events?.length) events = await this.readAll(after, upTo, limit, streamPrefixes);
    if (events.length === limit) {
      const next = events[events.length - 1]!.position;
      const read = this.readAll(next, upTo, limit, streamPrefixes);
      read.catch(() => undefined); // handled when used; an unused failed read is no error
      this.prefetched[target] = { after: next, limit, streams, events: read };
    }
    return events;
  }

  private readAll(after: LogPosition, upTo: LogPosition, limit: number, streamPrefixes: readonly string[]): Promise<RecordedEvent[]> {
    return this.opts.store.readAll({ after, upTo, limit, streamPrefixes });
  }

  /** Moves a checkpoint over events that are none of this projection's (compare-and-set, nothing applied). */
  private async skipTo(from: LogPosition, to: LogPosition, target: Target): Promise<void> {
    await this.inTransaction(async (db) => {
      if (target.kind === 'shadow' && target.fresh && comparePositions(from, START) === 0) await createShadow(db, target.schema, this.opts.definition.tables);
      await db.query(
        `UPDATE ${target.kind === 'live' ? 'projection_checkpoints' : 'projection_rebuilds'} SET commit_pos = $2, prepare_pos = $3
          WHERE name = $1 AND commit_pos = $4 AND prepare_pos = $5`,
        [this.name, to.commit.toString(), to.prepare.toString(), from.commit.toString(), from.prepare.toString()],
      );
    });
  }

  private async readCheckpoint(): Promise<Checkpoint> {
    const r = await this.client!.query<{ commit_pos: string; prepare_pos: string; failed: boolean }>(
      `SELECT commit_pos, prepare_pos, last_error IS NOT NULL AS failed FROM projection_checkpoints WHERE name = $1`,
      [this.name],
    );
    const row = r.rows[0]!;
    return { position: toPosition(row.commit_pos, row.prepare_pos), failed: row.failed };
  }

  private async applyOrFail(from: LogPosition, events: RecordedEvent[], target: Target): Promise<void> {
    try {
      await this.applyBatch(from, events, target);
      if (this.narrowed !== null) this.narrowed = this.narrowed * 2 >= this.opts.batchSize ? null : this.narrowed * 2;
    } catch (e) {
      if (e instanceof FailedBatch) {
        // Look for the event that fails: the next reads take half as many, until it stands alone.
        this.narrowed = Math.max(1, Math.ceil(events.length / 2));
        this.log.warn({ err: e.cause, events: events.length }, 'a batch failed; applying smaller batches to find the event that fails');
        return;
      }
      // A batch that ran into the statement timeout is retried smaller (a retry, not poison).
      if ((e as { code?: unknown }).code === '57014' && events.length > 1) this.narrowed = Math.max(1, Math.ceil(events.length / 2));
      if (!(e instanceof PoisonEventError)) throw e;
      await this.recordPoison(e, target);
    }
  }

  /**
   * Applies a batch that starts right after `from`. Returns false, changing nothing, when the
   * checkpoint is no longer at `from` (the batch was already applied).
   */
  async applyBatch(from: LogPosition, events: readonly RecordedEvent[], target: Target = { kind: 'live' }): Promise<boolean> {
    if (events.length === 0) return false;
    const def = this.opts.definition;
    const last = events[events.length - 1]!;
    return this.inTransaction(async (db) => {
      if (target.kind === 'shadow') {
        if (target.fresh && comparePositions(from, START) === 0) await createShadow(db, target.schema, this.opts.definition.tables);
        await db.query(`SELECT set_config('search_path', $1, true)`, [`${ident(target.schema)}, public`]);
      }
      const handled: DecodedEvent[] = [];
      let outcome: BatchOutcome | void = undefined;
      try {
        // A rebuild's replay trusts events stored at their current version (validated when appended).
        const trustCurrent = target.kind === 'shadow';
        for (const e of events) if (this.handles.has(e.type)) handled.push(this.opts.registry.decode(e, { trustCurrent }));
        if (handled.length) outcome = await def.applyBatch(db, handled, { deferDerived: target.kind === 'shadow' && target.deferDerived });
      } catch (err) {
        if (isTransientDbError(err)) throw err;
        if (events.length > 1) throw new FailedBatch(err);
        throw new PoisonEventError(events[0]!, 0, err);
      }
      const table = target.kind === 'live' ? 'projection_checkpoints' : 'projection_rebuilds';
      const moved = await db.query(
        `UPDATE ${table}
            SET commit_pos = $2, prepare_pos = $3,
                ${target.kind === 'live' ? 'events_applied = events_applied + $6, last_event_at = $7, updated_at = now()' : 'events_done = events_done + $6'}
          WHERE name = $1 AND commit_pos = $4 AND prepare_pos = $5`,
        [
          this.name,
          last.position.commit.toString(),
          last.position.prepare.toString(),
          from.commit.toString(),
          from.prepare.toString(),
          events.length,
          ...(target.kind === 'live' ? [last.recordedAt] : []),
        ],
      );
      if (moved.rowCount === 0) throw new StaleBatch();
      if (target.kind === 'live') await this.notify(db, last.position, handled.length && !outcome?.unseen ? def.domains : [], false, outcome?.families);
      return true;
    })
      .then((applied) => {
        if (applied && target.kind === 'live') this.opts.onApplied?.(this.name, events.length);
        return applied;
      })
      .catch((e) => {
        if (e instanceof StaleBatch) return false;
        throw e;
      });
  }

  /**
   * Bumps the domains, records which families the commit may have changed under its new `goods`
   * version (BatchOutcome; a rebuild's swap: any), and NOTIFYs.
   */
  private async notify(db: pg.ClientBase, position: LogPosition, domains: readonly string[], rebuilt = false, families?: readonly string[]): Promise<void> {
    const versions: Record<string, string> = {};
    if (domains.length) {
      const r = await db.query<{ domain: string; version: string }>(`UPDATE cache_domains SET version = version + 1 WHERE domain = ANY($1::text[]) RETURNING domain, version`, [
        domains,
      ]);
      for (const row of r.rows) versions[row.domain] = row.version;
    }
    if (versions.goods !== undefined) {
      const ownsFamilies = this.opts.definition.tables.includes('families');
      const changed = !ownsFamilies ? [] : rebuilt ? null : (families ?? null);
      // Old rows go as new ones come: a reader this far behind reads every family again.
      await db.query(
        `WITH gone AS (DELETE FROM family_changes WHERE goods_version <= $1::bigint - ${FAMILY_CHANGES_KEPT})
         INSERT INTO family_changes (goods_version, family_ids) VALUES ($1, $2::bigint[])`,
        [versions.goods, changed],
      );
    }
    const notice: ProjectionCommitNotice = { projection: this.name, position: positionToString(position), domains: versions };
    if (rebuilt) notice.rebuilt = true;
    // NOTIFY is transactional: listeners hear it only if, and once, this batch commits.
    await db.query(`SELECT pg_notify($1, $2)`, [PROJECTION_CHANNEL, JSON.stringify(notice)]);
  }

  private async recordPoison(e: PoisonEventError, target: Target): Promise<void> {
    const error = {
      eventId: e.event.id,
      type: e.event.type,
      streamId: e.event.streamId,
      position: positionToString(e.event.position),
      message: e.cause instanceof Error ? e.cause.message : String(e.cause),
      during: target.kind === 'live' ? 'live' : 'rebuild',
      at: new Date().toISOString(),
    };
    if (target.kind === 'live') {
      this.log.error({ error }, 'poison event: projection stopped');
      await this.inTransaction(async (db) => {
        await db.query(`UPDATE projection_checkpoints SET state = 'failed', last_error = $2, updated_at = now() WHERE name = $1`, [this.name, error]);
      });
      return;
    }
    await this.rebuild.abandon(error, target);
  }

  /** `fn` in a transaction on a connection of its own (opened for it, closed after), beside the runner's. */
  private async inOtherTransaction<T>(fn: (db: pg.Client) => Promise<T>): Promise<T> {
    const db = createClient(this.opts.databaseUrl, `catalog-projection:${this.name}:2`, this.opts.sessionLimits);
    db.on('error', (e) => this.log.warn({ err: e }, 'projection connection error'));
    await db.connect();
    try {
      return await transaction(db, fn);
    } finally {
      await db.end().catch(() => undefined);
    }
  }

  private async inTransaction<T>(fn: (db: pg.Client) => Promise<T>): Promise<T> {
    const db = this.client;
    if (!db) throw new Error('projection runner is not connected');
    return transaction(db, fn);
  }
}

/** `fn` between BEGIN and COMMIT on `db`, rolled back when it throws. */
async function transaction<T>(db: pg.Client, fn: (db: pg.Client) => Promise<T>): Promise<T> {
  await db.query('BEGIN');
  try {
    const out = await fn(db);
    await db.query('COMMIT');
    return out;
  } catch (e) {
    await db.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}

class StaleBatch extends Error {}

/** A batch of more than one event failed: which event fails is not known yet. */
class FailedBatch extends Error {
  constructor(override readonly cause: unknown) {
    super('batch failed');
  }
}
