/**
 * The whole pipeline, supplier to storefront, over HTTP only: the service runs as `npm start` runs it
 * (`node bin/catalog.js serve`, its defaults, a fresh database it migrates itself) against the
 * supplier simulator (`node bin/catalog.js simulator`), each in a child process of its own. The bench
 * is an HTTP client of both; it reads the scratch database only to count events, to fingerprint the
 * catalog's rows around a rebuild and to run the baselines.
 *
 * Steps (each ends when its run or request has answered and `GET /projections` shows every
 * projection running with no lag, polled every 200 ms):
 *   a  listing sync          b  details sync           c  listing re-sync, unchanged (0 events)
 *   d  details re-sync       e  organise               f  organise again (0 events)
 *   g  goods for every organised link (`POST /goods/batch`, 1 000 ids a request, two in flight)
 *   h  full rebuild of the `catalog` projection (rows identical before and after)
 *   i  cached public reads vs a bare node:http server replaying the same answers; the cold list
 *   j  admin write (price override) until the public detail shows it: p50/p99
 *
 * Baselines from the same run, each printed next to its figure with the ratio: the supplier floor
 * (listing pages and details fetched straight from the simulator), the step's events copied into a
 * bare table by one server-side `INSERT … SELECT` and by parametrised multi-row INSERTs of 1 000 rows,
 * and a bare node:http server in a process of its own. Peak RSS of the service and of the simulator
 * is sampled every 100 ms from /proc/<pid>/status and reported per step.
 *
 * `--pipeline-service-dir <checkout>` runs the service of another checkout (with its own
 * node_modules) against the same simulator, so one command measures before and after a change.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import readline from 'node:readline';
import autocannon from 'autocannon';
import pg from 'pg';
import { type Measure, type Ratio, type Suite, type Value, measure, median, ratio, sleep, value } from './harness';
import { PUBLIC_DOMAINS } from '../src/storefront/public-routes';
import { tableDigests } from '../src/platform/projections/fingerprint';

const ROOT = path.resolve(__dirname, '..');
const POLL_MS = 200;
const RSS_SAMPLE_MS = 100;
const BATCH = 1000;
/** Details fetched at once by the floor: what the service allows itself (docs/supplier.md). */
const DETAIL_CONCURRENCY = 8;
/** The catalog projection's tables, fingerprinted around its rebuild. */
const CATALOG_TABLES = ['origin_goods', 'families', 'family_custom_members', 'family_overrides', 'goods', 'good_origin_goods', 'family_stamps'];

// ------------------------------------------------------------------------------------ child processes

/** A child process whose unexpected exit rejects `died` at once, with its last lines of output. */
class Child {
  readonly proc: ChildProcess;
  readonly died: Promise<never>;
  private stopping = false;
  private exitedWith: string | null = null;
  private readonly tail: string[] = [];
  private readonly watchers = new Set<(line: string) => void>();

