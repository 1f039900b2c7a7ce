/**
 * The public read path's fast lane: a cached public GET answered before express.
 *
 * Express runs its whole stack for every request: the request logger, helmet, CORS, cookie
 * parsing, the router's matching. For a storefront answer already in the cache that costs several
 * times the answer itself. This handler takes a GET or HEAD of a public read
 * route (./public-routes.ts PUBLIC_ROUTES, under the API's mount points) whose answer is in the cache and
 * fresh, and writes it with the headers express would have written (helmet's, captured once at
 * start-up, CORS, the request id, ETag/304, Cache-Control) and one short log line. Anything else (a
 * miss, bad input, another route) goes to express, which answers exactly as before and fills the
 * cache; the cross-process freshness check (./freshness.ts) runs here as there.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import { performance } from 'node:perf_hooks';
import type { RequestHandler } from 'express';
import { ifNoneMatchMatches } from '../platform/cache/http';
import { isPromise, type PublicCache } from '../platform/cache/public-cache';
import type { Logger } from '../platform/log';
import { requestLine } from '../platform/http/app';
import { corsAnswerHeaders } from '../platform/http/security';
import { clientRequestId } from '../platform/http/edge';
import { findInvalidText, findNonUtf8Query } from '../platform/http/text';
import type { FreshnessGate } from './freshness';
import { PUBLIC_CACHE_CONTROL, PUBLIC_ROUTES, type PublicRead } from './public-routes';
import { represent } from './representation';

type Route = (typeof PUBLIC_ROUTES)[number];

export interface FastPathOptions {
  deps: Parameters<Route['read']>[0] & { cache: PublicCache };
  /** where the API is mounted (e.g. '' and '/v2-api') */
  mounts: readonly string[];
  corsOrigins: readonly string[];
  /** the headers the security middleware sets on every answer, captured from it */
  securityHeaders: readonly [string, string][];
  gate: FreshnessGate | null;
  log: Logger;
  /** hears each answered request, as the express path's observer does */
  observe?: (method: string, route: string, status: number, seconds: number) => void;
}

/** Runs a connect-style middleware on a recording response and keeps the headers it set. */
export function capturedHeaders(middleware: RequestHandler): [string, string][] {
  const headers: [string, string][] = [];
  const res = {
    setHeader: (name: string, value: string | number | readonly string[]) => headers.push([name, Array.isArray(value) ? value.join(', ') : String(value)]),
    getHeader: () => undefined,
    removeHeader: () => undefined,
  };
  let nextCalled = false;
  middleware({ method: 'GET', headers: {}, url: '/' } as never, res as never, () => (nextCalled = true));
  if (!nextCalled) throw new Error('the security middleware did not pass the request on');
  return headers;
}

/** Exact paths, and paths with one `:param` segment, as PUBLIC_ROUTES uses them. */
function matcher(routes: readonly Route[]) {
  const exact = new Map<string, Route>();
  const patterns: { prefix: string; name: string; route: Route }[] = [];
  for (const route of routes) {
    const m = /^(.*\/):(\w+)$/.exec(route.path);
    if (m) patterns.push({ prefix: m[1]!, name: m[2]!, route });
    else exact.set(route.path, route);
  }
  return (path: string): { route: Route; params: Record<string, string> } | null => {
    const route = exact.get(path);
    if (route) return { route, params: {} };
    for (const p of patterns) {
      if (!path.startsWith(p.prefix)) continue;
      const value = path.slice(p.prefix.length);
      if (value === '' || value.includes('/')) continue;
      return { route: p.route, params: { [p.name]: value } };
    }
    return null;
  };
}

/** Distinct request URLs whose read (route, parsed query, cache key) the fast lane remembers. */
const READS_KEPT = 2_000;
/** …each URL up to this length: what the remembered reads hold stays small, whatever clients send. */
const MAX_KEPT_URL = 512;

/**
 * Returns the fast lane: it answers a request and resolves true, or leaves it untouched and resolves
 * false for express to handle.
 *
 * Per request it does as little as it can: the read of a URL (its parsed and validated query, its
 * cache key) is remembered, so a URL seen before costs one Map lookup instead of query parsing and
 * schema validation; the page of a list and its compressed copies are cache entries of their own
 * (./representation.ts); the headers that never change are one array written with writeHead, and
 * the log line is built only when its level is on.
 */
