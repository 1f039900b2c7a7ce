/**
 * Composition root: config → database → event store → roles (api, worker, scheduler).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Router } from 'express';
import { ConfigError, assertSupplierConfigured, resolveJwtSecret, type Config } from './config';
import { allProjections } from '../projections';
import { createAuth } from './auth/module';
import { uploadRoutes } from './uploads/routes';
import { DiskUploadStorage, PostgresUploadStorage } from './uploads/storage';
import { docsRoutes } from './platform/http/openapi';
import { DOCUMENTED_ROUTES, apiDocument } from './openapi';
import { refuseUndeclaredQuery } from './platform/http/validate';
import { securityHeaders, securityMiddleware } from './platform/http/security';
import { postgresThrottleStores } from './platform/http/rate-limit';
import { idempotency } from './platform/http/idempotency';
import { Metrics } from './platform/metrics';
import { authOf } from './auth/guard';
import { createEventRegistry } from './catalog/events';
import { PublicCache } from './platform/cache/public-cache';
import { createPool, type Pool } from './platform/db';
import { startEmbeddedPostgres } from './platform/embedded-db';
import type { EventStore, LogPosition } from './platform/event-store/port';
import { PostgresEventStore } from './platform/event-store/postgres';
import type { EventRegistry } from './platform/events/registry';
import { createApp } from './platform/http/app';
import { healthRoutes } from './platform/http/health';
import type { Logger } from './platform/log';
import { migrate } from './platform/migrate';
import { checkLogIdentity } from './platform/log-identity';
import { PgListener } from './platform/pg-listener';
import { ProjectionEngine, ProjectionNotifications } from './platform/projections/engine';
import { projectionRoutes } from './platform/projections/routes';
import { PICTURES_PATH, picturesRoutes, startSimulator } from './sync/simulator';
import type { RunningSimulator } from './sync/simulator';
import { SyncService, createSupplierClient } from './sync/service';
import { syncRoutes } from './sync/routes';
import { scheduleMetrics, startSchedules } from './sync/scheduler';
import { seedDemoCatalog } from './sync/demo';
import { linkRoutes } from './catalog/links/routes';
import { adminCatalogRoutes } from './catalog/admin-routes';
import { familyRoutes } from './catalog/families/routes';
import { goodRoutes } from './catalog/goods/routes';
import { historyRoutes } from './catalog/history/routes';
import { Organiser } from './catalog/organisation/organise';
import { batchCreateGoods } from './catalog/goods/handle';
import type { Jobs } from './jobs/jobs';
import { JobsThread } from './jobs/client';
import { organiseRunRoutes } from './catalog/organisation/routes';
import { storefrontRoutes } from './storefront/routes';
import { PUBLIC_ROUTES, StorefrontState } from './storefront/public-routes';
import { assertDeniedByDefault } from './platform/http/routes-audit';
import { capturedHeaders, publicFastPath } from './storefront/fast-path';
import { homeRoutes, webRoutes } from './web-apps';
import { browserOrigin } from './platform/http/origin';
import { UserStore } from './auth/users';

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
  log.info({ dataDir: config.dataDir, port: config.embeddedPgPort }, 'DATABASE_URL unset: starting the embedded PostgreSQL');
  const embedded = await startEmbeddedPostgres({
    dataDir: config.dataDir,
    port: config.embeddedPgPort,
    log: (m) => log.debug({ component: 'embedded-pg' }, m),
    callerHandlesSignals: opts.callerHandlesSignals === true,
  });
  return { url: embedded.url, embedded: true, stop: embedded.stop };
}

/** api: the HTTP API; worker: projections, scheduled synchronisations, the demo seeding. */
export type Role = 'api' | 'worker';

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
  refreshStatistics(streamIds: readonly string[], changedRows: number): Promise<void>;
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

