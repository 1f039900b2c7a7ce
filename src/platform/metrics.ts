/**
 * Prometheus metrics of a process (prom-client), served at GET /metrics to a scraper that presents
 * METRICS_TOKEN as a bearer token (unset: no /metrics at all). Counters are kept where things
 * happen (appends, applied batches, synchronisation runs, requests); what a query can tell (lag,
 * the read fence, poison and retry states, the public cache's counters) is read at scrape time.
 */
import { timingSafeEqual } from 'node:crypto';
import { getHeapStatistics } from 'node:v8';
import { isMainThread } from 'node:worker_threads';
import { Router } from 'express';
import client from 'prom-client';
import type { PublicCache } from './cache/public-cache';
import type { ProjectionEngine } from './projections/engine';
import { errorBody } from './http/errors';
import type { RouteDoc } from './http/openapi';

/** Each thread's V8 heap, one series per thread and kind. */
const THREAD_HEAP = 'catalog_thread_heap_bytes';

export class Metrics {
  readonly registry = new client.Registry();
  readonly eventsAppended = new client.Counter({ name: 'catalog_events_appended_total', help: 'Events appended to the log by this process', registers: [this.registry] });
  readonly appendRetries = new client.Counter({
    name: 'catalog_event_store_append_retries_total',
    help: 'Appends PostgreSQL ended to break a deadlock or a serialization conflict, run again by this process',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  readonly eventsApplied = new client.Counter({
    name: 'catalog_projection_events_applied_total',
    help: 'Events applied by the projection runners of this process',
    labelNames: ['projection'] as const,
    registers: [this.registry],
  });
  readonly syncRuns = new client.Counter({
    name: 'catalog_sync_runs_total',
    help: 'Synchronisation runs that ended in this process, by kind and outcome',
    labelNames: ['kind', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new client.Histogram({
    name: 'catalog_http_request_duration_seconds',
    help: 'HTTP requests by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [this.registry],
  });

  /** Other threads of this process whose counters /metrics adds in (a serving process's jobs thread). */
  private readonly peers: (() => Promise<client.MetricObjectWithValues<client.MetricValue<string>>[]>)[] = [];

  constructor() {
    client.collectDefaultMetrics({ register: this.registry, prefix: 'catalog_process_' });
    // The process metrics above are the main thread's heap and the whole process's RSS; a serving
    // process's jobs thread has a V8 heap of its own, capped apart (src/jobs/client.ts). Each thread
    // reports its own, labelled, so a scrape shows which one holds the memory.
    new client.Gauge({
      name: THREAD_HEAP,
      help: "A thread's V8 heap in bytes: used, total (reserved) and limit, and the external memory its objects hold (thread: main or jobs)",
      labelNames: ['thread', 'kind'] as const,
      registers: [this.registry],
      collect() {
        const h = getHeapStatistics();
        const thread = isMainThread ? 'main' : 'jobs';
        this.set({ thread, kind: 'used' }, h.used_heap_size);
        this.set({ thread, kind: 'total' }, h.total_heap_size);
        this.set({ thread, kind: 'limit' }, h.heap_size_limit);
        this.set({ thread, kind: 'external' }, h.external_memory);
      },
    });
  }

  /**
   * Adds another thread's metrics to this process's /metrics: its counters and histograms (appends,
   * applied events, synchronisation runs, …) are summed with this thread's, and its heap is shown
   * under its own label. Its process metrics and the gauges this thread reads at scrape time (lag,
   * fence, cache) are left out: they would count the same process or the same database twice.
   */
  addPeer(read: () => Promise<client.MetricObjectWithValues<client.MetricValue<string>>[]>): void {
    this.peers.push(read);
  }

  /** This process's metrics as Prometheus text: this thread's, and its peers' (`addPeer`). */
  async text(): Promise<string> {
    if (this.peers.length === 0) return this.registry.metrics();
    const own = await this.registry.getMetricsAsJSON();
    const mine = new Set(own.map((m) => m.name));
    const others = await Promise.all(
      this.peers.map((read) =>
        read().then(
          (ms) => ms.filter((m) => m.name === THREAD_HEAP || (!m.name.startsWith('catalog_process_') && !(String(m.type) === 'gauge' && mine.has(m.name)))),
          () => [], // a peer that cannot answer (restarting) leaves out its counters this once
        ),
      ),
    );
    return client.AggregatorRegistry.aggregate([own, ...others]).metrics();
  }

  /** Gauges read at scrape time from the projections, the read fence and the public cache. */
  observe(deps: { engine: ProjectionEngine; cache: PublicCache; schedules?: () => Promise<ScheduleFigures[]> }): void {
    const { engine, cache, schedules } = deps;
    const registers = [this.registry];
    const byProjection = { labelNames: ['projection'] as const, registers };
    // Registered first, so its collect (one status read per scrape) runs before the gauges it fills are read.
    new client.Gauge({
      name: 'catalog_projection_lag_events',
      help: 'Committed events a projection has not applied (those the read fence holds back included)',
      ...byProjection,
      async collect() {
        const [items, fence] = await Promise.all([engine.status(), engine.fence()]);
        for (const p of items) {
          this.set({ projection: p.name }, p.lagEvents);
          lagSeconds.set({ projection: p.name }, p.lagSeconds);
          failed.set({ projection: p.name }, p.state === 'failed' ? 1 : 0);
          retrying.set({ projection: p.name }, p.retrying ? 1 : 0);
        }
        fenceSeconds.set(fence?.heldBackSeconds ?? 0);
        fenceEvents.set(fence?.heldBackEvents ?? 0);
      },
    });
    const lagSeconds = new client.Gauge({ name: 'catalog_projection_lag_seconds', help: 'Age of the oldest event a projection has not applied', ...byProjection });
    const failed = new client.Gauge({ name: 'catalog_projection_failed', help: '1 while a projection is stopped on a poison event', ...byProjection });
    const retrying = new client.Gauge({ name: 'catalog_projection_retrying', help: '1 while a projection retries a failure with back-off', ...byProjection });
    const fenceSeconds = new client.Gauge({ name: 'catalog_read_fence_held_back_seconds', help: 'How long committed events have waited behind the read fence', registers });
    const fenceEvents = new client.Gauge({ name: 'catalog_read_fence_held_back_events', help: 'Committed events readers cannot read yet', registers });
    new client.Gauge({
      name: 'catalog_public_cache_lookups',
      help: 'Public cache lookups of this process since it started, by the domains of the entry and the result (hit, miss, load)',
      labelNames: ['domains', 'result'] as const,
      registers,
      collect() {
        for (const [domains, c] of Object.entries(cache.statsByDomains())) {
          for (const result of ['hit', 'miss', 'load'] as const) this.set({ domains, result }, c[result]);
        }
      },
    });
    if (schedules) {
      // prom-client collects every metric at once (Promise.all), so each gauge awaits the same read.
      const figures = shared(schedules);
      const byJob = { labelNames: ['job'] as const, registers };
      new client.Gauge({
        name: 'catalog_schedule_ticks',
        help: 'Scheduled synchronisation ticks recorded, by job and outcome (started, skipped, failed, missed, starting)',
        labelNames: ['job', 'outcome'] as const,
        registers,
        async collect() {
          this.reset();
          for (const j of await figures()) for (const [outcome, n] of Object.entries(j.ticks)) this.set({ job: j.job, outcome }, n ?? 0);
        },
      });
      new client.Gauge({
        name: 'catalog_schedule_last_run_timestamp_seconds',
        help: 'When the last tick of a job that started a run was due (0: none yet)',
        ...byJob,
        async collect() {
          for (const j of await figures()) this.set({ job: j.job }, j.lastRunAt ? j.lastRunAt.getTime() / 1000 : 0);
        },
      });
      new client.Gauge({
        name: 'catalog_schedule_last_tick_not_run',
        help: '1 while the latest due tick of a job was missed or could not start',
        ...byJob,
        async collect() {
          for (const j of await figures()) this.set({ job: j.job }, j.lastTickNotRun ? 1 : 0);
        },
      });
    }
    new client.Gauge({
      name: 'catalog_public_cache_bytes',
      help: 'Bytes the public cache of this process holds (answers and keys; PUBLIC_CACHE_MAX_BYTES at most), and its entries',
      labelNames: ['what'] as const,
      registers,
      collect() {
        const s = cache.stats();
        this.set({ what: 'bytes' }, s.bytes);
        this.set({ what: 'max_bytes' }, s.maxBytes);
        this.set({ what: 'entries' }, s.entries);
        this.set({ what: 'evicted' }, s.evicted);
        this.set({ what: 'too_large' }, s.tooLarge);
      },
    });
  }

  /** GET /metrics for a scraper presenting `token` as a bearer token; no token configured, no route. */
  routes(token: string | undefined): Router {
    const r = Router();
    if (!token) return r;
    const expected = Buffer.from(`Bearer ${token}`);
    r.get('/metrics', async (req, res) => {
      const given = Buffer.from(req.headers.authorization ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
        res.status(401).json(errorBody('METRICS.UNAUTHORIZED', 'metrics need the scrape token'));
        return;
      }
      res.setHeader('Content-Type', this.registry.contentType);
      res.end(await this.text());
    });
    return r;
  }
}

/** One read shared by the gauges of one scrape (and of scrapes within a second of it). */
function shared<T>(read: () => Promise<T>): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | null = null;
  return () => {
    if (!last || Date.now() - last.at > 1000) last = { at: Date.now(), value: read() };
    return last.value;
  };
}

/** A scheduled job as /metrics shows it (filled by the sync slice's scheduler). */
export interface ScheduleFigures {
  job: string;
  lastRunAt: Date | null;
  lastTickNotRun: boolean;
  ticks: Record<string, number | undefined>;
}

/** GET /metrics (src/platform/http/openapi.ts), at the root; mounted only when METRICS_TOKEN is set. */
export const metricsRouteDocs: RouteDoc[] = [
  {
    method: 'get',
    path: '/metrics',
    summary: 'Prometheus text for `Authorization: Bearer <METRICS_TOKEN>` (404 when METRICS_TOKEN is unset)',
    scrapeToken: true,
    // Not mounted while METRICS_TOKEN is unset: NOT_FOUND.
    errors: ['NOT_FOUND'],
    responses: { 200: { contentType: 'text/plain', description: 'Prometheus exposition format' } },
  },
];
