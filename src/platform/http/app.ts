/**
 * The HTTP application: JSON limits, request ids and logs, the routes, one error middleware.
 */
import { randomUUID } from 'node:crypto';
import express, { type Express, type Router } from 'express';
import pinoHttp, { startTime } from 'pino-http';
import type { Logger } from '../log';
import { clientRequestId, jsonBodies, jsonBodiesOnly, refuseInvalidText, sameOriginWrites, verifyUtf8Body } from './edge';
import { errorHandler, notFoundHandler } from './errors';

export interface AppOptions {
  log: Logger;
  bodyLimitBytes: number;
  trustProxy: boolean | number | string;
  /** mount point of the API, e.g. `/v2-api`; '' for the root */
  apiPrefix: string;
  /** middleware that must run before routing (security headers, CORS, cookies) */
  before?: express.RequestHandler[];
  /** the API routes, mounted under `apiPrefix` */
  routes: Router;
  /** routes outside the prefix (health checks, static clients) */
  rootRoutes?: Router;
  /** CORS_ORIGINS: the other origins whose writes are accepted (docs/http-contract.md, Cross-origin writes) */
  corsOrigins?: readonly string[];
  /** routes whose body is not JSON (uploads), by path */
  rawBodyPaths?: (path: string) => boolean;
  /** hears each answered request: its route template (or `unmatched`), status and duration */
  observe?: (method: string, route: string, status: number, seconds: number) => void;
  /** requests whose successful answers are logged at debug only (pictures a page loads by the dozen) */
  quiet?: (url: string) => boolean;
}

/** pino-http's stand-in error for an answer of 500 or more that carried none: the error handler logged the real one. */
const STATUS_ONLY = /^failed with status code \d+$/;

/** `GET /admin/ 200 3 ms`: the message of a request's log line. */
export function requestLine(req: { method?: string; url?: string; originalUrl?: string }, status: number, ms: number): string {
  return `${req.method ?? '?'} ${req.originalUrl ?? req.url ?? ''} ${status} ${Math.round(ms * 10) / 10} ms`;
}

export function createApp(opts: AppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  // Explicit: behind no proxy by default, so X-Forwarded-For cannot be used to dodge throttles.
  app.set('trust proxy', opts.trustProxy);
  app.set('etag', false); // cached responses carry their own strong ETag
  app.use(
    pinoHttp({
      logger: opts.log,
      // The request id is the server's own, always: it becomes the correlation id of the events the
      // request appends, which the audit trail groups by (a sync run's events carry the run's id), so a
      // client must not choose it. A client's X-Request-Id is logged apart, as clientRequestId.
      genReqId: (_req, res) => {
        const id = randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      customProps: (req) => {
        const given = clientRequestId(req.headers['x-request-id']);
        return given ? { clientRequestId: given } : {};
      },
      autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' },
      customLogLevel: (req, res, err) =>
        // originalUrl: a router mounted on a path may still have it stripped from `url` when the answer ends
        err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : opts.quiet?.((req as { originalUrl?: string }).originalUrl ?? req.url ?? '') ? 'debug' : 'info',
      // One short line per request: what was asked, the status and the time taken. No headers: they
      // were most of each line (1 KB and more) and carry credentials.
      serializers: {
        req: (req: { id: unknown; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
      customSuccessMessage: (req, res, ms) => requestLine(req, res.statusCode, ms),
      customErrorMessage: (req, res) => requestLine(req, res.statusCode, Date.now() - ((res as unknown as Record<symbol, number>)[startTime] ?? Date.now())),
      customErrorObject: (_req, _res, err, value: Record<string, unknown>) => {
        if (!STATUS_ONLY.test(err.message)) return value;
        const { err: _stack, ...rest } = value;
        return rest;
      },
    }),
  );
  if (opts.observe) {
    const observe = opts.observe;
    app.use((req, res, next) => {
      const started = process.hrtime.bigint();
      res.once('finish', () => {
        const route = req.route ? `${req.baseUrl}${String(req.route.path)}` : 'unmatched';
        observe(req.method, route, res.statusCode, Number(process.hrtime.bigint() - started) / 1e9);
      });
      next();
    });
  }
  for (const mw of opts.before ?? []) app.use(mw);
  // Refused before the body is read: another origin's write, a body that is not JSON.
  app.use(sameOriginWrites(opts.corsOrigins ?? []));
  app.use(jsonBodiesOnly(opts.rawBodyPaths ?? (() => false)));
  app.use(jsonBodies(express.json({ limit: opts.bodyLimitBytes, strict: true, verify: verifyUtf8Body }), opts.rawBodyPaths ?? (() => false)));
  app.use(refuseInvalidText);
  if (opts.rootRoutes) app.use(opts.rootRoutes);
  app.use(opts.apiPrefix || '/', opts.routes);
  app.use(notFoundHandler);
  app.use(errorHandler(opts.log));
  return app;
}