/** Builds the parts in order, each from those before it (the sync service last); closeServices ends them. */
export async function createServices(config: Config, log: Logger, databaseUrl: string): Promise<Services> {
  const pool = createPool(databaseUrl, config.databasePoolSize, 'catalog', config.databaseSession);
  const listener = new PgListener(databaseUrl, (e) => log.warn({ err: e }, 'notification listener lost its connection'));
  const store: EventStore =
    config.eventStore.kind === 'eventstoredb'
      ? eventStoreDb().EventStoreDbAdapter.connect(config.eventStore.url, (e) => log.warn({ err: e }, 'EventStoreDB subscription dropped'))
      : new PostgresEventStore(pool, listener);
  if (store instanceof PostgresEventStore && (await store.checkLogOrder())) {
    log.warn('the event log came from another cluster (a restore or a promoted replica): new events are stamped after the stored ones');
  }
  const metrics = new Metrics();
  meterAppends(store, (n) => metrics.eventsAppended.inc(n));
  const registry = createEventRegistry();
  const definitions = allProjections();
  const engine = new ProjectionEngine(
    {
      pool,
      store,
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
    log.info({ url: simulator.url, links: config.simulator.links, pictures: simulator.catalog.pictures.base }, 'UPSTREAM_URL unset: the built-in supplier simulator serves the demo catalog');
  }
  const upstreamUrl = config.upstream?.url ?? simulator!.url;
  // Before any waiting command is released, this process's cache forgets what the commit changed.
  notifications.onCommit((n) => cache.syncVersions(n.domains));
  notifications.onCommit(() => engine.wakeAll());
  await notifications.start();
  const waitForProjections: Services['waitForProjections'] = (position, streamIds) => notifications.waitFor(position, streamIds, config.commandWaitMs);
  const refreshStatistics: Services['refreshStatistics'] = (streamIds, changedRows) => engine.refreshStatistics(streamIds, changedRows);
  const supplier = createSupplierClient({ log }, upstreamUrl, config.upstream?.token);
  const sync = new SyncService({ config, log, pool, store, registry, metrics, waitForProjections, refreshStatistics }, supplier);
  return { config, log, databaseUrl, pool, listener, store, registry, engine, notifications, cache, storefront, metrics, upstreamUrl, simulator, sync, waitForProjections, refreshStatistics };
}

/** Counts what the store appends, whichever adapter it is (the count feeds catalog_events_appended_total). */
function meterAppends(store: EventStore, appended: (events: number) => void): void {
  const one = store.appendToStream.bind(store);
  const many = store.appendToStreams.bind(store);
  store.appendToStream = async (streamId, events, opts) => {
    const r = await one(streamId, events, opts);
    appended(events.length);
    return r;
  };
  store.appendToStreams = async (appends) => {
    const r = await many(appends);
    appended(appends.reduce((n, a) => n + a.events.length, 0));
    return r;
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

/**
 * Every slice's routes, mounted under API_PREFIX. Admin routes go through `requireAdmin`
 * (guards.requireAdmin: access token, live session, role ADMIN); `guards.requireRoles(...)` widens.
 */
export function apiRoutes(s: Services): Router {
  const api = Router();
  // An unknown query key is a 400 on every route (docs/api.md, Conventions): routes that take a query
  // parse it strictly; this refuses one on the routes whose documented operation takes none.
  api.use(refuseUndeclaredQuery(DOCUMENTED_ROUTES.api));
  api.use(storefrontRoutes(s)); // public, no guard; first, so the busiest routes skip matching every admin route
  const auth = createAuth({ pool: s.pool, config: s.config, log: s.log });
  const { requireAdmin } = auth.guards;
  api.use(auth.routes);
  api.use(
    uploadRoutes({
      storage: s.config.uploadStorage === 'disk' ? new DiskUploadStorage(s.config.uploadDir) : new PostgresUploadStorage(s.pool, s.config.uploadDir),
      maxBytes: s.config.uploadMaxBytes,
      apiPrefix: s.config.apiPrefix,
      guard: requireAdmin,
      log: s.log,
      throttleStores: postgresThrottleStores(s.pool),
    }),
  );
  // API docs only in development (docs/security.md, API docs): elsewhere the routes do not exist at all.
  if (s.config.env === 'development') {
    api.use(docsRoutes(apiDocument(s.config.apiPrefix), { apiPrefix: s.config.apiPrefix }));
  }
  // Admin writes sent with an Idempotency-Key answer a retry with the first answer.
  api.use(idempotency({ pool: s.pool, authenticate: auth.guards.authenticate, userOf: (res) => authOf(res).user.id }));
  api.use(projectionRoutes(s.engine, requireAdmin));
  const jobs = s.jobs ?? inProcessJobs(s);
  api.use(syncRoutes({ start: (kind, params) => jobs.startSync(kind, params) }, s.pool, requireAdmin, s.config.schedules));
  api.use(linkRoutes(s, requireAdmin));
  api.use(adminCatalogRoutes(s, requireAdmin));
  api.use(organiseRunRoutes(s, requireAdmin));
  api.use(familyRoutes(s, jobs, requireAdmin));
  api.use(goodRoutes(s, requireAdmin, jobs));
  api.use(historyRoutes(s, requireAdmin));
  // Deny by default: a route that is neither guarded nor on the public list stops start-up.
  assertDeniedByDefault(api, { isGuard: auth.guards.isGuard, isPublic: (key) => PUBLIC_API_ROUTES.has(key) || key.startsWith('GET /docs') });
  return api;
}

/**
 * The routes anyone may call, without a session: the storefront's reads, signing up and in,
 * refreshing and ending a session (which prove themselves with their own tokens), and uploaded files.
 * The API docs are public too where they are mounted at all (NODE_ENV=development).
 */
export const PUBLIC_API_ROUTES: ReadonlySet<string> = new Set([
  ...PUBLIC_ROUTES.map((r) => `GET ${r.path}`),
  'POST /auth/register',
  'POST /auth/login',
  'POST /auth/refresh',
  'POST /auth/logout',
  'GET /uploads/:name',
]);

/**
 * The HTTP handler: cached public reads through the storefront's fast lane (src/storefront/fast-path.ts),
 * everything else through express. `extraRoutes`: mounted after the API under API_PREFIX; tests use it
 * for routes production never has.
 */
export function buildApp(s: Services, opts: { extraRoutes?: Router } = {}): http.RequestListener {
  const app = expressApp(s, opts);
  if (s.config.publicCache.disabled) return app;
  const fast = publicFastPath({
    deps: s,
    mounts: [s.config.apiPrefix, ...(s.config.apiPrefix !== STOREFRONT_API_BASE ? [STOREFRONT_API_BASE] : [])],
    corsOrigins: s.config.corsOrigins,
    securityHeaders: capturedHeaders(securityHeaders()),
    gate: s.storefront.gate,
    log: s.log,
    observe: (method, route, status, seconds) => s.metrics.httpDuration.observe({ method, route, status: String(status) }, seconds),
  });
  return (req, res) => {
    fast(req, res).then(
      (answered) => answered || app(req, res),
      () => app(req, res),
    );
  };
}

/** The express application alone (the API docs test walks its routes). */
export function expressApp(s: Services, opts: { extraRoutes?: Router } = {}) {
  const api = apiRoutes(s);
  if (opts.extraRoutes) api.use(opts.extraRoutes);
  return createApp({
    log: s.log,
    bodyLimitBytes: s.config.bodyLimitBytes,
    trustProxy: s.config.trustProxy,
    apiPrefix: s.config.apiPrefix,
    before: securityMiddleware({ corsOrigins: s.config.corsOrigins }),
    corsOrigins: s.config.corsOrigins,
    // The upload route takes multipart (src/uploads/routes.ts), under every mount point.
    rawBodyPaths: (path) => path.endsWith('/upload'),
    routes: api,
    rootRoutes: rootRoutes(s, api),
    quiet: (url) => url.startsWith(`${PICTURES_PATH}/`),
    observe: (method, route, status, seconds) => s.metrics.httpDuration.observe({ method, route, status: String(status) }, seconds),
  });
}

/**
 * Outside API_PREFIX: health checks, the built browser clients (/admin, /v2/h5: src/web-apps.ts)
 * and, when the API itself is not already there, the API again under /v2-api, the storefront build's
 * default API base, so the embedded default serves its mobile storefront without a proxy.
 */
function rootRoutes(s: Services, api: Router): Router {
  const root = Router();
  root.use(homeRoutes(s.config.env === 'development' ? { docs: `${s.config.apiPrefix}/docs` } : {}));
  // The demo's pictures, where the simulator announced them (PUBLIC_URL or this service's address).
  if (s.simulator) root.use(PICTURES_PATH, picturesRoutes());
  root.use(s.metrics.routes(s.config.metricsToken));
  root.use(healthRoutes({ pool: s.pool, store: s.store, fence: { status: () => s.engine.fence(), degradedAfterS: s.config.fenceDegradedAfterS } }));
  root.use(webRoutes({ apiBases: s.config.clientApiBases }));
  if (s.config.apiPrefix !== STOREFRONT_API_BASE) root.use(STOREFRONT_API_BASE, api);
  return root;
}
const STOREFRONT_API_BASE = '/v2-api';

export interface RunningService {
  url: string;
  services: Services;
  /** Stops in order: requests, schedules, the demo seeding, synchronisations, projections, pools, then the database. */
  close(): Promise<void>;
  /** For a process about to exit without waiting: asks the embedded database to stop (it finishes on its own). */
  abort(): void;
}

/**
 * What a person who just started the service needs: where the two clients are and, on a fresh
 * install, where to create the first administrator. The demo's "demo ready" line follows when its
 * seeding ends (src/sync/demo.ts).
 */
async function banner(s: Services, origin: string): Promise<void> {
  const firstVisit = !(await new UserStore(s.pool).any());
  s.log.info(`admin:      ${origin}/admin/`);
  s.log.info(`storefront: ${origin}/v2/h5/`);
  if (s.config.env === 'development') s.log.info(`API docs:   ${origin}${s.config.apiPrefix}/docs`);
  if (firstVisit) s.log.info(`no administrator yet: create the first administrator at ${origin}/admin/`);
}

/**
 * Starts the given roles in this process. `npm start` runs all of them on the embedded defaults.
 * The caller stops it with `close()` when the process is asked to stop (src/cli.ts, serve), the
 * embedded database included.
 */
export async function startService(config: Config, log: Logger, roles: readonly Role[]): Promise<RunningService> {
  // Before anything starts: an API without a usable signing secret must not come up at all.
  if (roles.includes('api')) config = { ...config, jwt: { ...config.jwt, secret: resolveJwtSecret(config) } };
  assertSupplierConfigured(config);
  // Unset PUBLIC_URL: browsers reach this service where it listens (a worker alone: where its API
  // process listens, on the same PORT). The demo's pictures are announced there, so that address
  // must be known before the simulator starts; PORT=0 leaves them at the simulator's own port.
  if (!config.publicUrl && config.port !== 0) config = { ...config, publicUrl: browserOrigin(config.host, config.port) };
  const db = await openDatabase(config, log, { callerHandlesSignals: true });
  const applied = await migrate({ databaseUrl: db.url, log: (m) => log.debug(m) });
  if (applied.length) log.info({ applied }, 'migrations applied');
  const services = await createServices(config, log, db.url);
  try {
    // The log and the read models must belong together before anything reads or writes either.
    const identity = await checkLogIdentity(services.pool, services.store);
    if (identity.adopted) log.info({ logId: identity.logId }, 'recorded the event log these read models are built from');
  } catch (e) {
    await closeServices(services);
    await db.stop();
    throw e;
  }
  let server: http.Server | null = null;
  let url = '';
  let thread: JobsThread | null = null;
  let schedule: { stop(): void } | null = null;
  let closing: Promise<void> | null = null;
  let seeding: Promise<void> | null = null;
  if (roles.includes('api')) {
    // A serving process runs its long operations, and with role `all` the worker role too, in a
    // thread of their own (src/jobs/thread.ts): shoppers never wait for administrators.
    try {
      thread = await JobsThread.start(
        {
          config: { ...config, upstream: config.upstream ?? { url: services.upstreamUrl, token: undefined } },
          databaseUrl: db.url,
          worker: roles.includes('worker'),
          seedDemo: !config.upstream && roles.includes('worker'),
        },
        log,
      );
    } catch (e) {
      await closeServices(services);
      await db.stop();
      throw e;
    }
    services.jobs = thread;
    services.metrics.addPeer(() => thread!.metrics());
  } else {
    await services.engine.startRunners();
    // Schedules run in the worker role, once across processes (src/sync/scheduler.ts).
    schedule = startSchedules(services);
    if (!config.upstream) {
      // Every step is idempotent: a seeding the shutdown stops halfway resumes at the next start.
      seeding = seedDemoCatalog(services, { stopping: () => closing !== null }).catch((e) => log.error({ err: e }, 'demo catalog seeding failed'));
    }
  }
  const close = () =>
    (closing ??= (async () => {
      if (server?.listening) {
        server.closeIdleConnections();
        await new Promise<void>((r) => server!.close(() => r()));
      }
      schedule?.stop();
      // The jobs thread stops the same way on its side (src/jobs/thread.ts), then closes.
      await thread?.close();
      // The seeding stops at its next step (a synchronisation at its next batch, below; an
      // organisation under way runs to its end) while the projections still run.
      await Promise.all([seeding, services.sync.stop()]);
      await closeServices(services);
      await db.stop();
    })());
  if (roles.includes('api')) {
    const app = buildApp(services);
    server = http.createServer(app);
    try {
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(config.port, config.host, () => resolve());
      });
    } catch (e) {
      await close();
      if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new ConfigError([`PORT: ${config.port} is already in use on ${config.host}; stop what uses it or choose another PORT`]);
      throw e;
    }
    const addr = server.address() as AddressInfo;
    url = `http://${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address === '0.0.0.0' ? '127.0.0.1' : addr.address}:${addr.port}`;
    log.info({ url, roles }, 'service listening');
    await banner(services, config.publicUrl ?? browserOrigin(config.host, addr.port));
  }
  return {
    url,
    services,
    close,
    abort: () => void db.stop(),
  };
}
