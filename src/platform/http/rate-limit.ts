/**
 * Throttles (docs/security.md, Throttles: login 5/min, registration 5/min, upload 10/min). Keyed by `req.ip`, which
 * honours X-Forwarded-For only as far as TRUST_PROXY allows (off by default), so a client cannot dodge
 * a limit by inventing forwarding headers. Standard `RateLimit`/`RateLimit-Policy` headers (IETF
 * draft 8) plus `Retry-After` on a 429; the body is our error shape.
 *
 * The counters live in PostgreSQL (PostgresThrottleStore), shared by every process on the database:
 * several API processes behind a balancer allow together what one allows. (The maintained PostgreSQL
 * store for express-rate-limit creates an extension and its own schema at run time, migrates without
 * waiting, and keys its aggregated counters by client alone across limiters; this one is a table of
 * ours, migrated with the rest, and one statement per hit.)
 */
import { rateLimit, type Options, type RateLimitRequestHandler, type Store } from 'express-rate-limit';
import type { Pool } from '../db';
import type { Logger } from '../log';
import { errorBody } from './errors';

/** A fixed window per limiter and client key, in `rate_limit_hits`; one upsert per hit. */
export class PostgresThrottleStore implements Store {
  readonly localKeys = false;
  private windowMs = 60_000;

  constructor(
    private readonly pool: Pool,
    readonly prefix: string,
  ) {}

  init(options: Options): void {
    this.windowMs = options.windowMs;
  }

  async increment(key: string): Promise<{ totalHits: number; resetTime: Date }> {
    const r = await this.pool.query<{ hits: number; resets_at: Date }>(
      `INSERT INTO rate_limit_hits AS h (limiter, key, hits, resets_at) VALUES ($1, $2, 1, now() + make_interval(secs => $3 / 1000.0))
       ON CONFLICT (limiter, key) DO UPDATE SET
         hits = CASE WHEN h.resets_at <= now() THEN 1 ELSE h.hits + 1 END,
         resets_at = CASE WHEN h.resets_at <= now() THEN EXCLUDED.resets_at ELSE h.resets_at END
       RETURNING hits, resets_at`,
      [this.prefix, key, this.windowMs],
    );
    // Now and then, the windows that ended long ago go.
    if (Math.random() < 0.01) void this.pool.query(`DELETE FROM rate_limit_hits WHERE resets_at < now() - interval '1 hour'`).catch(() => undefined);
    return { totalHits: r.rows[0]!.hits, resetTime: r.rows[0]!.resets_at };
  }

  async decrement(key: string): Promise<void> {
    await this.pool.query(`UPDATE rate_limit_hits SET hits = greatest(hits - 1, 0) WHERE limiter = $1 AND key = $2 AND resets_at > now()`, [this.prefix, key]);
  }

  async resetKey(key: string): Promise<void> {
    await this.pool.query(`DELETE FROM rate_limit_hits WHERE limiter = $1 AND key = $2`, [this.prefix, key]);
  }
}

/** Where a limiter keeps its counters: a store per limiter name (default: this process's memory). */
export type ThrottleStores = (limiter: string) => Store | undefined;

export const postgresThrottleStores =
  (pool: Pool): ThrottleStores =>
  (limiter) =>
    new PostgresThrottleStore(pool, limiter);

export interface ThrottleOptions {
  /** names the limit in the 429 message and the policy header */
  name: string;
  limit: number;
  windowMs?: number;
}

export function throttle({ name, limit, windowMs = 60_000 }: ThrottleOptions, log?: Logger, stores?: ThrottleStores): RateLimitRequestHandler {
  const store = stores?.(name);
  return rateLimit({
    ...(store ? { store } : {}),
    // The library's configuration checks (e.g. X-Forwarded-For present while TRUST_PROXY is off: either a
    // client playing games or a proxy nobody told us about) go to our log, once per limiter, not stderr.
    ...(log
      ? {
          logger: {
            warn: (e: unknown, m?: string) => log.warn({ err: e, limiter: name }, m ?? 'rate limiter'),
            error: (e: unknown, m?: string) => log.warn({ err: e, limiter: name }, m ?? 'rate limiter'),
          },
        }
      : {}),
    windowMs,
    limit,
    identifier: name,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (_req, res, _next, options) => {
      res.status(options.statusCode).json(errorBody('RATE_LIMITED', `too many ${name} requests; try again later`));
    },
  });
}

export const LIMITS = {
  login: { name: 'login', limit: 5 },
  registration: { name: 'registration', limit: 5 },
  upload: { name: 'upload', limit: 10 },
} as const satisfies Record<string, ThrottleOptions>;
