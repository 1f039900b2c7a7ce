/**
 * The projections of one process: their runners (worker role), their status, rebuild requests, and
 * the commit notifications every process listens to (cache bumps, command waits).
 */
import type { ProjectionState, ProjectionView } from '../../contract/projections';
import type { Pool, SessionLimits } from '../db';
import type { EventRegistry } from '../events/registry';
import { AppError } from '../errors';
import type { FenceView } from '../event-store/fence';
export type { FenceView } from '../event-store/fence';
import { type EventStore, type LogPosition, START, comparePositions, positionFromString, positionToString } from '../event-store/port';
import type { Logger } from '../log';
import type { PgListener } from '../pg-listener';
import { type ProjectionDefinition, coversStream } from './definition';
import { refreshPlannerStatistics } from '../planner-statistics';
import { retryFailed } from './checkpoints';
import { requestRebuild } from './rebuild';
import { PROJECTION_CHANNEL, type ProjectionCommitNotice, ProjectionRunner } from './runner';

export type { ProjectionState } from '../../contract/projections';

/** A projection's place without its lag (ProjectionEngine.progress). */
export interface ProjectionProgress {
  name: string;
  state: ProjectionState;
  position: LogPosition;
  eventsApplied: number;
  /** the live projection's poison event, else the one that ended the last rebuild */
  lastError: Record<string, unknown> | null;
  lastRebuildAt: string | null;
  rebuild: { eventsDone: number; startedAt: string } | null;
  /** whether a runner of this process leads it (another process may) */
  ledHere: boolean;
}

/** What operators see of a projection (ProjectionEngine.status, GET /projections), and whether a runner of this process leads it. */
export interface ProjectionStatus extends ProjectionView {
  ledHere: boolean;
}

export class ProjectionEngine {
  private readonly defs = new Map<string, ProjectionDefinition>();
  private runners: ProjectionRunner[] = [];

  constructor(
    private readonly deps: {
      pool: Pool;
      store: EventStore;
      registry: EventRegistry;
      databaseUrl: string;
      log: Logger;
      batchSize: number;
      pollMs: number;
      sessionLimits?: SessionLimits;
      onApplied?: (projection: string, events: number) => void;
    },
    definitions: readonly ProjectionDefinition[],
  ) {
    for (const d of definitions) {
      if (this.defs.has(d.name)) throw new Error(`projection ${d.name} defined twice`);
      this.defs.set(d.name, d);
    }
  }

  definitions(): ProjectionDefinition[] {
    return [...this.defs.values()];
  }

  definition(name: string): ProjectionDefinition {
    const d = this.defs.get(name);
    if (!d) throw AppError.notFound('PROJECTION.NOT_FOUND', `no projection named ${name}`);
    return d;
  }

  /** Worker role: run every projection (each waits for leadership if another process has it). */
  async startRunners(): Promise<void> {
    for (const d of this.defs.values()) {
      const runner = new ProjectionRunner({ definition: d, ...this.deps });
      this.runners.push(runner);
      await runner.start();
    }
  }

  /**
   * Wakes every runner of this process. Called on every projection commit: the transaction that just
   * ended may have been what held the read fence, so events another projection waited for may be
   * readable now (the appends' own notice came while they were not).
   */
  wakeAll(): void {
    for (const r of this.runners) r.wake();
  }

  async stopRunners(): Promise<void> {
    await Promise.all(this.runners.map((r) => r.stop()));
    this.runners = [];
  }

  /**
   * The planner's statistics of the tables of the projections reading these streams, after a bulk
   * step wrote to them (../planner-statistics.ts): those it rewrote enough of are analysed, and
   * vacuumed where dead rows outnumber live ones; and the log's, which the step grew.
   */
  async refreshStatistics(streamIds: readonly string[], changedRows: number, opts: { repeated?: boolean } = {}): Promise<void> {
    const tables = [...this.defs.values()].filter((d) => streamIds.some((s) => coversStream(d, s))).flatMap((d) => d.tables);
    await refreshPlannerStatistics(this.deps.pool, tables, { changedRows, repeated: opts.repeated, log: this.deps.log });
    // The step appended to the log too, at least an event for each row it changed: the log's
    // statistics are the store's to keep.
    await this.deps.store.refreshStatistics?.({ appended: changedRows, repeated: opts.repeated, log: this.deps.log });
  }

  async requestRebuild(name: string): Promise<void> {
    this.definition(name);
    await requestRebuild(this.deps.pool, name);
    this.runners.find((r) => r.name === name)?.wake();
  }

  async retry(name: string): Promise<boolean> {
    this.definition(name);
    const retried = await retryFailed(this.deps.pool, name);
    this.runners.find((r) => r.name === name)?.wake();
    return retried;
  }

