/**
 * Writes a cached (already serialised) response with `res.end`, not Express's `res.send`: the bytes and
 * ETag are final, so nothing should depend on the app's etag/freshness settings, and the conditional
 * rule stays one small function that is tested on its own.
 */
import type { Request, Response } from 'express';
import type { CachedResponse } from './public-cache';

// The quoted opaque part of each entity-tag (RFC 9110 §8.8.3). It may hold commas, so the list is not
// split on them; a weak prefix sits outside the quotes, which is all the weak comparison needs.
const OPAQUE_TAG = /"([^"]*)"/g;

const opaqueTag = (etag: string): string => etag.replace(/^W\//, '').replace(/^"|"$/g, '');

/** If-None-Match uses the weak comparison (RFC 9110 §13.1.2): tags match when their opaque parts do. */
export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true; // any current representation; we have one
  const ours = opaqueTag(etag);
  for (const m of header.matchAll(OPAQUE_TAG)) {
    if (m[1] === ours) return true;
  }
  return false;
}

/**
 * For GET and HEAD routes (the public read path): there a matching If-None-Match means 304. The
 * representation was chosen by Accept-Encoding (src/storefront/representation.ts), so every answer
 * says so in Vary, a 304 too.
 */
export function sendCached(req: Request, res: Response, entry: CachedResponse, cacheControl: string): void {
  // A 304 must carry the validators and caching headers the 200 would have (RFC 9110 §15.4.5).
  res.setHeader('ETag', entry.etag);
  res.setHeader('Cache-Control', cacheControl);
  res.vary('Accept-Encoding');
  if (ifNoneMatchMatches(req.headers['if-none-match'], entry.etag)) {
    res.status(304).end();
    return;
  }
  res.status(200);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  if (entry.encoding) res.setHeader('Content-Encoding', entry.encoding);
  res.setHeader('Content-Length', entry.body.length);
  res.end(entry.body);
}
