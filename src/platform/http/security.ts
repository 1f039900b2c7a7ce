/**
 * The security envelope that runs before routing: helmet's headers, CORS, cookie parsing.
 *
 * Helmet's defaults with two exceptions (docs/security.md, Headers and CORS): no `upgrade-insecure-requests` in the CSP
 * (the development docs must load over plain HTTP) and `Cross-Origin-Resource-Policy: cross-origin`
 * (uploaded images are embedded by storefronts on other origins). `X-Powered-By` is off (createApp).
 */
import cookieParser from 'cookie-parser';
import type { RequestHandler } from 'express';
import helmet from 'helmet';

const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
const ALLOWED_HEADERS = 'Content-Type, Authorization, X-Request-Id, If-None-Match, If-Match, Idempotency-Key';
const EXPOSED_HEADERS = 'X-Request-Id, Retry-After, RateLimit, RateLimit-Policy, ETag, Idempotent-Replayed';

export function securityHeaders(): RequestHandler {
  return helmet({
    contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
    crossOriginResourcePolicy: { policy: 'cross-origin' },
  });
}

/**
 * CORS for the origins in CORS_ORIGINS, with credentials (the session is a cookie). `*` admits any
 * origin by reflecting it, never by sending a literal `*` (browsers refuse that with credentials).
 * The opaque origin `null` (sandboxed frames, file://) is never admitted, not even by `*`: anyone can
 * produce it. A disallowed origin gets no CORS headers at all, so the browser withholds the answer.
 * `Vary: Origin` on every answer keeps shared caches from serving one origin's headers to another.
 */
export function cors(origins: readonly string[]): RequestHandler {
  const any = origins.includes('*');
  const listed = new Set(origins.filter((o) => o !== '*').map((o) => o.replace(/\/+$/, '')));
  return (req, res, next) => {
    res.vary('Origin');
    const origin = req.headers.origin;
    const allowed = originAllowed(any, listed, origin);
    const preflight = req.method === 'OPTIONS' && typeof req.headers['access-control-request-method'] === 'string';
    if (allowed) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Allow-Credentials', 'true');
      if (!preflight) res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    }
    if (!preflight) return next();
    // A preflight is answered here whatever the path: routes never see OPTIONS.
    if (allowed) {
      res.setHeader('Access-Control-Allow-Methods', ALLOWED_METHODS);
      res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
      res.setHeader('Access-Control-Max-Age', '600');
    }
    res.status(204).end();
  };
}

function originAllowed(any: boolean, listed: ReadonlySet<string>, origin: string | undefined): origin is string {
  return typeof origin === 'string' && origin !== 'null' && (any || listed.has(origin));
}

/** The CORS headers `cors` sets on an answer that is not a preflight, for a path that bypasses express. */
export function corsAnswerHeaders(origins: readonly string[]): (origin: string | undefined) => [string, string][] {
  const any = origins.includes('*');
  const listed = new Set(origins.filter((o) => o !== '*').map((o) => o.replace(/\/+$/, '')));
  const vary: [string, string] = ['Vary', 'Origin'];
  return (origin) =>
    originAllowed(any, listed, origin)
      ? [vary, ['Access-Control-Allow-Origin', origin], ['Access-Control-Allow-Credentials', 'true'], ['Access-Control-Expose-Headers', EXPOSED_HEADERS]]
      : [vary];
}

/** Reads cookies into `req.cookies`. Values may come back as non-strings (`j:` JSON cookies): see auth/cookies.ts. */
export function cookies(): RequestHandler {
  return cookieParser();
}

export function securityMiddleware(opts: { corsOrigins: readonly string[] }): RequestHandler[] {
  return [securityHeaders(), cors(opts.corsOrigins), cookies()];
}
