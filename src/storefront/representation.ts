/**
 * The representation of a public answer a request gets: the page of a list (./page-slice.ts) and, for
 * a client that accepts it, a brotli or gzip copy (docs/api.md, Public read caching, rule 9). Each is a
 * derived entry of the public cache (PublicCache.derived): kept under the answer's domains and
 * versions, counted in PUBLIC_CACHE_MAX_BYTES, void with the answer, and made once per answer, not
 * per request. Each representation has a strong ETag of its own; the express routes and the fast
 * lane both answer through here, so they answer alike.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { type CachedResponse, type PublicCache, derivedKey, isPromise } from '../platform/cache/public-cache';
import { arrayIndexOf, pageOf } from './page-slice';
import type { PublicRead } from './public-routes';

export type ContentCoding = 'br' | 'gzip';

/** Below this a compressed copy saves less than its headers and the work cost. */
export const MIN_COMPRESSED_BYTES = 1024;
/**
 * Compressed on the request loop up to this size (brotli at quality 5 takes some 0.1 ms for 32 KB);
 * larger bodies are compressed on libuv's thread pool, so a big answer never stalls other requests.
 */
const ON_LOOP_BYTES = 64 * 1024;
/** Brotli 5: within a few per cent of quality 11 on these answers at a hundredth of its time (README, Benchmark figures). */
const BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT } };
const GZIP = { level: 6 };
const brotliAsync = promisify(zlib.brotliCompress);
const gzipAsync = promisify(zlib.gzip);

const preferred = new Map<string, ContentCoding | null>();

/**
 * The coding to answer in for an Accept-Encoding header (RFC 9110 §12.5.3): br if accepted, else gzip,
 * else none. A coding with q=0 is refused; `*` accepts any coding not named. Remembered per distinct
 * header (browsers send a handful), at most 256 of them.
 */
export function acceptedCoding(header: string | undefined): ContentCoding | null {
  if (!header) return null;
  const known = preferred.get(header);
  if (known !== undefined) return known;
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    let weight = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p);
      if (m) weight = Number(m[1]);
    }
    q.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const accepts = (coding: string) => (q.get(coding) ?? (coding === 'gzip' ? q.get('x-gzip') : undefined) ?? q.get('*') ?? 0) > 0;
  const coding: ContentCoding | null = accepts('br') ? 'br' : accepts('gzip') ? 'gzip' : null;
  if (preferred.size >= 256) preferred.clear();
  preferred.set(header, coding);
  return coding;
}

const TAG_SUFFIX: Record<ContentCoding, string> = { br: '-br', gzip: '-gz' };

/** A strong ETag for a compressed copy: the identity's, marked with the coding. */
export function codedEtag(etag: string, coding: ContentCoding): string {
  return `"${etag.replace(/^W\//, '').replace(/^"|"$/g, '')}${TAG_SUFFIX[coding]}"`;
}

function compress(identity: CachedResponse, coding: ContentCoding): CachedResponse | Promise<CachedResponse> {
  const etag = codedEtag(identity.etag, coding);
  if (identity.body.length <= ON_LOOP_BYTES) {
    const body = coding === 'br' ? zlib.brotliCompressSync(identity.body, BROTLI) : zlib.gzipSync(identity.body, GZIP);
    return { body, etag, encoding: coding };
  }
  const made = coding === 'br' ? brotliAsync(identity.body, BROTLI) : gzipAsync(identity.body, GZIP);
  return made.then((body) => ({ body, etag, encoding: coding }));
}

/**
 * What to send for `read`, given its cache entry `entry` and the request's Accept-Encoding: answers at
 * once when every part is kept (the hot path awaits nothing).
 */
export function represent(cache: PublicCache, read: PublicRead, entry: CachedResponse, acceptEncoding: string | undefined): CachedResponse | Promise<CachedResponse> {
  let key = read.key;
  let identity: CachedResponse | Promise<CachedResponse> = entry;
  if (read.page) {
    const { page, pageSize } = read.page;
    const name = `page=${page},${pageSize}`;
    // An empty searched list carries its suggestions, read with the page and kept with it: the page
    // is void with the list, and every bump that can change a suggestion (goods, meta) voids the list.
    const suggest = read.suggest;
    identity = cache.derived(key, entry, name, () =>
      suggest && arrayIndexOf(entry.body).starts.length === 0 ? suggest().then((s) => pageOf(entry, page, pageSize, s)) : pageOf(entry, page, pageSize),
    );
    key = derivedKey(key, name);
  }
  const coding = acceptedCoding(acceptEncoding);
  if (coding === null) return identity;
  const coded = (id: CachedResponse) => (id.body.length < MIN_COMPRESSED_BYTES ? id : cache.derived(key, id, coding, () => compress(id, coding)));
  return isPromise(identity) ? identity.then(coded) : coded(identity);
}
