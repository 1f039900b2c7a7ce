/**
 * Throttles (spec section 8: login 5/min, registration 5/min, upload 10/min). Keyed by `req.ip`, which
 * honours X-Forwarded-For only as far as TRUST_PROXY allows (off by default), so a client cannot dodge
 * a limit by inventing forwarding headers. Standard `RateLimit`/`RateLimit-Policy` headers (IETF
 * draft 8) plus `Retry-After` on a 429; the body is our error shape.
 *
 * The counters live in process memory: each process (and each app built in a test) counts on its
 * own. Several API processes behind a balancer multiply the budget by their number; a shared store
 * (express-rate-limit's Redis or PostgreSQL stores) is the step when that matters.
 */
import { rateLimit, type RateLimitRequestHandler } from 'express-rate-limit';
import type { Logger } from '../log';
import { errorBody } from './errors';

export interface ThrottleOptions {
  /** names the limit in the 429 message and the policy header */
  name: string;
  limit: number;
  windowMs?: number;
}

export function throttle({ name, limit, windowMs = 60_000 }: ThrottleOptions, log?: Logger): RateLimitRequestHandler {
  return rateLimit({
    // The library's configuration checks (e.g. X-Forwarded-For present while TRUST_PROXY is off: either a
    // client playing games or a proxy nobody told us about) go to our log, once per limiter, not stderr.
    ...(log ? { logger: { warn: (e: unknown, m?: string) => log.warn({ err: e, limiter: name }, m ?? 'rate limiter'), error: (e: unknown, m?: string) => log.warn({ err: e, limiter: name }, m ?? 'rate limiter') } } : {}),
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
