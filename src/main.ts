/**
 * Composition root: config → database → event store → roles (api, worker, scheduler).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Router } from 'express';
import { assertSupplierConfigured, resolveJwtSecret, type Config } from './config';
import { allProjections } from '../projections';
import { createAuth } from './auth/module';
import { uploadRoutes } from './uploads/routes';
import { DiskUploadStorage, PostgresUploadStorage } from './uploads/storage';
import { docsRoutes } from './platform/http/openapi';
import { apiDocument } from './openapi';
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
import { startSimulator } from './sync/simulator';
import type { RunningSimulator } from './sync/simulator';
import { SyncService, createSupplierClient } from './sync/service';
import { syncRoutes } from './sync/routes';
import { startSchedules } from './sync/scheduler';
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
import { webRoutes } from './web-apps';

export interface OpenDatabase {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
}

/** DATABASE_URL when set; otherwise the embedded server under the data directory. */
export async function openDatabase(config: Config, log: Logger): Promise<OpenDatabase> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: false, stop: async () => undefined };
  log.info({ dataDir: config.dataDir, port: config.embeddedPgPort }, 'DATABASE_URL unset: starting the embedded PostgreSQL');
  const embedded = await startEmbeddedPostgres({
    dataDir: config.dataDir,
    port: config.embeddedPgPort,
    log: (m) => log.debug({ component: 'embedded-pg' }, m),
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
  metrics.observe({ engine, cache });
  let simulator: RunningSimulator | null = null;
  if (!config.upstream) {
    simulator = await startSimulator({ links: config.simulator.links, seed: config.simulator.seed });
    log.info({ url: simulator.url, links: config.simulator.links }, 'UPSTREAM_URL unset: the built-in supplier simulator serves the demo catalog');
  }
  const upstreamUrl = config.upstream?.url ?? simulator!.url;
  // Before any waiting command is released, this process's cache forgets what the commit changed.
  notifications.onCommit((n) => cache.syncVersions(n.domains));
  notifications.onCommit(() => engine.wakeAll());
  await notifications.start();
  const waitForProjections: Services['waitForProjections'] = (position, streamIds) => notifications.waitFor(position, streamIds, config.commandWaitMs);
  const supplier = createSupplierClient({ log }, upstreamUrl, config.upstream?.token);
  const sync = new SyncService({ config, log, pool, store, registry, metrics, waitForProjections }, supplier);
  return { config, log, databaseUrl, pool, listener, store, registry, engine, notifications, cache, storefront, metrics, upstreamUrl, simulator, sync, waitForProjections };
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
  await s.sync.drain();
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
  close(): Promise<void>;
}

/** Starts the given roles in this process. `npm start` runs all of them on the embedded defaults. */
export async function startService(config: Config, log: Logger, roles: readonly Role[]): Promise<RunningService> {
  // Before anything starts: an API without a usable signing secret must not come up at all.
  if (roles.includes('api')) config = { ...config, jwt: { ...config.jwt, secret: resolveJwtSecret(config) } };
  assertSupplierConfigured(config);
  const db = await openDatabase(config, log);
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
    if (!config.upstream) void seedDemoCatalog(services).catch((e) => log.error({ err: e }, 'demo catalog seeding failed'));
  }
  if (roles.includes('api')) {
    const app = buildApp(services);
    server = http.createServer(app);
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject);
      server!.listen(config.port, config.host, () => resolve());
    });
    const addr = server.address() as AddressInfo;
    url = `http://${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address === '0.0.0.0' ? '127.0.0.1' : addr.address}:${addr.port}`;
    log.info({ url, roles }, 'service listening');
  }
  let closing: Promise<void> | null = null;
  return {
    url,
    services,
    close: () =>
      (closing ??= (async () => {
        if (server) {
          server.closeIdleConnections();
          await new Promise<void>((r) => server!.close(() => r()));
        }
        schedule?.stop();
        await thread?.close();
        await closeServices(services);
        await db.stop();
      })()),
  };
}
