/**
 * Shared set-up of the suites that drive the whole service (./sync.ts, ./organise.ts): a scratch
 * database, the supplier simulator on loopback, `createServices` with the projection runners
 * started, timed synchronisation runs, waiting for a projection to reach the head of the log, and a
 * client-side statement profile (which statements, how many round trips, on which connections).
 */
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { type EventLoopUtilization, performance } from 'node:perf_hooks';
import pg from 'pg';
import { loadConfig } from '../src/config';
import { closeServices, createServices, type Services } from '../src/main';
import { comparePositions, type LogPosition } from '../src/platform/event-store/port';
import type { Counts } from '../src/sync/diff';
import type { SyncKind, SyncRunView } from '../src/sync/runs';
import type { SyncParams } from '../src/sync/service';
import { startSimulator, type RunningSimulator } from '../src/sync/simulator';
import { type BenchContext, type ScratchDatabase, sleep } from './harness';

/** The simulator's catalog is a pure function of (links, seed). */
export const SIMULATOR_SEED = 1;
const BENCH_JWT_SECRET = 'bench-jwt-secret-0123456789abcdefghijklmn'; // 40 characters, never used to sign anything here

export interface CatalogBench {
  db: ScratchDatabase;
  sim: RunningSimulator;
  s: Services;
  links: number;
  /** CPU accounting of a phase (PostgreSQL backends only when the server is on this machine) */
  cpu: CpuMeter;
  close(): Promise<void>;
}

/**
 * A migrated scratch database, a simulator with `links` links on 127.0.0.1 (in this process), and the
 * service built on both by `createServices`, its projection runners started and leading.
 */
export async function startCatalogBench(ctx: BenchContext, tag: string, links: number): Promise<CatalogBench> {
  const db = await ctx.freshDatabase(tag);
  ctx.progress(`${tag}: generating the simulator's catalog of ${links} links`);
  const sim = await startSimulator({ links, seed: SIMULATOR_SEED, host: '127.0.0.1' });
  let s: Services | null = null;
  try {
    const config = loadConfig({
      NODE_ENV: 'production',
      DATABASE_URL: db.url,
      UPSTREAM_URL: sim.url,
      LOG_LEVEL: 'silent',
      JWT_SECRET: BENCH_JWT_SECRET,
      // What the runner's own configuration says (environment), so PROJECTION_BATCH_SIZE=… npm run bench works here too.
      PROJECTION_BATCH_SIZE: String(ctx.config.projections.batchSize),
      PROJECTION_POLL_MS: String(ctx.config.projections.pollMs),
      DATABASE_POOL_SIZE: String(ctx.config.databasePoolSize),
      UPSTREAM_PAGE_SIZE: String(ctx.config.upstreamPageSize),
      COMMAND_WAIT_MS: String(ctx.config.commandWaitMs),
    });
    // Warnings and errors of the code under test go to stderr (the config says 'silent' for its own logger).
    s = await createServices(config, ctx.log, db.url);
    await s.engine.startRunners();
    const deadline = Date.now() + 30_000;
    while (!(await s.engine.status()).every((p) => p.ledHere)) {
      if (Date.now() > deadline) throw new Error(`${tag}: the projection runners did not take the lead within 30 s`);
      await sleep(20);
    }
  } catch (e) {
    if (s) await closeServices(s).catch(() => undefined);
    await sim.close().catch(() => undefined);
    throw e;
  }
  const services = s;
  return {
    db,
    sim,
    s: services,
    links,
    cpu: new CpuMeter(services, ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(db.url).hostname)),
    async close() {
      await closeServices(services);
      await sim.close();
    },
  };
}

/** Events in the log, optionally only those of streams with one of these prefixes. */
export async function countEvents(s: Services, prefixes?: readonly string[]): Promise<number> {
  const r = prefixes
    ? await s.pool.query<{ n: string }>(`SELECT count(*) AS n FROM es_events WHERE stream_id LIKE ANY($1::text[])`, [prefixes.map((p) => p + '%')])
    : await s.pool.query<{ n: string }>(`SELECT count(*) AS n FROM es_events`);
  return Number(r.rows[0]!.n);
}

async function checkpointOf(s: Services, projection: string): Promise<{ position: LogPosition; error: unknown; applied: number }> {
  const r = await s.pool.query<{ commit_pos: string; prepare_pos: string; last_error: unknown; events_applied: string }>(
    `SELECT commit_pos, prepare_pos, last_error, events_applied FROM projection_checkpoints WHERE name = $1`,
    [projection],
  );
  const row = r.rows[0];
  if (!row) return { position: { commit: -1n, prepare: -1n }, error: null, applied: 0 };
  return { position: { commit: BigInt(row.commit_pos), prepare: BigInt(row.prepare_pos) }, error: row.last_error, applied: Number(row.events_applied) };
}

