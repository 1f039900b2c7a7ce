/**
 * Checks every request passes once, before routing (docs/http-contract.md): writes from another
 * origin, bodies that are not JSON, and text no query or event may carry. Each is a 4xx with a code.
 */
import type { Request, RequestHandler } from 'express';
import { AppError } from '../errors';
import { findInvalidText } from './text';

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

/**
 * NUL and lone surrogates in the path, the query or a JSON body: 400 `REQUEST.INVALID_TEXT` naming
 * where (`query.keyword`, `body.goods.0.name`). Runs after the JSON parser, before any route.
 */
export const refuseInvalidText: RequestHandler = (req, _res, next) => {
  const where = findInvalidText(pathSegments(req.path), 'path') ?? findInvalidText(req.query, 'query') ?? findInvalidText(req.body, 'body');
  if (!where) return next();
  next(AppError.badRequest('REQUEST.INVALID_TEXT', `${where} contains a NUL character or an unpaired surrogate`, { path: where }));
};
