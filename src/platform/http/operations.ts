/**
 * Which operation a request is, before or after express routes it: the middleware in front of the
 * routes that acts per operation (the query rule, Idempotency-Key) asks the documented operations
 * (their RouteDocs, the list the OpenAPI description is made from), and the 405 after them asks the
 * routes really mounted.
 */
import type { RequestHandler, Router } from 'express';
import { AppError } from '../errors';
import { mountedRoutes } from './routes-audit';

/** `/goods/:id` → a pattern of the paths express routes there (case-insensitive, an optional trailing slash). */
function pathPattern(path: string): RegExp {
  const source = path
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`, 'i');
}

/** The method a route is declared with that answers this request: express answers HEAD with the GET route. */
const routedMethod = (method: string) => (method === 'HEAD' ? 'GET' : method);

/**
 * The operations (anything with a method and an express path) a request routes to: those of its
 * path and method. Several can match (`PATCH /categories/sort` and `PATCH /categories/:id`).
 */
export function operationsOf<T extends { method: string; path: string }>(operations: readonly T[]): (method: string, path: string) => T[] {
  const ops = operations.map((op) => ({ op, method: op.method.toUpperCase(), pattern: pathPattern(op.path) }));
  return (method, path) => {
    const m = routedMethod(method);
    return ops.filter((o) => o.method === m && o.pattern.test(path)).map((o) => o.op);
  };
}

/** The order methods are listed in an `Allow` header. */
const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * After a router's routes: a request for a path the router serves, with a method it does not serve
 * there, is 405 `REQUEST.METHOD_NOT_ALLOWED` with `Allow` naming the methods the path has (GET
 * brings HEAD), instead of the 404 of a path that does not exist (docs/api.md, Errors). The routes
 * are read from the router itself once it serves, so a route mounted later in the same router
 * counts; `include` narrows them (the root router holds the web apps and the API's second mount).
 * OPTIONS is left to the router, which answers it with the same `Allow`.
 */
export function methodNotAllowed(router: Router, include: (route: { method: string; path: string }) => boolean = () => true): RequestHandler {
  let paths: { pattern: RegExp; methods: Set<string> }[] | null = null;
  const known = () => {
    if (paths) return paths;
    const byPath = new Map<string, Set<string>>();
    for (const r of mountedRoutes(router)) {
      // Only plain paths and `:params`: the web apps' wildcards are not operations.
      if (!include(r) || /[*(]/.test(r.path)) continue;
      const methods = byPath.get(r.path) ?? byPath.set(r.path, new Set()).get(r.path)!;
      methods.add(r.method);
      if (r.method === 'GET') methods.add('HEAD');
    }
    paths = [...byPath].map(([path, methods]) => ({ pattern: pathPattern(path), methods }));
    return paths;
  };
  return (req, res, next) => {
    if (req.method === 'OPTIONS') return next();
    const here = known().filter((p) => p.pattern.test(req.path));
    if (here.length === 0 || here.some((p) => p.methods.has(req.method))) return next();
    const allowed = METHOD_ORDER.filter((m) => here.some((p) => p.methods.has(m)));
    res.setHeader('Allow', allowed.join(', '));
    next(new AppError('REQUEST.METHOD_NOT_ALLOWED', 405, `${req.method} is not a method of ${req.path}; it has ${allowed.join(', ')}`, { allowed }));
  };
}