  constructor(
    readonly name: string,
    args: string[],
    opts: { cwd: string; env: NodeJS.ProcessEnv },
    private readonly echo: (line: string) => void,
  ) {
    this.proc = spawn(process.execPath, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let reject!: (e: Error) => void;
    this.died = new Promise<never>((_, r) => (reject = r));
    this.died.catch(() => undefined); // raced by every wait; unobserved until then
    const onLine = (line: string) => {
      this.tail.push(line);
      if (this.tail.length > 20) this.tail.shift();
      for (const w of this.watchers) w(line);
      // LOG_LEVEL=warn: what reaches here is worth seeing (cut: a stack can be long)
      if (!/^supplier simulator:/.test(line)) this.echo(`${this.name}: ${line.slice(0, 400)}`);
    };
    readline.createInterface({ input: this.proc.stdout! }).on('line', onLine);
    readline.createInterface({ input: this.proc.stderr! }).on('line', onLine);
    const gone = (why: string) => {
      if (this.exitedWith) return;
      this.exitedWith = why;
      if (!this.stopping) reject(new Error(`${this.name} ${why}; its last output:\n${this.tail.join('\n') || '(none)'}`));
    };
    this.proc.once('exit', (code, signal) => gone(`exited (code ${code}, signal ${signal})`));
    this.proc.once('error', (e) => gone(`could not run: ${e.message}`));
  }

  get pid(): number {
    return this.proc.pid ?? 0;
  }

  /** The first line of output matching `re` (or the child's death). */
  line(re: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
    return guarded(
      new Promise<RegExpExecArray>((resolve) => {
        const w = (l: string) => {
          const m = re.exec(l);
          if (m) {
            this.watchers.delete(w);
            resolve(m);
          }
        };
        this.watchers.add(w);
      }),
      [this],
      timeoutMs,
      `${this.name}: no line matching ${re}`,
    );
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.exitedWith || this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    const exited = new Promise<void>((r) => this.proc.once('exit', () => r()));
    this.proc.kill('SIGTERM');
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }

  /** Synchronous last resort, for process exit. */
  kill(): void {
    this.stopping = true;
    if (!this.exitedWith && this.proc.exitCode === null && this.proc.signalCode === null) this.proc.kill('SIGKILL');
  }
}

/** `p`, unless one of the children dies first or `timeoutMs` passes. */
async function guarded<T>(p: Promise<T>, children: readonly Child[], timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: timed out after ${(timeoutMs / 1000).toFixed(0)} s`)), timeoutMs);
  });
  try {
    return await Promise.race([p, timeout, ...children.map((c) => c.died)]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The node flags the checkout's `npm start` passes (the heap cap, for one), so the service runs here as
 * it runs there: `node --max-old-space-size=256 bin/catalog.js serve` gives ['--max-old-space-size=256'].
 */
function startNodeFlags(dir: string): string[] {
  const start = (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }).scripts?.start ?? '';
  const m = /^node\s+(.*?)\s*bin\/catalog\.js\b/.exec(start.trim());
  return m?.[1] ? m[1].split(/\s+/).filter((f) => f.startsWith('--')) : [];
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

// ------------------------------------------------------------------------------------------ memory

function procStatusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0; // gone, or not Linux
  }
}

/** user + system CPU of a process so far, in µs (/proc/<pid>/stat, clock ticks of 10 ms). */
function procCpuMicros(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return NaN;
  }
}

/** Peak VmRSS per process, over the whole run and over the current step. */
class RssSampler {
  private readonly timer: NodeJS.Timeout;
  private readonly stepPeak = new Map<string, number>();
  private readonly procs = new Map<string, number>();

  constructor() {
    this.timer = setInterval(() => this.sample(), RSS_SAMPLE_MS);
    this.timer.unref();
  }

  watch(name: string, pid: number): void {
    this.procs.set(name, pid);
  }

  private sample(): void {
    for (const [name, pid] of this.procs) {
      const kb = procStatusKb(pid, 'VmRSS');
      if (kb > (this.stepPeak.get(name) ?? 0)) this.stepPeak.set(name, kb);
    }
  }

  /** The peaks since the last call, in MB, and a fresh start. */
  step(): Record<string, number> {
    this.sample();
    const out = Object.fromEntries([...this.procs.keys()].map((n) => [n, (this.stepPeak.get(n) ?? 0) / 1024]));
    this.stepPeak.clear();
    return out;
  }

  /** VmHWM: the kernel's own peak over each process's life, in MB. */
  highWater(): Record<string, number> {
    return Object.fromEntries([...this.procs].map(([n, pid]) => [n, procStatusKb(pid, 'VmHWM') / 1024]));
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

// --------------------------------------------------------------------------------------- HTTP client

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * A node:http client with keep-alive and no timeout of its own: a synchronous organise of a large
 * catalogue answers after many minutes (fetch would give up on the headers after 300 s).
 */
class HttpClient {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  private readonly cookies = new Map<string, string>();
  private refresh: (() => Promise<void>) | null = null;

  constructor(
    readonly base: string,
    private readonly children: readonly Child[],
    private readonly timeoutMs: number,
  ) {}

  raw(method: string, pathname: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const p = new Promise<Answer>((resolve, reject) => {
      const req = http.request(
        new URL(pathname, this.base),
        {
          method,
          agent: this.agent,
          headers: {
            accept: 'application/json',
            ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}),
            ...(cookie ? { cookie } : {}),
            ...headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            for (const sc of res.headers['set-cookie'] ?? []) {
              const m = /^([^=;\s]+)=([^;]*)/.exec(sc);
              if (!m) continue;
              if (m[2] === '' || /max-age=0/i.test(sc)) this.cookies.delete(m[1]!);
              else this.cookies.set(m[1]!, m[2]!);
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
          });
        },
      );
      // A connection cut is usually a child dying: its exit, once seen, is the better message.
      req.on('error', (e) => void Promise.race([...this.children.map((c) => c.died), sleep(1000)]).then(() => reject(e), reject));
      req.end(payload);
    });
    return guarded(p, this.children, this.timeoutMs, `${method} ${pathname}`);
  }

  /** JSON of an answer with one of the `expect`ed statuses; one refresh and retry on a 401. */
  async json<T = unknown>(method: string, pathname: string, body?: unknown, expect: number[] = [200]): Promise<T> {
    let a = await this.raw(method, pathname, body);
    if (a.status === 401 && this.refresh) {
      await this.refresh();
      a = await this.raw(method, pathname, body);
    }
    if (!expect.includes(a.status)) throw new Error(`${method} ${pathname}: ${a.status} ${a.body.toString('utf8').slice(0, 300)}`);
    return (a.body.length ? JSON.parse(a.body.toString('utf8')) : null) as T;
  }

  async signIn(): Promise<void> {
    const credentials = { username: 'bench-admin', password: randomBytes(12).toString('base64url') };
    await this.json('POST', '/auth/register', credentials, [201]);
    await this.json('POST', '/auth/login', credentials);
    // The access token lives TOKEN_EXPIRES_IN (30 min); a long run outlives it.
    this.refresh = async () => {
      const a = await this.raw('POST', '/auth/refresh');
      if (a.status !== 200) throw new Error(`POST /auth/refresh: ${a.status} ${a.body.toString('utf8').slice(0, 300)}`);
    };
  }

  close(): void {
    this.agent.destroy();
  }
}

// ------------------------------------------------------------------------------- the service's view

interface ProjectionItem {
  name: string;
  state: string;
  lagEvents: number;
  lastError: unknown;
  lastRebuildAt: string | null;
}

interface SyncRun {
  runId: string;
  state: string;
  progress: { done: number; total: number | null };
  counts: Record<string, number>;
  errors: unknown[];
}

async function projections(api: HttpClient): Promise<ProjectionItem[]> {
  return (await api.json<{ items: ProjectionItem[] }>('GET', '/projections')).items;
}

/** Until every projection runs with no lag (polled every 200 ms); a failed one ends the wait. */
async function settled(api: HttpClient, accept: (items: ProjectionItem[]) => boolean = () => true): Promise<void> {
  for (;;) {
    const items = await projections(api);
    const failed = items.find((p) => p.state === 'failed');
    if (failed) throw new Error(`projection ${failed.name} failed: ${JSON.stringify(failed.lastError)}`);
    if (items.every((p) => p.state === 'running' && p.lagEvents === 0) && accept(items)) return;
    await sleep(POLL_MS);
  }
}

/** Starts a synchronisation and waits for its run to end (polled every 100 ms). */
async function syncRun(api: HttpClient, kind: 'categories' | 'origin-goods' | 'details'): Promise<SyncRun> {
  const { runId } = await api.json<{ runId: string }>('POST', `/sync/${kind}`, {}, [202]);
  for (;;) {
    const run = await api.json<SyncRun>('GET', `/sync/runs/${runId}`);
    if (run.state !== 'running') {
      if (run.state !== 'succeeded') throw new Error(`${kind} sync ended ${run.state}: ${JSON.stringify(run.errors.slice(0, 3))}`);
      return run;
    }
    await sleep(100);
  }
}

// ------------------------------------------------------------------------------------------- database

async function one<T>(pool: pg.Pool, sql: string, params: unknown[] = []): Promise<T> {
  return (await pool.query(sql, params)).rows[0] as T;
}

async function logHead(pool: pg.Pool): Promise<{ seq: number; events: number }> {
  const r = await one<{ seq: string; n: string }>(pool, `SELECT coalesce(max(seq), 0) AS seq, count(*) AS n FROM es_events`);
  return { seq: Number(r.seq), events: Number(r.n) };
}

/** Each catalog table's row count and a digest of its rows in a stable order. */
async function fingerprint(pool: pg.Pool): Promise<Map<string, string>> {
  const digests = await tableDigests(pool, CATALOG_TABLES);
  return new Map([...digests].map(([t, d]) => [t, `${d.rows} rows ${d.digest}`]));
}

const BARE_TABLE = 'pipeline_bench_bare_events';
const COLUMNS = 'event_id, stream_id, revision, type, version, data, metadata';

/**
 * The same rows (events with seq in (from, to]) written into a bare table (no key, no index) two
 * ways: one server-side INSERT … SELECT, and parametrised multi-row INSERTs of 1 000 rows sent from
 * here (rows read beforehand, outside the timer).
 */
async function appendBaselines(pool: pg.Pool, from: number, to: number): Promise<{ events: number; insertSelect: number; multiRow: number }> {
  await pool.query(`CREATE TABLE IF NOT EXISTS ${BARE_TABLE} (event_id uuid, stream_id text, revision bigint, type text, version integer, data jsonb, metadata jsonb)`);
  await pool.query(`TRUNCATE ${BARE_TABLE}`);
  const t0 = performance.now();
  const copied = await pool.query(`INSERT INTO ${BARE_TABLE} SELECT ${COLUMNS} FROM es_events WHERE seq > $1 AND seq <= $2`, [from, to]);
  const insertSelect = (performance.now() - t0) / 1000;
  await pool.query(`TRUNCATE ${BARE_TABLE}`);
  let multiRow = 0;
  let last = from;
  const c = await pool.connect();
  try {
    for (;;) {
      const chunk = await c.query<unknown[]>({
        text: `SELECT seq, event_id, stream_id, revision, type, version, data::text, metadata::text FROM es_events WHERE seq > $1 AND seq <= $2 ORDER BY seq LIMIT ${BATCH}`,
        values: [last, to],
        rowMode: 'array',
      });
      const rows = chunk.rows;
      if (!rows.length) break;
      last = Number(rows[rows.length - 1]![0]);
      const values: unknown[] = [];
      const tuples = rows.map((r) => {
        const base = values.length;
        values.push(...r.slice(1));
        return `(${Array.from({ length: 7 }, (_, k) => `$${base + k + 1}`).join(', ')})`;
      });
      const t1 = performance.now();
      await c.query(`INSERT INTO ${BARE_TABLE} (${COLUMNS}) VALUES ${tuples.join(', ')}`, values);
      multiRow += (performance.now() - t1) / 1000;
    }
  } finally {
    c.release();
  }
  await pool.query(`TRUNCATE ${BARE_TABLE}`);
  return { events: copied.rowCount ?? 0, insertSelect, multiRow };
}

// --------------------------------------------------------------------------------------- bare server

/**
 * The bare server: node:http answering each recorded path with the recorded status, headers and
 * bytes. Plain JavaScript in a process of its own, so it pays nothing for the service's loader.
 */
const BARE_SERVER = `
const http = require('node:http');
const recorded = new Map();
const server = http.createServer((req, res) => {
  const r = recorded.get(req.url);
  if (!r) { res.writeHead(404).end(); return; }
  res.writeHead(r.status, r.headers);
  res.end(r.body);
});
process.on('message', (m) => {
  if (m.kind === 'record') {
    for (const r of m.items) recorded.set(r.path, { status: r.status, headers: r.headers.flat(), body: Buffer.from(r.body, 'base64') });
    process.send({ kind: 'recorded', count: recorded.size });
  }
});
process.once('disconnect', () => process.exit(0));
server.listen(0, '127.0.0.1', () => process.send({ kind: 'ready', port: server.address().port }));
`;

class BareServer {
  readonly proc: ChildProcess;
  private readonly inbox: { kind: string; port?: number; count?: number }[] = [];
  private waiting: ((m: { kind: string; port?: number; count?: number }) => void) | null = null;

  constructor() {
    this.proc = spawn(process.execPath, ['-e', BARE_SERVER], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.proc.on('message', (m: { kind: string }) => {
      const w = this.waiting;
      this.waiting = null;
      if (w) w(m);
      else this.inbox.push(m);
    });
  }

  next(): Promise<{ kind: string; port?: number; count?: number }> {
    const m = this.inbox.shift();
    if (m) return Promise.resolve(m);
    return new Promise((resolve, reject) => {
      this.waiting = resolve;
      this.proc.once('exit', (code) => reject(new Error(`bare server exited (${code})`)));
    });
  }

  send(m: unknown): void {
    this.proc.send(m as object);
  }

  stop(): void {
    if (this.proc.exitCode === null) this.proc.kill('SIGKILL');
  }
}

// ------------------------------------------------------------------------------------------ figures

/**
 * A shopper on the storefront while a step runs: a cached public read (`GET /public/tree-order`,
 * cached under the `meta` domain alone, which no step of the pipeline bumps, so every read is a hit)
 * every `everyMs`, on a connection of its own, each sent on time whether or not the one before has
 * answered, so a stalled event loop shows as the wait of every read it held up. `stop()` answers
 * each read's latency in ms. (Countries were the probe until they counted families per country: they
 * are now cached under `goods` too, and every goods checkpoint made the probe's read a cold one.)
 */
class ShopperProbe {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  private readonly latencies: number[] = [];
  private readonly pending = new Set<Promise<void>>();
  private readonly timer: NodeJS.Timeout;

  /** `path`: another public read (the countries, voided by every goods checkpoint: a load under the step's load). */
  constructor(base: string, everyMs = 50, path = '/public/tree-order') {
    if (path === '/public/tree-order' && PUBLIC_DOMAINS.treeOrder.some((d) => d !== 'meta'))
      throw new Error(`the shopper's probe must stay a cache hit: /public/tree-order is now cached under ${PUBLIC_DOMAINS.treeOrder.join(', ')}`);
    const url = new URL(path, base);
    this.timer = setInterval(() => {
      const t0 = performance.now();
      const p = new Promise<void>((resolve) => {
        http
          .get(url, { agent: this.agent }, (res) => {
            res.resume();
            res.on('end', () => {
              this.latencies.push(performance.now() - t0);
              resolve();
            });
          })
          .on('error', () => resolve());
      });
      this.pending.add(p);
      void p.then(() => this.pending.delete(p));
    }, everyMs);
  }