export function publicFastPath(opts: FastPathOptions): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  const match = matcher(PUBLIC_ROUTES);
  const mounts = [...new Set(opts.mounts.map((m) => m.replace(/\/+$/, '')))];
  const corsHeaders = corsAnswerHeaders(opts.corsOrigins);
  // Vary: CORS says Origin; the representation depends on Accept-Encoding (./representation.ts).
  const fixed = [...opts.securityHeaders.filter(([name]) => name.toLowerCase() !== 'vary').flat(), 'Cache-Control', PUBLIC_CACHE_CONTROL];
  const reads = new Map<string, { read: PublicRead; mount: string; route: Route }>();

  const readOf = async (url: string): Promise<{ read: PublicRead; mount: string; route: Route } | null> => {
    const known = reads.get(url);
    if (known) return known;
    const q = url.indexOf('?');
    const rawPath = q < 0 ? url : url.slice(0, q);
    // Only plain paths: percent-encoding, dot segments, case variants are express's to resolve.
    if (!/^[A-Za-z0-9/_-]+$/.test(rawPath)) return null;
    const mount = mounts.find((m) => rawPath.startsWith(m + '/public/'));
    if (mount === undefined) return null;
    const found = match(rawPath.slice(mount.length));
    if (!found) return null;
    // The query parsed as express parses it ("simple": node's querystring), so both paths see the same values.
    const rawQuery = q < 0 ? '' : url.slice(q + 1);
    const query = parseQueryString(rawQuery);
    // Text the express path refuses (the same checks: src/platform/http/text.ts) goes there for its 400.
    if (findNonUtf8Query(rawQuery) !== null || findInvalidText(query, 'query') !== null) return null;
    let read: PublicRead;
    try {
      read = await found.route.read(opts.deps, found.params, query);
    } catch {
      return null;
    }
    const kept = { read, mount, route: found.route };
    if (url.length <= MAX_KEPT_URL) {
      if (reads.size >= READS_KEPT) reads.delete(reads.keys().next().value!);
      reads.set(url, kept);
    }
    return kept;
  };

  return async (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const url = req.url ?? '';
    const known = await readOf(url);
    if (!known) return false;
    const { read, mount, route } = known;
    const started = performance.now();
    if (opts.gate) await opts.gate.fresh();
    const entry = opts.deps.cache.peek(read.key, read.domains);
    if (!entry) return false;
    const made = represent(opts.deps.cache, read, entry, req.headers['accept-encoding']);
    const response = isPromise(made) ? await made : made;

    // The server's own id, as on the express path (src/platform/http/app.ts); the client's is logged apart.
    const id = randomUUID();
    const headers = [...fixed, 'X-Request-Id', id, 'ETag', response.etag];
    let vary = 'Accept-Encoding';
    for (const [name, value] of corsHeaders(req.headers.origin)) {
      if (name === 'Vary') vary = `${value}, ${vary}`;
      else headers.push(name, value);
    }
    headers.push('Vary', vary);
    let status = 200;
    if (ifNoneMatchMatches(req.headers['if-none-match'], response.etag)) {
      status = 304;
      res.writeHead(304, headers);
      res.end();
    } else {
      headers.push('Content-Type', 'application/json; charset=utf-8', 'Content-Length', String(response.body.length));
      if (response.encoding) headers.push('Content-Encoding', response.encoding);
      res.writeHead(200, headers);
      if (req.method === 'HEAD') res.end();
      else res.end(response.body);
    }
    const seconds = (performance.now() - started) / 1000;
    if (opts.log.isLevelEnabled('info')) {
      const given = clientRequestId(req.headers['x-request-id']);
      // The same line express's request logger writes (src/platform/http/app.ts), marked as a cache answer.
      opts.log.info(
        {
          req: { id, method: req.method, url },
          ...(given ? { clientRequestId: given } : {}),
          res: { statusCode: status },
          responseTime: Math.round(seconds * 10_000) / 10,
          cached: true,
        },
        `${requestLine(req, status, seconds * 1000)} (cached)`,
      );
    }
    opts.observe?.(req.method ?? 'GET', mount + route.path, status, seconds);
    return true;
  };
}