/**
 * Waits until the projection has applied everything in its streams that is in the log now.
 * Throws when it stops on a poison event or does not get there within `timeoutMs`.
 */
export async function waitCaughtUp(s: Services, projection: string, timeoutMs = 600_000): Promise<void> {
  const head = await s.store.headPosition(s.engine.definition(projection).streamPrefixes);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const cp = await checkpointOf(s, projection);
    if (cp.error) throw new Error(`projection ${projection} failed: ${JSON.stringify(cp.error)}`);
    if (comparePositions(cp.position, head) >= 0) return;
    if (Date.now() > deadline) throw new Error(`projection ${projection} did not reach the head of the log within ${timeoutMs / 1000} s`);
    await sleep(10);
  }
}

export interface TimedRun {
  run: SyncRunView;
  /** start → the run's answer (`finished`) */
  answeredSeconds: number;
  /** start → the read models caught up with everything the run appended (≥ answeredSeconds) */
  seconds: number;
  /** rows added to es_events by the run */
  eventsAppended: number;
  /** where the CPU went meanwhile */
  cpu: string;
}

/**
 * One synchronisation run, timed from `sync.start` until the run has answered and the projections
 * reading its streams have applied what it appended. (The run itself waits for them before answering,
 * but only up to COMMAND_WAIT_MS; waiting here as well makes the figure end-to-end in every case.)
 */