  async stop(): Promise<number[]> {
    clearInterval(this.timer);
    await Promise.all(this.pending);
    this.agent.destroy();
    return this.latencies;
  }
}

/**
 * The service's event-loop delay since the last read (prom-client's `nodejs_eventloop_lag_*`, from
 * `perf_hooks.monitorEventLoopDelay`, which it resets at every scrape of /metrics): p99 and max, ms.
 */
async function loopDelay(base: string, token: string): Promise<{ p99: number; max: number }> {
  const body = await new Promise<string>((resolve, reject) => {
    http
      .get(new URL('/metrics', base), { headers: { authorization: `Bearer ${token}` } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      })
      .on('error', reject);
  });
  const read = (name: string) => Number(new RegExp(`^catalog_process_nodejs_eventloop_lag_${name}_seconds(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(body)?.[1] ?? NaN) * 1000;
  return { p99: read('p99'), max: read('max') };
}

const mb = (x: number) => `${x.toFixed(0)} MB`;
const ms = (s: number) => `${(s * 1000).toFixed(0)} ms`;

function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))]!;
}

interface Load {
  requests: number;
  seconds: number;
  cpuMicrosPerRequest: number;
  p99: number;
}

async function cannon(url: string, paths: string[], seconds: number, connections: number, pid: number): Promise<Load> {
  const cpu0 = procCpuMicros(pid);
  const r = await autocannon({ url, connections, duration: seconds, requests: paths.map((p) => ({ method: 'GET', path: p })) });
  const cpu1 = procCpuMicros(pid);
  if (r.non2xx || r.errors || r.timeouts) throw new Error(`${url}: ${r.non2xx} non-2xx answers, ${r.errors} errors, ${r.timeouts} timeouts`);
  return { requests: r.requests.total, seconds: r.duration, cpuMicrosPerRequest: (cpu1 - cpu0) / r.requests.total, p99: r.latency.p99 };
}

/** Rounds as one Measure: the median round's count; each round's seconds scaled to it (the rate's range). */
function roundsMeasure(label: string, rounds: Load[]): Measure {
  const count = median(rounds.map((r) => r.requests));
  return measure(
    label,
    count,
    rounds.map((r) => (count * r.seconds) / r.requests),
    'requests',
  );
}

// --------------------------------------------------------------------------------------------- suite

export const pipelineSuite: Suite = {
  name: 'pipeline',
  title: 'the whole pipeline over HTTP: sync, organise, goods, rebuild, public reads, admin writes, against the service as npm start runs it',
  flags: {
    links: { default: 3000, help: 'links the supplier simulator serves' },
    'pipeline-goods': { default: 0, help: 'cap on the goods batch-created (0: every organised link)' },
    'pipeline-goods-in-flight': { default: 2, help: 'goods batch requests kept in flight at once (1: each sent once the one before answered)' },
    'pipeline-rebuild': { default: 1, help: '1: time a full rebuild of the catalog projection; 0: skip it' },
    'pipeline-http-seconds': { default: 3, help: 'seconds of each public-read load round' },
    'pipeline-http-rounds': { default: 3, help: 'load rounds per target (service and bare server alternate)' },
    'pipeline-connections': { default: 50, help: 'connections of the public-read load' },
    'pipeline-cold-rounds': { default: 5, help: 'cold list reads (each after a goods write)' },
    'pipeline-writes': { default: 100, help: 'price overrides timed until the public detail shows them' },
    'pipeline-step-timeout': { default: 7200, help: 'seconds a step may take' },
    'pipeline-service-dir': { default: '', help: 'run the service of this checkout (its own npm ci done) instead of this one' },
    'pipeline-until': { default: '', help: 'last step to run (a letter, a–j; empty: all): b times the two first syncs alone' },
    'pipeline-service-node-flags': {
      default: '',
      help: 'node flags added to the service\'s, space-separated (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof": a profile per thread at its exit)',
    },
  },
  async run(ctx) {
    const links = ctx.flag('links');
    if (links < 50) throw new Error('pipeline: --links must be at least 50');
    const stepTimeoutMs = ctx.flag('pipeline-step-timeout') * 1000;
    const serviceDir = path.resolve(ctx.textFlag('pipeline-service-dir') || ROOT);
    const until = ctx.textFlag('pipeline-until').trim().toLowerCase();
    if (until && !/^[a-j]$/.test(until)) throw new Error('pipeline: --pipeline-until takes a step letter, a to j');
    /** Whether step `letter` runs (those after `--pipeline-until` do not). */
    const runs = (letter: string) => !until || letter <= until;
    const extraNodeFlags = ctx.textFlag('pipeline-service-node-flags').split(/\s+/).filter(Boolean);
    if (!existsSync(path.join(serviceDir, 'bin/catalog.js')) || !existsSync(path.join(serviceDir, 'node_modules'))) {
      throw new Error(`pipeline: ${serviceDir} is not a checkout with bin/catalog.js and node_modules (run npm ci there)`);
    }
    let serviceVersion: string;
    try {
      serviceVersion = execFileSync('git', ['-C', serviceDir, 'log', '-1', '--format=%h %s'], { encoding: 'utf8' }).trim().slice(0, 100);
    } catch {
      serviceVersion = '(not a git checkout)';
    }

    const rows: (Measure | Ratio | Value)[] = [];
    const notes: string[] = [`service: ${serviceDir === ROOT ? 'this checkout' : serviceDir}, ${serviceVersion}`];
    const children: Child[] = [];
    let bare: BareServer | null = null;
    let api: HttpClient | null = null;
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'catalog-pipeline-'));
    const rss = new RssSampler();
    const db = await ctx.emptyDatabase('pipeline');
    const pool = new pg.Pool({ connectionString: db.url, max: 2 });
    // Idle clients report through the pool, checked-out ones through themselves: both are heard.
    pool.on('error', (e) => ctx.progress(`bench database connection: ${e.message}`));
    pool.on('connect', (client) => client.on('error', (e) => ctx.progress(`bench database connection: ${e.message}`)));
    const killAll = () => {
      for (const c of children) c.kill();
      bare?.stop();
    };
    process.once('exit', killAll);
    let stopped = false;
    const stopAll = async () => {
      if (stopped) return;
      stopped = true;
      rss.stop();
      api?.close();
      bare?.stop();
      for (const c of [...children].reverse()) await c.stop().catch(() => undefined);
      await pool.end().catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
      process.removeListener('exit', killAll);
    };
    ctx.onCleanup(stopAll);

    const echo = (line: string) => ctx.progress(line);
    const wait = <T>(p: Promise<T>, what: string) => guarded(p, children, stepTimeoutMs, what);
    /** The figures of a step as they come, so an interrupted run still shows what it measured. */
    const say = (m: Measure | Ratio | Value) => {
      rows.push(m);
      const text =
        m.kind === 'value'
          ? m.value
          : m.kind === 'ratio'
            ? `${(m.subject.count / m.subject.seconds / (m.baseline.count / m.baseline.seconds)).toFixed(3)}×`
            : `${m.count} ${m.unit} in ${m.seconds.toFixed(2)} s, ${(m.count / m.seconds).toFixed(0)} ${m.unit}/s`;
      ctx.progress(`  ${m.label}: ${text}`);
    };
    const memory = (step: string) => {
      const p = rss.step();
      say(value(`${step}: peak RSS service / simulator`, `${mb(p.service ?? 0)} / ${mb(p.simulator ?? 0)}`));
    };
    /** The figures so far, when `--pipeline-until` stops the run before step `letter`. */
    const stopBefore = (letter: string) => {
      if (runs(letter)) return null;
      const hwm = rss.highWater();
      say(value('peak RSS over the steps run (VmHWM) service / simulator', `${mb(hwm.service ?? 0)} / ${mb(hwm.simulator ?? 0)}`));
      notes.push(`--pipeline-until ${until}: the steps after ${until} were not run`);
      return { rows, notes };
    };
    /** Events appended by a step, its rate next to the bare-table baselines of the same rows. */
    const appendFigures = async (step: string, s: { seconds: number; from: number; to: number; events: number }) => {
      if (s.events === 0) return;
      const subject = measure(`${step}: events appended, end to end`, s.events, s.seconds);
      const b = await appendBaselines(pool, s.from, s.to);
      const sel = measure(`${step}: same rows, INSERT … SELECT into a bare table`, b.events, b.insertSelect);
      const multi = measure(`${step}: same rows, multi-row INSERTs of ${BATCH}`, b.events, b.multiRow);
      for (const m of [subject, sel, ratio(`${step}: pipeline / INSERT … SELECT`, subject, sel), multi, ratio(`${step}: pipeline / multi-row INSERT`, subject, multi)]) say(m);
    };

    try {
      // --------------------------------------------------------------------------- start-up
      ctx.progress(`pipeline: simulator with ${links} links, service from ${serviceDir}`);
      const sim = new Child(
        'simulator',
        [path.join(ROOT, 'bin/catalog.js'), 'simulator', '--links', String(links), '--seed', '1', '--port', '0'],
        { cwd: ROOT, env: childEnv(dataDir, {}) },
        echo,
      );
      children.push(sim);
      rss.watch('simulator', sim.pid);
      const supplierUrl = (await sim.line(/ at (http:\/\/[^\s;]+)/, 300_000))[1]!;
      const port = await freePort();
      const metricsToken = randomBytes(16).toString('hex');
      const t0 = performance.now();
      const service = new Child(
        'service',
        [...startNodeFlags(serviceDir), ...extraNodeFlags, path.join(serviceDir, 'bin/catalog.js'), 'serve'],
        {
          cwd: serviceDir,
          env: childEnv(dataDir, {
            DATABASE_URL: db.url,
            UPSTREAM_URL: supplierUrl,
            JWT_SECRET: randomBytes(32).toString('base64url'),
            PORT: String(port),
            HOST: '127.0.0.1',
            LOG_LEVEL: 'warn',
            METRICS_TOKEN: metricsToken,
          }),
        },
        echo,
      );
      children.push(service);
      rss.watch('service', service.pid);
      api = new HttpClient(`http://127.0.0.1:${port}`, children, stepTimeoutMs);
      const base = api.base;
      for (;;) {
        const up = await wait(
          new Promise<boolean>((resolve) => {
            http
              .get(`${base}/healthz`, (res) => {
                res.resume();
                resolve(res.statusCode === 200);
              })
              .on('error', () => resolve(false));
          }),
          'service start',
        );
        if (up) break;
        await wait(sleep(100), 'service start');
      }
      say(value('service start (migrations, listen)', ms((performance.now() - t0) / 1000)));
      await api.signIn();
      await wait(syncRun(api, 'categories'), 'categories sync');
      await wait(settled(api), 'projections after the categories sync');
      rss.step();

      /**
       * A step: `fn`, then every projection running with no lag; seconds to both, events appended.
       * Meanwhile a shopper reads a cached public page every 50 ms (ShopperProbe); the step's figures
       * include that read's latency and the service's event-loop delay over the step.
       */
      const step = async <T>(label: string, fn: () => Promise<T>) => {
        ctx.progress(`step ${label}`);
        const before = await logHead(pool);
        await loopDelay(base, metricsToken); // resets the service's histogram: what follows is this step's
        const shopper = new ShopperProbe(base);
        const countries = new ShopperProbe(base, 50, '/public/countries');
        const s0 = performance.now();
        const result = await wait(fn(), label);
        const answered = (performance.now() - s0) / 1000;
        await wait(settled(api!), `${label}: projections catching up`);
        const seconds = (performance.now() - s0) / 1000;
        const latencies = await shopper.stop();
        const counted = await countries.stop();
        const loop = await loopDelay(base, metricsToken);
        const after = await logHead(pool);
        ctx.progress(`  ${label}: answered after ${answered.toFixed(2)} s, read models caught up after ${seconds.toFixed(2)} s, ${after.events - before.events} events`);
        const short = label.split(' ')[0]!;
        say(
          value(
            `${short} shopper: cached public read every 50 ms, p50 / p99 / max (${latencies.length} reads); event-loop delay p99 / max`,
            `${latencies.length ? `${percentile(latencies, 0.5).toFixed(1)} / ${percentile(latencies, 0.99).toFixed(1)} / ${Math.max(...latencies).toFixed(1)}` : '–'} ms; ${loop.p99.toFixed(1)} / ${loop.max.toFixed(1)} ms`,
          ),
        );
        say(
          value(
            `${short} shopper: GET /public/countries every 50 ms (family counts: voided by each goods checkpoint), p50 / p99 / max (${counted.length} reads)`,
            counted.length ? `${percentile(counted, 0.5).toFixed(1)} / ${percentile(counted, 0.99).toFixed(1)} / ${Math.max(...counted).toFixed(1)} ms` : '–',
          ),
        );
        return { result, answered, seconds, from: before.seq, to: after.seq, events: after.events - before.events };
      };

      // ---------------------------------------------------------------- a–d: synchronisation
      const a = await step('a listing sync', () => syncRun(api!, 'origin-goods'));
      if (a.result.progress.done !== links) throw new Error(`the listing sync saw ${a.result.progress.done} links, the simulator serves ${links}`);
      const listingFloor = await wait(supplierListing(supplierUrl), 'supplier listing floor');
      const aLinks = measure('a listing sync (until the read models show it)', links, a.seconds, 'links');
      const floorListing = measure('a supplier floor: every listing page straight from the simulator', links, listingFloor.seconds, 'links');
      for (const m of [aLinks, floorListing, ratio('a listing sync / supplier floor', aLinks, floorListing)]) say(m);
      await appendFigures('a', a);
      memory('a');

      const b = await step('b details sync', () => syncRun(api!, 'details'));
      const detailsFloor = await wait(supplierDetails(supplierUrl, listingFloor.onSale), 'supplier details floor');
      const bDetails = measure(`b details sync of the ${b.result.progress.done} links on sale`, b.result.progress.done, b.seconds, 'details');
      const floorDetails = measure(
        `b supplier floor: the same details straight from the simulator, ${DETAIL_CONCURRENCY} at once`,
        listingFloor.onSale.length,
        detailsFloor,
        'details',
      );
      for (const m of [bDetails, floorDetails, ratio('b details sync / supplier floor', bDetails, floorDetails)]) say(m);
      await appendFigures('b', b);
      memory('b');

      const beforeC = stopBefore('c');
      if (beforeC) return beforeC;
      const c = await step('c listing re-sync, supplier unchanged', () => syncRun(api!, 'origin-goods'));
      const cLinks = measure('c listing re-sync, unchanged supplier', links, c.seconds, 'links');
      for (const m of [cLinks, ratio('c listing re-sync / supplier floor', cLinks, floorListing)]) say(m);
      say(value('c events appended (expected 0)', String(c.events)));
      memory('c');

      const d = await step('d details re-sync', () => syncRun(api!, 'details'));
      const dDetails = measure('d details re-sync', d.result.progress.done, d.seconds, 'details');
      for (const m of [dDetails, ratio('d details re-sync / supplier floor', dDetails, floorDetails)]) say(m);
      say(value('d events appended', String(d.events)));
      memory('d');

      const beforeE = stopBefore('e');
      if (beforeE) return beforeE;
      // ------------------------------------------------------------------- e–f: organisation
      type Report = { parsed: number; created: number; attached: number; merged: number; unchanged: number };
      const e = await step('e organise', () => api!.json<Report>('POST', '/product-families/organize'));
      say(measure(`e organise (${e.result.created} families created, ${e.result.attached} links attached)`, links, e.seconds, 'links'));
      await appendFigures('e', e);
      memory('e');

      const f = await step('f organise again, nothing to do', () => api!.json<Report>('POST', '/product-families/organize'));
      say(value('f organise again: seconds / events appended (expected 0)', `${f.seconds.toFixed(2)} s / ${f.events}`));
      memory('f');

      const beforeG = stopBefore('g');
      if (beforeG) return beforeG;
      // ------------------------------------------------------------------------ g: goods
      const cap = ctx.flag('pipeline-goods');
      const ids: string[] = [];
      for (let page = 1; ; page++) {
        const r = await api.json<{ items: { id: string }[]; total: number }>('GET', `/origin-goods?organised=true&page=${page}&pageSize=${BATCH}`);
        ids.push(...r.items.map((x) => x.id));
        if (!r.items.length || ids.length >= r.total || (cap && ids.length >= cap)) break;
      }
      if (cap) ids.length = Math.min(ids.length, cap);
      let created = 0;
      // A request answers once the read models show its goods; with the next one already sent, the
      // service appends it while the projection applies the one before (docs/benchmarks.md).
      const inFlight = Math.max(1, ctx.flag('pipeline-goods-in-flight'));
      const g = await step(`g goods batch (${ids.length} links, ${BATCH} a request, ${inFlight} in flight)`, async () => {
        let next = 0;
        const sender = async () => {
          for (let i = next; i < ids.length; i = next) {
            next += BATCH;
            const r = await api!.json<{ created: unknown[] | number }>('POST', '/goods/batch', { originGoodIds: ids.slice(i, i + BATCH) }, [201]);
            created += Array.isArray(r.created) ? r.created.length : Number(r.created);
          }
        };
        await Promise.all(Array.from({ length: inFlight }, sender));
      });
      say(measure(`g goods batch-created (${created} created)`, ids.length, g.seconds, 'goods'));
      await appendFigures('g', g);
      memory('g');

      const beforeH = stopBefore('h');
      if (beforeH) return beforeH;
      // ---------------------------------------------------------------------- h: rebuild
      if (ctx.flag('pipeline-rebuild')) {
        const before = await fingerprint(pool);
        const head = await logHead(pool);
        const previous = (await projections(api)).find((p) => p.name === 'catalog')?.lastRebuildAt ?? null;
        const h = await step('h full rebuild of the catalog projection', async () => {
          await api!.json('POST', '/projections/catalog/rebuild', undefined, [202]);
          await settled(api!, (items) => {
            const cat = items.find((p) => p.name === 'catalog');
            return !!cat && cat.lastRebuildAt !== null && cat.lastRebuildAt !== previous;
          });
        });
        const after = await fingerprint(pool);
        const differ = [...new Set([...before.keys(), ...after.keys()])].filter((t) => before.get(t) !== after.get(t));
        const rebuilt = measure(`h catalog rebuild, the ${head.events} events of the log (until running with no lag)`, head.events, h.seconds);
        const b2 = await appendBaselines(pool, 0, head.seq);
        const sel = measure('h same rows, INSERT … SELECT into a bare table', b2.events, b2.insertSelect);
        const multi = measure(`h same rows, multi-row INSERTs of ${BATCH}`, b2.events, b2.multiRow);
        for (const m of [rebuilt, sel, ratio('h rebuild / INSERT … SELECT', rebuilt, sel), multi, ratio('h rebuild / multi-row INSERT', rebuilt, multi)]) say(m);
        say(value('h rows identical before and after', differ.length ? `NO: ${differ.join(', ')}` : `yes (${[...after.values()].map((v) => v.split(' ')[0]).join('+')} rows)`));
        memory('h');
        if (differ.length) throw new Error(`the rebuild changed the rows of ${differ.join(', ')}`);
      }

      const beforeI = stopBefore('i');
      if (beforeI) return beforeI;
      // ------------------------------------------------------------------- i: public reads
      ctx.progress('step i public reads');
      const familyIds: string[] = [];
      let families = 0;
      for (let page = 1; familyIds.length < 1000; page++) {
        const r = await api.json<{ items: { goodId: string }[]; total: number }>('GET', `/public/goods?page=${page}&pageSize=100`);
        families = r.total;
        familyIds.push(...r.items.map((x) => x.goodId));
        if (r.items.length < 100) break;
      }
      if (!familyIds.length) throw new Error('no public family to read');
      const detailPaths = familyIds.map((id) => `/public/goods/${id}`);
      const pages = Math.max(1, Math.min(100, Math.ceil(families / 20)));
      const listPaths = Array.from({ length: pages }, (_, i) => `/public/goods?page=${1 + Math.floor((i * Math.ceil(families / 20)) / pages)}&pageSize=20`);
      // Replayed as the service sent them, minus what node:http writes itself per response.
      const OWN = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
      const recorded: { path: string; status: number; headers: [string, string][]; body: string }[] = [];
      for (const p of [...detailPaths, ...listPaths]) {
        const r = await api.raw('GET', p, undefined, {});
        if (r.status !== 200) throw new Error(`GET ${p}: ${r.status}`);
        const headers = Object.entries(r.headers)
          .filter(([k]) => !OWN.has(k) && k !== 'set-cookie')
          .map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)] as [string, string]);
        recorded.push({ path: p, status: r.status, headers, body: r.body.toString('base64') });
      }
      bare = new BareServer();
      const barePort = (await wait(bare.next(), 'bare server start')).port!;
      bare.send({ kind: 'record', items: recorded });
      await wait(bare.next(), 'bare server recording');
      const bareUrl = `http://127.0.0.1:${barePort}`;
      const seconds = ctx.flag('pipeline-http-seconds');
      const connections = ctx.flag('pipeline-connections');
      const cpu: string[] = [];
      for (const [what, paths] of [
        ['GET /public/goods/:id', detailPaths],
        ['GET /public/goods?page=…&pageSize=20', listPaths],
      ] as const) {
        const bareRounds: Load[] = [];
        const serviceRounds: Load[] = [];
        // Alternating rounds, so a change in the machine's load hits both alike.
        for (let round = 0; round < ctx.flag('pipeline-http-rounds'); round++) {
          bareRounds.push(await wait(cannon(bareUrl, [...paths], seconds, connections, bare.proc.pid!), `${what} on the bare server`));
          serviceRounds.push(await wait(cannon(base, [...paths], seconds, connections, service.pid), `${what} on the service`));
        }
        const bm = roundsMeasure(`i ${what}, bare node:http, same bytes`, bareRounds);
        const sm = roundsMeasure(`i ${what}, service (cached), ${connections} connections`, serviceRounds);
        for (const m of [sm, bm, ratio(`i ${what}: service / bare`, sm, bm)]) say(m);
        const sc = median(serviceRounds.map((r) => r.cpuMicrosPerRequest));
        const bc = median(bareRounds.map((r) => r.cpuMicrosPerRequest));
        cpu.push(
          `${what}: CPU per request (median of rounds) service ${sc.toFixed(0)} µs, bare ${bc.toFixed(0)} µs (bare/service ${(bc / sc).toFixed(3)}); ` +
            `latency p99 service ${median(serviceRounds.map((r) => r.p99))} ms, bare ${median(bareRounds.map((r) => r.p99))} ms`,
        );
      }
      bare.stop();
      // The cold list: a goods write voids the list, the next read materialises it again.
      // Every good of a listed family renamed: its representative's name, so its list item, changes
      // and the list is written again (a write the list does not show answers the bytes it had).
      const goods = (await api.json<{ items: { id: string }[] }>('GET', `/goods?familyId=${familyIds[0]}&pageSize=100`)).items;
      if (!goods.length) throw new Error('no good to write');
      const cold: number[] = [];
      for (let round = 0; round < ctx.flag('pipeline-cold-rounds'); round++) {
        for (const good of goods) await api.json('PATCH', `/goods/${good.id}`, { name: `cold list round ${round} ${randomBytes(4).toString('hex')}` });
        const c0 = performance.now();
        const r = await api.raw('GET', '/public/goods?page=1');
        cold.push((performance.now() - c0) / 1000);
        if (r.status !== 200) throw new Error(`cold list: ${r.status}`);
      }
      say(
        value(
          `i cold list of ${families} families: first GET /public/goods?page=1 after a listed family's goods are renamed, median`,
          `${ms(median(cold))} (${cold.map(ms).join(', ')})`,
        ),
      );
      notes.push(...cpu.map((x) => `i ${x}`));
      await wait(settled(api), 'projections after the public reads');
      memory('i');

      const beforeJ = stopBefore('j');
      if (beforeJ) return beforeJ;
      // ------------------------------------------------------------------- j: admin writes
      ctx.progress('step j admin writes');
      type Cell = { size: string; color: string; printCount: string; craft: string; logistics: string; price: string };
      const writes = ctx.flag('pipeline-writes');
      const visible: number[] = [];
      const putOnly: number[] = [];
      let firstRead = 0;
      const matrices = new Map<string, Cell[]>();
      for (let i = 0, tried = 0; visible.length < writes && tried < writes + familyIds.length; tried++) {
        const id = familyIds[tried % familyIds.length]!;
        let cells = matrices.get(id);
        if (!cells) {
          cells = (await api.json<{ priceMatrix: { cells: Cell[] } | null }>('GET', `/product-families/${id}`)).priceMatrix?.cells ?? [];
          matrices.set(id, cells);
        }
        if (!cells.length) continue;
        const cell = cells[i % cells.length]!;
        let cents = 11 + (i % 80);
        if (cents % 10 === 0) cents++;
        const price = `${500 + i}.${cents}`;
        const key = { size: cell.size, color: cell.color, printCount: cell.printCount, craft: cell.craft, logistics: cell.logistics };
        i++;
        const w0 = performance.now();
        await wait(api.json('PUT', `/product-families/${id}/price-overrides`, { ...key, price }), 'price override');
        putOnly.push((performance.now() - w0) / 1000);
        for (let reads = 1; ; reads++) {
          const detail = await wait(api.json<{ priceMatrix: { cells: Cell[] } }>('GET', `/public/goods/${id}`), 'public detail');
          const shown = detail.priceMatrix.cells.find(
            (x) => x.size === key.size && x.color === key.color && x.printCount === key.printCount && x.craft === key.craft && x.logistics === key.logistics,
          );
          if (shown && Number(shown.price) === Number(price)) {
            visible.push((performance.now() - w0) / 1000);
            if (reads === 1) firstRead++;
            break;
          }
        }
      }
      if (!visible.length) throw new Error('no family with a price matrix to write to');
      say(value(`j price override PUT → public detail shows it, ${visible.length} writes: p50 / p99`, `${ms(percentile(visible, 0.5))} / ${ms(percentile(visible, 0.99))}`));
      say(value('j the PUT alone: p50 / p99', `${ms(percentile(putOnly, 0.5))} / ${ms(percentile(putOnly, 0.99))}`));
      say(value('j shown on the first public read after the PUT', `${firstRead} of ${visible.length}`));
      await wait(settled(api), 'projections after the writes');
      memory('j');

      const hwm = rss.highWater();
      say(value('peak RSS over the whole pipeline (VmHWM) service / simulator', `${mb(hwm.service ?? 0)} / ${mb(hwm.simulator ?? 0)}`));
      notes.push(
        `${links} links (seed 1); a step ends when its run or request answered and GET /projections shows every projection running with lagEvents 0 (polled every ${POLL_MS} ms, so a step can read up to ${POLL_MS} ms long)`,
        `public reads: autocannon, ${connections} connections, ${ctx.flag('pipeline-http-rounds')} alternating rounds of ${seconds} s per target; ${detailPaths.length} detail paths, ${listPaths.length} list pages; the bare server (a node:http process of its own) replays the service's status, headers and bytes per path`,
        `RSS sampled every ${RSS_SAMPLE_MS} ms from /proc/<pid>/status (VmRSS), VmHWM at the end`,
      );
      return { rows, notes };
    } catch (e) {
      const message = (e as Error).message;
      ctx.progress(`pipeline failed: ${(e as Error).stack ?? message}`);
      return { rows, notes, failure: message };
    } finally {
      await stopAll();
    }
  },
};