  /** Whether the store's read fence holds committed events back, and who holds it; null for stores without one. */
  async fence(): Promise<FenceView | null> {
    const f = await this.deps.store.fence?.();
    if (!f) return null;
    return {
      heldBackEvents: f.heldBackEvents,
      heldBackSeconds: f.heldBackSince ? Math.max(0, Math.round((Date.now() - f.heldBackSince.getTime()) / 100) / 10) : 0,
      holder: f.holder,
    };
  }

  /**
   * Where each projection is, from the checkpoint rows alone (no lag): what a loop that polls while
   * projections replay (`rebuild --all`, a rebuild's progress bar) needs, at the cost of one query.
   */
  async progress(): Promise<ProjectionProgress[]> {
    return this.progressOf(await this.checkpointRows());
  }

  private progressOf(rows: Map<string, CheckpointRow>): ProjectionProgress[] {
    return [...this.defs.values()].map((d) => {
      const r = rows.get(d.name);
      return {
        name: d.name,
        state: r?.state ?? 'stopped',
        position: r ? { commit: BigInt(r.commit_pos), prepare: BigInt(r.prepare_pos) } : START,
        eventsApplied: Number(r?.events_applied ?? 0),
        lastError: r?.last_error ?? r?.rebuild_error ?? null,
        lastRebuildAt: r?.last_rebuild_at?.toISOString() ?? null,
        rebuild: r?.rb_started ? { eventsDone: Number(r.rb_done), startedAt: r.rb_started.toISOString() } : null,
        ledHere: this.runners.some((x) => x.name === d.name && x.isLeader()),
      };
    });
  }

  /**
   * GET /projections, `catalog projections status`, /metrics: the progress above and each one's lag.
   * The lag reads at most 10 000 events of the log per projection (LAG_WINDOW), so this stays cheap
   * at any lag; past that it is an estimate (`lagApproximate`, docs/api.md).
   */
  async status(): Promise<ProjectionStatus[]> {
    const out: ProjectionStatus[] = [];
    const rows = await this.checkpointRows();
    for (const p of this.progressOf(rows)) {
      const r = rows.get(p.name);
      const lag = await this.deps.store.lagAfter(p.position, this.definition(p.name).streamPrefixes);
      out.push({
        ...p,
        position: positionToString(p.position),
        lagEvents: lag.events,
        lagApproximate: lag.capped,
        lagSeconds: lag.oldestRecordedAt ? Math.max(0, (Date.now() - lag.oldestRecordedAt.getTime()) / 1000) : 0,
        rebuildError: r?.rebuild_error ?? null,
        retrying: r?.retrying ?? null,
      });
    }
    return out;
  }

  private async checkpointRows(): Promise<Map<string, CheckpointRow>> {
    const rows = await this.deps.pool.query<CheckpointRow>(
      `SELECT c.name, c.commit_pos, c.prepare_pos, c.events_applied, c.state, c.last_error, c.rebuild_error, c.retrying, c.last_rebuild_at,
              b.events_done AS rb_done, b.started_at AS rb_started
         FROM projection_checkpoints c LEFT JOIN projection_rebuilds b USING (name)`,
    );
    return new Map(rows.rows.map((r) => [r.name, r]));
  }
}

interface CheckpointRow {
  name: string;
  commit_pos: string;
  prepare_pos: string;
  events_applied: string;
  state: ProjectionState;
  last_error: Record<string, unknown> | null;
  rebuild_error: Record<string, unknown> | null;
  retrying: Record<string, unknown> | null;
  last_rebuild_at: Date | null;
  rb_done: string | null;
  rb_started: Date | null;
}

type Waiter = { target: LogPosition; names: string[]; resolve: (caughtUp: boolean) => void; fail: (e: AppError) => void };

/** A projection a command waits on stopped on a poison event: the command's change will not show. */
function projectionFailed(names: readonly string[]): AppError {
  return AppError.unavailable(
    'PROJECTION.FAILED',
    `the ${names.join(', ')} projection${names.length > 1 ? 's have' : ' has'} stopped on an event it cannot apply; the change is recorded but not shown until an operator fixes it (GET /projections)`,
  );
}

/**
 * Every process hears each projection commit: it bumps its cache domains first, then releases the
 * commands waiting for that position. A command therefore answers only once this process's cache
 * no longer holds what the command changed.
 */
export class ProjectionNotifications {
  private readonly positions = new Map<string, LogPosition>();
  private readonly failed = new Set<string>();
  private readonly listeners: ((n: ProjectionCommitNotice) => void)[] = [];
  private waiters: Waiter[] = [];
  private unsubscribe: (() => Promise<void>) | null = null;

