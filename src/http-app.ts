/**
 * The HTTP side of a serving process: every slice's routes under API_PREFIX behind their guards,
 * the storefront's cached fast lane in front of express, and the root routes (health, the web apps,
 * the demo's pictures). Built from a process's services (./services.ts).
 */
import http from 'node:http';
import { Router } from 'express';
import { createAuth } from './auth/module';
import { uploadRoutes } from './uploads/routes';
import { DiskUploadStorage, PostgresUploadStorage } from './uploads/storage';
import { docsRoutes } from './platform/http/openapi';
import { DOCUMENTED_ROUTES, apiDocument } from './openapi';
import { refuseUndeclaredQuery } from './platform/http/validate';
import { securityHeaders, securityMiddleware } from './platform/http/security';
import { postgresThrottleStores } from './platform/http/rate-limit';
import { idempotency } from './platform/http/idempotency';
import { authOf } from './auth/guard';
import { createApp } from './platform/http/app';
import { healthRoutes } from './platform/http/health';
import { projectionRoutes } from './platform/projections/routes';
import { PICTURES_PATH, picturesRoutes } from './sync/simulator';
import { syncRoutes } from './sync/routes';
import { linkRoutes } from './catalog/links/routes';
import { adminCatalogRoutes } from './catalog/admin-routes';
import { familyRoutes } from './catalog/families/routes';
import { goodRoutes } from './catalog/goods/routes';
import { bulkRoutes } from './catalog/bulk/routes';
import { historyRoutes } from './catalog/history/routes';
import { organiseRunRoutes } from './catalog/organisation/routes';
import { storefrontRoutes } from './storefront/routes';
import { PUBLIC_ROUTES } from './storefront/public-routes';
import { assertDeniedByDefault, routeKey } from './platform/http/routes-audit';
import { methodNotAllowed } from './platform/http/operations';
import { capturedHeaders, publicFastPath } from './storefront/fast-path';
import { shareCardOf } from './storefront/share-card';
import { homeRoutes, webRoutes } from './web-apps';
import type { Services } from './services';
import { inProcessJobs } from './services';

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
  api.use(idempotency({ pool: s.pool, authenticate: auth.guards.authenticate, userOf: (res) => authOf(res).user.id, operations: DOCUMENTED_ROUTES.api }));
  api.use(projectionRoutes(s.engine, requireAdmin));
  const jobs = s.jobs ?? inProcessJobs(s);
  api.use(syncRoutes({ start: (kind, params) => jobs.startSync(kind, params) }, s.pool, requireAdmin, s.config.schedules));
  api.use(linkRoutes(s, requireAdmin));
  api.use(adminCatalogRoutes(s, requireAdmin));
  api.use(organiseRunRoutes(s, jobs, requireAdmin));
  api.use(familyRoutes(s, requireAdmin));
  api.use(goodRoutes(s, requireAdmin, jobs));
  api.use(bulkRoutes(s, requireAdmin));
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
  // After every route, under API_PREFIX and /v2-api alike: a path's other methods are 405, not 404.
  api.use(methodNotAllowed(api));
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
  // As under API_PREFIX: a query key on a route that takes none is a 400 (docs/api.md, Conventions).
  root.use(refuseUndeclaredQuery(DOCUMENTED_ROUTES.root));
  root.use(homeRoutes(s.config.env === 'development' ? { docs: `${s.config.apiPrefix}/docs` } : {}));
  // The demo's pictures, where the simulator announced them (PUBLIC_URL or this service's address).
  if (s.simulator) root.use(PICTURES_PATH, picturesRoutes());
  root.use(s.metrics.routes(s.config.metricsToken));
  root.use(healthRoutes({ pool: s.pool, store: s.store, fence: { status: () => s.engine.fence(), degradedAfterS: s.config.fenceDegradedAfterS } }));
  root.use(
    webRoutes({
      apiBases: s.config.clientApiBases,
      contactUrl: s.config.h5ContactUrl,
      publicUrl: s.config.publicUrl,
      shareCard: (id) => shareCardOf(s, id),
      log: s.log,
    }),
  );
  if (s.config.apiPrefix !== STOREFRONT_API_BASE) root.use(STOREFRONT_API_BASE, api);
  // The root's own operations only: the web apps and the API's second mount are not among them.
  const documented = new Set(DOCUMENTED_ROUTES.root.map((d) => routeKey({ method: d.method.toUpperCase(), path: d.path })));
  root.use(methodNotAllowed(root, (r) => documented.has(routeKey(r))));
  return root;
}
const STOREFRONT_API_BASE = '/v2-api';