export async function timedSync(ctx: BenchContext, b: CatalogBench, kind: SyncKind, params: Omit<SyncParams, 'by'> = {}): Promise<TimedRun> {
  const { s } = b;
  const projections = kind === 'categories' ? ['catalog_tree'] : ['catalog'];
  const before = await countEvents(s);
  const cpu = await b.cpu.start();
  const t0 = performance.now();
  const { runId, finished } = await s.sync.start(kind, { ...params, by: 'system:bench' });
  const ticker = setInterval(() => {
    void (async () => {
      const r = await s.pool.query<{ done: number; total: number | null }>(`SELECT done, total FROM sync_runs WHERE id = $1`, [runId]);
      const cp = await checkpointOf(s, projections[0]!);
      const row = r.rows[0];
      ctx.progress(`  ${kind}: ${row?.done ?? '?'}/${row?.total ?? '?'} done, ${projections[0]} has applied ${cp.applied} events`);
    })().catch(() => undefined);
  }, 10_000);
  let run: SyncRunView;
  let answeredSeconds: number;
  try {
    run = await finished;
    answeredSeconds = (performance.now() - t0) / 1000;
    for (const p of projections) await waitCaughtUp(s, p);
  } finally {
    clearInterval(ticker);
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpuLine = await b.cpu.since(cpu);
  if (run.state !== 'succeeded') throw new Error(`${kind} sync ${run.state}: ${JSON.stringify(run.errors.slice(0, 3))}`);
  const eventsAppended = (await countEvents(s)) - before;
  ctx.progress(
    `  ${kind}: ${run.progress.done} items, answered after ${answeredSeconds.toFixed(2)} s, read models caught up after ${seconds.toFixed(2)} s, ` +
      `${eventsAppended} events appended; counts ${formatCounts(run.counts)}`,
  );
  ctx.progress(`  ${kind}: ${cpuLine}`);
  return { run, answeredSeconds, seconds, eventsAppended, cpu: cpuLine };
}

export function formatCounts(c: Counts): string {
  return Object.entries(c)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
}

/** Categories (and countries), the listing of all links, then the details of all of them: a synced catalog. */
export async function syncCatalog(
  ctx: BenchContext,
  b: CatalogBench,
  hooks: { before?(kind: SyncKind): void; after?(kind: SyncKind, r: TimedRun): void } = {},
): Promise<Record<SyncKind, TimedRun>> {
  const out: Partial<Record<SyncKind, TimedRun>> = {};
  for (const kind of ['categories', 'origin_goods', 'details'] as const) {
    hooks.before?.(kind);
    const r = await timedSync(ctx, b, kind);
    if (kind === 'origin_goods' && r.run.progress.done !== b.links) {
      throw new Error(`origin-goods sync listed ${r.run.progress.done} links, the simulator has ${b.links}`);
    }
    if (kind === 'details') {
      // Details are fetched for the links on sale (the listing marks the others delisted).
      const listed = Number((await b.s.pool.query<{ n: string }>(`SELECT count(*) AS n FROM origin_goods WHERE NOT delisted`)).rows[0]!.n);
      if (r.run.progress.done !== listed) throw new Error(`details sync handled ${r.run.progress.done} links, ${listed} are on sale`);
    }
    hooks.after?.(kind, r);
    out[kind] = r;
  }
  return out as Record<SyncKind, TimedRun>;
}

// ------------------------------------------------------------------------------ statement profile

interface StatementTally {
  calls: number;
  seconds: number;
}

/**
 * Every statement any `pg.Client` of this process sends (the pool's, the projection runners', the
 * listener's), tallied by connection role (application_name) and statement text. Client-side:
 * seconds are from send to answer on that connection, so concurrent connections add up beyond the
 * wall clock. Installed by patching `pg.Client.prototype.query` for the suite's duration.
 */
export class StatementProfile {
  private readonly tallies = new Map<string, StatementTally>();
  private original: typeof pg.Client.prototype.query | null = null;

  install(): void {
    if (this.original) return;
    const original = pg.Client.prototype.query;
    this.original = original;
    const tallies = this.tallies;
    const shortTexts = new Map<string, string>();
    const record = (client: pg.Client, text: string, values: unknown, t0: number) => {
      const role = ((client as unknown as { connectionParameters?: { application_name?: string } }).connectionParameters?.application_name ?? '?').replace(
        /^catalog-projection:/,
        'runner:',
      );
      let short = shortTexts.get(text);
      if (short === undefined) {
        short = text.replace(/\s+/g, ' ').trim().slice(0, 80);
        if (shortTexts.size < 10_000) shortTexts.set(text, short);
      }
      // The event store's reads: which stream prefixes (i.e. which projection runner) asked.
      const prefixes = text.includes('LIKE ANY($4::text[])') && Array.isArray(values) && Array.isArray(values[3]) ? ` ${JSON.stringify(values[3])}` : '';
      const key = `${role}\u0000${short}${prefixes}`;
      let t = tallies.get(key);
      if (!t) tallies.set(key, (t = { calls: 0, seconds: 0 }));
      t.calls++;
      t.seconds += (performance.now() - t0) / 1000;
    };
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    pg.Client.prototype.query = function (this: pg.Client, ...args: any[]): any {
      const cfg = args[0] as unknown;
      const text = typeof cfg === 'string' ? cfg : (cfg as { text?: unknown } | null)?.text;
      if (typeof text !== 'string' || typeof (cfg as { submit?: unknown }).submit === 'function') return (original as (...a: unknown[]) => unknown).apply(this, args);
      const values = Array.isArray(args[1]) ? args[1] : (cfg as { values?: unknown }).values;
      const t0 = performance.now();
      const cb = args.findIndex((a) => typeof a === 'function');
      if (cb >= 0) {
        const callback = args[cb] as (err: unknown, res: unknown) => void;
        args[cb] = (err: unknown, res: unknown) => {
          record(this, text, values, t0);
          callback(err, res);
        };
        return (original as (...a: unknown[]) => unknown).apply(this, args);
      }
      const out = (original as (...a: unknown[]) => unknown).apply(this, args) as unknown;
      if (out && typeof (out as Promise<unknown>).then === 'function') {
        (out as Promise<unknown>).then(
          () => record(this, text, values, t0),
          () => record(this, text, values, t0),
        );
      }
      return out;
    } as typeof pg.Client.prototype.query;
  }

  uninstall(): void {
    if (this.original) pg.Client.prototype.query = this.original;
    this.original = null;
  }

  reset(): void {
    this.tallies.clear();
  }

  /** Round trips and seconds per connection role. */
  byRole(): Map<string, StatementTally> {
    const out = new Map<string, StatementTally>();
    for (const [key, t] of this.tallies) {
      const role = key.split('\u0000')[0]!;
      const o = out.get(role) ?? { calls: 0, seconds: 0 };
      o.calls += t.calls;
      o.seconds += t.seconds;
      out.set(role, o);
    }
    return out;
  }

  /** The statements that took the most connection time, with calls per `unit` (e.g. per link). */
  top(n: number): { role: string; text: string; calls: number; seconds: number }[] {
    return [...this.tallies]
      .map(([key, t]) => {
        const [role, text] = key.split('\u0000') as [string, string];
        return { role, text, ...t };
      })
      .sort((a, b) => b.seconds - a.seconds)
      .slice(0, n);
  }

  /** One line: round trips per unit by role, e.g. "catalog 1.02/link (3.1 s), runner:catalog 1.10/link (4.2 s)". */
  summary(per: number, unit: string): string {
    return [...this.byRole()]
      .filter(([, t]) => t.calls > 0)
      .sort((a, b) => b[1].seconds - a[1].seconds)
      .map(([role, t]) => `${role} ${(t.calls / per).toFixed(2)}/${unit} (${t.calls} statements, ${t.seconds.toFixed(1)} s)`)
      .join('; ');
  }

  /**
   * The event store's `readAll` calls (what the projection runners read through the pool), by the
   * stream prefixes asked for, i.e. by projection: "category-%,country-% 3263 reads 21.0 s; …".
   */
  reads(): string {
    const out: string[] = [];
    for (const [key, t] of this.tallies) {
      const m = /\s(\[".*"\])$/.exec(key);
      if (!m || !key.includes('\u0000SELECT seq, ')) continue; // readAll, not lagAfter (status())
      const prefixes = (JSON.parse(m[1]!) as string[]).join(',');
      out.push(`${prefixes} ${t.calls} reads ${t.seconds.toFixed(1)} s`);
    }
    return out.join('; ') || 'none';
  }

  /** The top statements as progress lines (stderr), for finding where the time goes. */
  report(ctx: BenchContext, title: string, per: number, unit: string, n = 8): void {
    ctx.progress(`  profile ${title}: ${this.summary(per, unit)}`);
    for (const t of this.top(n)) {
      ctx.progress(`    ${t.seconds.toFixed(2).padStart(7)} s ${String(t.calls).padStart(7)} × (${(t.calls / per).toFixed(2)}/${unit}) [${t.role}] ${t.text}`);
    }
  }
}

// ------------------------------------------------------------------------------------- cpu meter

const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** utime + stime of a process in seconds, from /proc (null when not readable: not Linux, or another host). */
function procCpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** Busy and total jiffies of the whole machine, from /proc/stat. */
function machineTicks(): { busy: number; total: number } | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const n = line.trim().split(/\s+/).slice(1).map(Number);
    const idle = (n[3] ?? 0) + (n[4] ?? 0);
    const total = n.reduce((a, b) => a + b, 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

interface CpuSnapshot {
  wall: number;
  node: NodeJS.CpuUsage;
  elu: EventLoopUtilization;
  backends: Map<number, number> | null;
  machine: { busy: number; total: number } | null;
}

/**
 * Where the CPU went during a phase: this process (simulator, sync, supplier client, runners'
 * decoding: one event loop), the PostgreSQL backends serving this database (read from /proc, so only
 * when the server runs on this machine), and the whole machine (others' work included).
 */
export class CpuMeter {
  constructor(
    private readonly s: Services,
    private readonly local: boolean,
  ) {}

  private async backends(): Promise<Map<number, number> | null> {
    if (!this.local) return null;
    const r = await this.s.pool.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`);
    const out = new Map<number, number>();
    for (const { pid } of r.rows) {
      const cpu = procCpuSeconds(pid);
      if (cpu === null) return null;
      out.set(pid, cpu);
    }
    return out;
  }

  async start(): Promise<CpuSnapshot> {
    return { wall: performance.now(), node: process.cpuUsage(), elu: performance.eventLoopUtilization(), backends: await this.backends(), machine: machineTicks() };
  }

  /** One line describing the phase since `from`. */
  async since(from: CpuSnapshot): Promise<string> {
    const wall = (performance.now() - from.wall) / 1000;
    const node = process.cpuUsage(from.node);
    const elu = performance.eventLoopUtilization(from.elu);
    const parts = [`this process ${((node.user + node.system) / 1e6).toFixed(1)} s CPU (event loop ${(elu.utilization * 100).toFixed(0)}% busy)`];
    const now = await this.backends();
    if (from.backends && now) {
      let pgSeconds = 0;
      for (const [pid, cpu] of now) pgSeconds += cpu - (from.backends.get(pid) ?? 0); // a backend that started meanwhile: all of its time
      parts.push(`PostgreSQL backends of this database ${pgSeconds.toFixed(1)} s CPU`);
    }
    const m = machineTicks();
    if (from.machine && m && m.total > from.machine.total) {
      parts.push(`machine ${(((m.busy - from.machine.busy) / (m.total - from.machine.total)) * cpus().length).toFixed(2)} of ${cpus().length} CPUs busy`);
    }
    return `${wall.toFixed(1)} s wall: ${parts.join(', ')}`;
  }
}