  constructor(
    private readonly pool: Pool,
    private readonly listener: PgListener,
    private readonly definitions: readonly ProjectionDefinition[],
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    this.unsubscribe = await this.listener.subscribe(PROJECTION_CHANNEL, (payload) => this.receive(payload));
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
    for (const w of this.waiters) w.resolve(false);
    this.waiters = [];
  }

  /**
   * Called for each commit notice, before waiting commands are released. A notice with an empty
   * `projection` carries the database's domain versions after a re-read (notices may have been missed).
   */
  onCommit(fn: (n: ProjectionCommitNotice) => void): void {
    this.listeners.push(fn);
  }

  private receive(payload: string): void {
    if (!payload) {
      // The listener reconnected and may have missed notices: re-read the checkpoints.
      void this.refresh();
      return;
    }
    let notice: ProjectionCommitNotice;
    try {
      notice = JSON.parse(payload) as ProjectionCommitNotice;
    } catch {
      this.log.warn({ payload }, 'unreadable projection notice');
      return;
    }
    for (const fn of this.listeners) fn(notice);
    this.advance(notice.projection, positionFromString(notice.position));
  }

  private advance(name: string, pos: LogPosition): void {
    const known = this.positions.get(name);
    if (!known || comparePositions(pos, known) > 0) this.positions.set(name, pos);
    this.release();
  }

  private release(): void {
    this.waiters = this.waiters.filter((w) => {
      const done = w.names.every((n) => {
        const p = this.positions.get(n);
        return p !== undefined && comparePositions(p, w.target) >= 0;
      });
      if (done) w.resolve(true);
      return !done;
    });
  }

  private async refresh(): Promise<void> {
    const r = await this.pool
      .query<{ name: string; commit_pos: string; prepare_pos: string; failed: boolean }>(
        `SELECT name, commit_pos, prepare_pos, last_error IS NOT NULL AS failed FROM projection_checkpoints`,
      )
      .catch(() => null);
    if (!r) return;
    // Read after the checkpoints: the versions then include every bump those checkpoints committed.
    const d = await this.pool.query<{ domain: string; version: string }>(`SELECT domain, version FROM cache_domains`).catch(() => null);
    if (d) {
      const notice: ProjectionCommitNotice = { projection: '', position: '', domains: Object.fromEntries(d.rows.map((x) => [x.domain, x.version])) };
      for (const fn of this.listeners) fn(notice);
    }
    for (const row of r.rows) {
      if (row.failed) this.failed.add(row.name);
      else this.failed.delete(row.name);
    }
    this.waiters = this.waiters.filter((w) => {
      const stopped = w.names.filter((n) => this.failed.has(n));
      if (stopped.length) w.fail(projectionFailed(stopped));
      return !stopped.length;
    });
    for (const row of r.rows) this.advance(row.name, { commit: BigInt(row.commit_pos), prepare: BigInt(row.prepare_pos) });
  }

  /**
   * Waits (bounded) until every projection that reads `streamId` has committed `position`.
   * Resolves false on time-out: the caller answers anyway; the read may lag. Throws a 503
   * (`PROJECTION.FAILED`, naming it) when one of them has stopped on a poison event, before or while
   * waiting: it will not get there, and an answer must not claim a change that will not show.
   */
  async waitFor(position: LogPosition, streamIds: readonly string[], timeoutMs: number): Promise<boolean> {
    const names = this.definitions.filter((d) => streamIds.some((s) => coversStream(d, s))).map((d) => d.name);
    if (names.length === 0) return true;
    const failed = await this.pool.query<{ name: string }>(`SELECT name FROM projection_checkpoints WHERE last_error IS NOT NULL AND name = ANY($1)`, [names]);
    if (failed.rows.length) throw projectionFailed(failed.rows.map((f) => f.name));
    return new Promise<boolean>((resolve, reject) => {
      const timer = setTimeout(() => finish(false), timeoutMs);
      // Notices can be missed (listener reconnecting); re-read checkpoints now and then meanwhile.
      const poll = setInterval(() => void this.refresh(), 250);
      const stop = () => {
        clearTimeout(timer);
        clearInterval(poll);
        this.waiters = this.waiters.filter((w) => w !== waiter);
      };
      const finish = (ok: boolean) => {
        stop();
        resolve(ok);
      };
      const waiter: Waiter = {
        target: position,
        names,
        resolve: finish,
        fail: (e) => {
          stop();
          reject(e);
        },
      };
      this.waiters.push(waiter);
      void this.refresh();
    });
  }
}
