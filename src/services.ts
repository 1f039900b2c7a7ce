/**
 * The parts of a process, built in order from the configuration (docs/architecture.md): the database,
 * the event store (counted by MeteredEventStore), the projections and their notifications, the
 * public cache, the supplier and the synchronisation service. src/main.ts starts them as roles;
 * tests, the command line and the jobs thread build them too.
 */
import { ConfigError, type Config } from './config';
import { allProjections } from '../projections';
import { Metrics } from './platform/metrics';
import { createEventRegistry } from './catalog/event-registry';
import { PublicCache } from './platform/cache/public-cache';
import { createPool, type Pool } from './platform/db';
import { EmbeddedPortTaken, embeddedPort, startEmbeddedPostgres } from './platform/embedded-db';
import type { EventStore, LogPosition } from './platform/event-store/port';
import { PostgresEventStore } from './platform/event-store/postgres';
import type { EventRegistry } from './platform/events/registry';
import type { Logger } from './platform/log';
import { PgListener } from './platform/pg-listener';
import { ProjectionEngine, ProjectionNotifications } from './platform/projections/engine';
import { PICTURES_PATH, startSimulator } from './sync/simulator';
import type { RunningSimulator } from './sync/simulator';
import { SyncService, createSupplierClient } from './sync/service';
import { scheduleMetrics } from './sync/scheduler';
import { Organiser } from './catalog/organisation/organise';
import { batchCreateGoods } from './catalog/goods/handle';
import type { Jobs } from './jobs/jobs';
import { StorefrontState } from './storefront/public-routes';
import { MeteredEventStore } from './platform/event-store/metered';

export interface OpenDatabase {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
}

/**
 * DATABASE_URL when set; otherwise the embedded server under the data directory. `callerHandlesSignals`:
 * the caller stops it on SIGINT, SIGTERM and SIGHUP (src/platform/embedded-db.ts); else it stops by itself.
 */
export async function openDatabase(config: Config, log: Logger, opts: { callerHandlesSignals?: boolean } = {}): Promise<OpenDatabase> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: false, stop: async () => undefined };
  let chosen: Awaited<ReturnType<typeof embeddedPort>>;
  try {
    chosen = await embeddedPort(config.dataDir, config.embeddedPgPort);
  } catch (e) {
    if (e instanceof EmbeddedPortTaken) throw new ConfigError([`EMBEDDED_PG_PORT: ${e.message}`]);
    throw e;
  }
  if (chosen.moved) {
    const { from, holder } = chosen.moved;
    log.info(
      { port: chosen.port },
      `port ${from} is in use${holder ? ` by ${holder}` : ''}: the embedded PostgreSQL listens on ${chosen.port} (kept for this data folder; EMBEDDED_PG_PORT chooses)`,
    );
  }
  log.info({ dataDir: config.dataDir, port: chosen.port }, 'DATABASE_URL unset: starting the embedded PostgreSQL');
  const embedded = await startEmbeddedPostgres({
    dataDir: config.dataDir,
    port: chosen.port,
    log: (m) => log.debug({ component: 'embedded-pg' }, m),
    callerHandlesSignals: opts.callerHandlesSignals === true,
  });
  return { url: embedded.url, embedded: true, stop: embedded.stop };
}

/** What the slices are built from: one of each per process. */
export interface Services {
  config: Config;
  log: Logger;
  databaseUrl: string;
  pool: Pool;
  listener: PgListener;
  store: EventStore;
  registry: EventRegistry;
  engine: ProjectionEngine;
  notifications: ProjectionNotifications;
  cache: PublicCache;
  /** the storefront's per-process state: its freshness gate and the list's kept items */
  storefront: StorefrontState;
  /** this process's Prometheus metrics (GET /metrics with METRICS_TOKEN) */
  metrics: Metrics;
  /** the supplier's address: UPSTREAM_URL, or the in-process simulator */
  upstreamUrl: string;
  /** the in-process supplier simulator when UPSTREAM_URL is unset; closeServices closes it */
  simulator: RunningSimulator | null;
  sync: SyncService;
  /**
   * Where the long operations an administrator starts over HTTP run: a serving process's jobs
   * thread (src/jobs/client.ts, set by startService), else in process (tests, the command line).
   */
  jobs?: Jobs;
  /** Waits (bounded by COMMAND_WAIT_MS) until the projections reading these streams have reached `position`. */
  waitForProjections(position: LogPosition, streamIds: readonly string[]): Promise<boolean>;
  /** After a bulk step: the planner's statistics of what it rewrote (src/platform/planner-statistics.ts). */
  refreshStatistics(streamIds: readonly string[], changedRows: number, opts?: { repeated?: boolean }): Promise<void>;
}