/** The child's environment: the bare minimum of this one, and the settings given. */
function childEnv(dataDir: string, vars: Record<string, string>): NodeJS.ProcessEnv {
  const keep = ['PATH', 'HOME', 'LANG', 'TZ', 'TMPDIR'];
  const env: NodeJS.ProcessEnv = Object.fromEntries(keep.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]]));
  return { ...env, NODE_ENV: 'production', DATA_DIR: dataDir, ...vars };
}

/** The floor of a listing pass: every page straight from the simulator, one after another. */
async function supplierListing(supplier: string): Promise<{ seconds: number; onSale: string[] }> {
  const agent = new http.Agent({ keepAlive: true });
  const get = (url: string) =>
    new Promise<{ items: { id: string; status: string }[]; nextCursor: string | null }>((resolve, reject) => {
      http
        .get(url, { agent }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            if (res.statusCode !== 200) reject(new Error(`GET ${url}: ${res.statusCode}`));
            else resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          });
          res.on('error', reject);
        })
        .on('error', reject);
    });
  const onSale: string[] = [];
  const t0 = performance.now();
  let cursor: string | null = null;
  do {
    const page = await get(`${supplier}/goods?limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    for (const item of page.items) if (item.status === 'ON_SALE') onSale.push(item.id);
    cursor = page.nextCursor;
  } while (cursor);
  const seconds = (performance.now() - t0) / 1000;
  agent.destroy();
  return { seconds, onSale };
}

/** The floor of a details pass: each detail straight from the simulator, 8 at once, body read. */
async function supplierDetails(supplier: string, ids: string[]): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: DETAIL_CONCURRENCY });
  const get = (url: string) =>
    new Promise<void>((resolve, reject) => {
      http
        .get(url, { agent }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            if (res.statusCode !== 200) reject(new Error(`GET ${url}: ${res.statusCode}`));
            else {
              JSON.parse(Buffer.concat(chunks).toString('utf8'));
              resolve();
            }
          });
          res.on('error', reject);
        })
        .on('error', reject);
    });
  const t0 = performance.now();
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < ids.length; i = next++) await get(`${supplier}/goods/${ids[i]}/detail`);
  };
  await Promise.all(Array.from({ length: DETAIL_CONCURRENCY }, lane));
  const seconds = (performance.now() - t0) / 1000;
  agent.destroy();
  return seconds;
}
