/**
 * The process: starts the roles it is asked to run on the parts ./services.ts builds, serves
 * ./http-app.ts where it serves HTTP, and stops them in order. The command line (src/cli.ts) calls it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError, assertSupplierConfigured, resolveJwtSecret, type Config } from './config';
import type { Logger } from './platform/log';
import { migrate } from './platform/migrate';
import { checkLogIdentity } from './platform/log-identity';
import { startSchedules } from './sync/scheduler';
import { seedDemoCatalog } from './sync/demo';
import { JobsThread } from './jobs/client';
import { browserOrigin } from './platform/http/origin';
import { createHttpServer } from './platform/http/server';
import { UserStore } from './auth/users';
import { closeServices, createServices, openDatabase, type Services } from './services';
import { buildApp } from './http-app';

export { openDatabase, createServices, closeServices, inProcessJobs, type OpenDatabase, type Services } from './services';
export { apiRoutes, buildApp, expressApp, PUBLIC_API_ROUTES } from './http-app';

/** api: the HTTP API; worker: projections, scheduled synchronisations, the demo seeding. */
export type Role = 'api' | 'worker';

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
    // thread of their own (src/jobs-thread.ts): shoppers never wait for administrators.
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
      // The jobs thread stops the same way on its side (src/jobs-thread.ts), then closes.
      await thread?.close();
      // The seeding stops at its next step (a synchronisation at its next batch, below; an
      // organisation under way runs to its end) while the projections still run.
      await Promise.all([seeding, services.sync.stop()]);
      await closeServices(services);
      await db.stop();
    })());
  if (roles.includes('api')) {
    const app = buildApp(services);
    server = createHttpServer(app, config.http);
    try {
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(config.port, config.host, () => resolve());
      });
    } catch (e) {
      await close();
      if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE')
        throw new ConfigError([`PORT: ${config.port} is already in use on ${config.host}; stop what uses it or choose another PORT`]);
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
