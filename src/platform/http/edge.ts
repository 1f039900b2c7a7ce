/**
 * Checks every request passes once, before routing (docs/http-contract.md): writes from another
 * origin, bodies that are not JSON, and text no query or event may carry. Each is a 4xx with a code.
 */
import type { Request, RequestHandler } from 'express';
import { AppError } from '../errors';
import { findInvalidText, findNonUtf8Query, isUtf8Bytes } from './text';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** `example.com:443` and `example.com` are one host for an https page; ports are compared, schemes not. */
function hostKey(host: string, defaultPort?: string): string {
  const h = host.trim().toLowerCase();
  const m = /^(.*?)(?::(\d+))?$/.exec(h)!;
  const port = m[2] ?? defaultPort;
  return port === undefined || port === '80' || port === '443' ? m[1]! : `${m[1]}:${port}`;
}

/**
 * Refuses a state-changing request whose `Origin` is neither this service's own (the Host it was
 * addressed to, or X-Forwarded-Host when TRUST_PROXY trusts the proxy: express's `req.host`) nor in
 * CORS_ORIGINS, with 403 `REQUEST.CROSS_ORIGIN`. A request without `Origin` (a script, curl, a
 * same-origin GET form) is not a browser's cross-site write, and passes. Cookies are SameSite=Lax,
 * which a sibling site or an older browser does not stop; this does.
 */
export function sameOriginWrites(corsOrigins: readonly string[]): RequestHandler {
  const any = corsOrigins.includes('*');
  const listed = new Set(corsOrigins.filter((o) => o !== '*').map((o) => o.replace(/\/+$/, '').toLowerCase()));
  return (req, _res, next) => {
    if (!WRITES.has(req.method)) return next();
    const origin = req.headers.origin;
    if (origin === undefined) return next();
    if (origin !== 'null') {
      if (any || listed.has(origin.replace(/\/+$/, '').toLowerCase())) return next();
      const own = req.host;
      try {
        const u = new URL(origin);
        if (own && hostKey(u.host) === hostKey(own)) return next();
      } catch {
        /* not a URL: not this origin either */
      }
    }
    next(new AppError('REQUEST.CROSS_ORIGIN', 403, `writes from ${origin.slice(0, 200)} are not accepted; only this service's own origin or CORS_ORIGINS`));
  };
}

const hasBody = (req: Request) => {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
};

/**
 * A write carrying a body must say it is JSON (`application/json`), else 415
 * `REQUEST.UNSUPPORTED_MEDIA_TYPE`: a form or `text/plain` body (what a cross-site form can send
 * without a preflight) never reaches a route. `raw` names the routes that take another body (uploads).
 */
export function jsonBodiesOnly(raw: (path: string) => boolean): RequestHandler {
  return (req, _res, next) => {
    if (!WRITES.has(req.method) || !hasBody(req) || raw(req.path)) return next();
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type === 'application/json') return next();
    next(new AppError('REQUEST.UNSUPPORTED_MEDIA_TYPE', 415, 'send the body as application/json'));
  };
}

/**
 * The JSON reader (`read`, express.json) on writes only: a read's body is no part of it and is not
 * read at all (so a read never answers 400, 413 or 415 about a body), nor is an upload's, which is
 * multipart for its route to read.
 */
export function jsonBodies(read: RequestHandler, raw: (path: string) => boolean): RequestHandler {
  return (req, res, next) => (WRITES.has(req.method) && !raw(req.path) ? read(req, res, next) : next());
}

/** Decoded path segments as a route will see them; a malformed escape is left for express's own 400. */
function pathSegments(path: string): string[] {
  return path.split('/').map((s) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return '';
    }
  });
}

const invalidText = (where: string) =>
  AppError.badRequest('REQUEST.INVALID_TEXT', `${where} contains a NUL character, an unpaired surrogate or bytes that are not UTF-8`, { path: where });

/**
 * NUL and lone surrogates in the path, the query or a JSON body, and percent-escaped bytes in the
 * query that are not UTF-8: 400 `REQUEST.INVALID_TEXT` naming where (`query.keyword`,
 * `body.goods.0.name`). Runs after the JSON parser, before any route.
 */
export const refuseInvalidText: RequestHandler = (req, _res, next) => {
  const q = req.originalUrl.indexOf('?');
  const where =
    findInvalidText(pathSegments(req.path), 'path') ??
    (q < 0 ? null : findNonUtf8Query(req.originalUrl.slice(q + 1))) ??
    findInvalidText(req.query, 'query') ??
    findInvalidText(req.body, 'body');
  if (!where) return next();
  next(invalidText(where));
};

/**
 * The JSON parser's `verify`: a body whose bytes are not UTF-8 is refused before they are decoded
 * (the decoder would store U+FFFD in their place), as a lone surrogate is after.
 */
export function verifyUtf8Body(_req: unknown, _res: unknown, body: Buffer): void {
  if (!isUtf8Bytes(body)) throw invalidText('body');
}

/**
 * A client's X-Request-Id when it is sane enough to log (1 to 100 word characters, dots and dashes).
 * Logged as `clientRequestId`, never the request's own id: that is the server's, and becomes the
 * correlation id of the events the request appends.
 */
export function clientRequestId(given: unknown): string | undefined {
  return typeof given === 'string' && /^[\w.-]{1,100}$/.test(given) ? given : undefined;
}