/** The long operations run on these services' own event loop (in a jobs thread, or where no shopper waits). */
export function inProcessJobs(s: Services): Jobs {
  const organiser = new Organiser(s);
  return {
    organise: (by, opts) => organiser.organise(by, opts),
    startSync: (kind, params) => s.sync.start(kind, params),
    batchCreateGoods: (body, actor) => batchCreateGoods(s, body, actor),
  };
}

/** Loaded only when configured: the gRPC client is a sizeable share of an idle process's memory. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const eventStoreDb = () => require('./platform/event-store/eventstoredb') as typeof import('./platform/event-store/eventstoredb');

/**
 * Builds the parts in order, each from those before it (the sync service last); closeServices ends
 * them. `overrides.store`: an event store to run on instead of the one configured (tests run the
 * service on the KurrentDB adapter over a fake of its client).
 */
export async function createServices(config: Config, log: Logger, databaseUrl: string, overrides: { store?: EventStore } = {}): Promise<Services> {
  // First, so that a KurrentDB the service cannot run on (one without atomic multi-stream appends) stops the start.
  const kurrent =
    config.eventStore.kind === 'eventstoredb'
      ? await eventStoreDb().EventStoreDbAdapter.open(config.eventStore.url, (e) => log.warn({ err: e }, 'EventStoreDB subscription dropped'))
      : null;
  const pool = createPool(databaseUrl, config.databasePoolSize, 'catalog', config.databaseSession);
  const listener = new PgListener(databaseUrl, (e) => log.warn({ err: e }, 'notification listener lost its connection'));
  const metrics = new Metrics();
  const store: EventStore = overrides.store ?? kurrent ?? new PostgresEventStore(pool, listener, (reason) => metrics.appendRetries.inc({ reason }));
  if (store instanceof PostgresEventStore && (await store.checkLogOrder())) {
    log.warn('the event log came from another cluster (a restore or a promoted replica): new events are stamped after the stored ones');
  }
  const metered = new MeteredEventStore(store, (n) => metrics.eventsAppended.inc(n));
  const registry = createEventRegistry();
  const definitions = allProjections();
  const engine = new ProjectionEngine(
    {
      pool,
      store: metered,
      registry,
      databaseUrl,
      log,
      batchSize: config.projections.batchSize,
      pollMs: config.projections.pollMs,
      sessionLimits: config.databaseSession,
      onApplied: (projection, n) => metrics.eventsApplied.inc({ projection }, n),
    },
    definitions,
  );
  const notifications = new ProjectionNotifications(pool, listener, definitions, log);
  const cache = new PublicCache(config.publicCache);
  const storefront = new StorefrontState({ pool, cache, log });
  metrics.observe({ engine, cache, schedules: () => scheduleMetrics(pool, config.schedules) });
  let simulator: RunningSimulator | null = null;
  if (!config.upstream) {
    // Its pictures are announced where browsers reach this service (PUBLIC_URL, or the address
    // startService derives), which serves them too (rootRoutes); else at the simulator's own port.
    simulator = await startSimulator({
      links: config.simulator.links,
      seed: config.simulator.seed,
      ...(config.publicUrl ? { pictures: `${config.publicUrl}${PICTURES_PATH}` } : {}),
    });
    log.info(
      { url: simulator.url, links: config.simulator.links, pictures: simulator.catalog.pictures.base },
      'UPSTREAM_URL unset: the built-in supplier simulator serves the demo catalog',
    );
  }
  const upstreamUrl = config.upstream?.url ?? simulator!.url;
  // Before any waiting command is released, this process's cache forgets what the commit changed.
  notifications.onCommit((n) => cache.syncVersions(n.domains));
  notifications.onCommit(() => engine.wakeAll());
  await notifications.start();
  const waitForProjections: Services['waitForProjections'] = (position, streamIds) => notifications.waitFor(position, streamIds, config.commandWaitMs);
  const refreshStatistics: Services['refreshStatistics'] = (streamIds, changedRows, opts) => engine.refreshStatistics(streamIds, changedRows, opts);
  const supplier = createSupplierClient({ log }, upstreamUrl, config.upstream?.token);
  const sync = new SyncService({ config, log, pool, store: metered, registry, metrics, waitForProjections, refreshStatistics }, supplier);
  return {
    config,
    log,
    databaseUrl,
    pool,
    listener,
    store: metered,
    registry,
    engine,
    notifications,
    cache,
    storefront,
    metrics,
    upstreamUrl,
    simulator,
    sync,
    waitForProjections,
    refreshStatistics,
  };
}

export async function closeServices(s: Services): Promise<void> {
  await s.sync.stop();
  await s.engine.stopRunners();
  await s.notifications.stop();
  await s.store.close();
  await s.listener.close();
  await s.pool.end();
  await s.simulator?.close();
}
