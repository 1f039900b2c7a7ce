/**
 * The in-process cache in front of the public read endpoints (docs/api.md, Public read caching;
 * README, "How it works").
 *
 * Invalidation is by domain version rather than by key: a write path knows which kinds of data it
 * touched (meta, goods, matrix) but not which of the many cached responses show them, so it bumps
 * those domains and every entry that depends on one is void at once. The time-to-live only bounds
 * what a missed bump (for example a lost notification) can cost.
 *
 * Entries are kept serialised with their ETag, so a hit costs no JSON work and a revalidation
 * (If-None-Match) costs no body at all (see ./http.ts).
 *
 * Bounded twice: by entries (`maxEntries`) and by the bytes of what they hold (`maxBytes`, the bodies
 * and their keys), least recently used first. The bytes are the bound that matters: a body is a
 * Buffer outside the V8 heap, so the heap cap does not limit them, and one list of the whole catalog
 * is some 17 MB; an anonymous client asking for many distinct lists must not grow the process.
 */
import { createHash } from 'node:crypto';

export const CACHE_DOMAINS = ['meta', 'goods', 'matrix'] as const;
export type CacheDomain = (typeof CACHE_DOMAINS)[number];

export function isCacheDomain(s: string): s is CacheDomain {
  return (CACHE_DOMAINS as readonly string[]).includes(s);
}

/** A response ready to write: the UTF-8 JSON body and its strong ETag. */
export interface CachedResponse {
  readonly body: Buffer;
  readonly etag: string;
  /** the content coding of `body` (a compressed representation); absent: the JSON itself */
  readonly encoding?: 'br' | 'gzip';
}

export interface PublicCacheOptions {
  ttlMs: number;
  maxEntries: number;
  /** bytes of bodies (and keys) kept at most; an answer larger than this is served but not kept */
  maxBytes: number;
  disabled: boolean;
  /** Injectable clock, so expiry can be tested without sleeping. */
  now?: () => number;
}

type Versions = Record<CacheDomain, number>;

interface Entry {
  readonly response: CachedResponse;
  /** a derived entry (see `derived`): the ETag of the response it was made from */
  readonly source?: string;
  /** what it counts against `maxBytes` */
  readonly size: number;
  /** When the load started: the data can be no newer than that, so its age counts from there. */
  readonly storedAt: number;
  readonly domains: readonly CacheDomain[];
  /** All domain versions seen when the load started. */
  readonly versions: Readonly<Versions>;
}

// ids are 64-bit and travel as decimal strings (src/platform/ids.ts); JSON.stringify would throw on bigint.
const bigintAsDecimal = (_key: string, value: unknown): unknown => (typeof value === 'bigint' ? value.toString() : value);

/**
 * JSON.stringify without a replacer first: a replacer is called for every key and value and takes
 * V8 off its fast path (a 17 MB list: 300 ms instead of 140). Only a value holding a bigint, which
 * plain JSON.stringify refuses, is written again with the replacer.
 */
function toJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch (e) {
    if (e instanceof TypeError && /BigInt/i.test(e.message)) return JSON.stringify(value, bigintAsDecimal);
    throw e;
  }
}

/**
 * A value its loader has already written as JSON, with a strong ETag of those bytes: stored and
 * served as it is (the storefront's list, src/storefront/list-bytes.ts).
 */
export class PreparedJson implements CachedResponse {
  constructor(
    readonly body: Buffer,
    readonly etag: string,
  ) {}
}

/** JSON and ETag for a value; the uncached read paths use it too, so both answer alike. */
export function serialise(value: unknown): CachedResponse {
  if (value instanceof PreparedJson) return value;
  const json = toJson(value);
  // undefined, a function or a symbol has no JSON text; an empty 200 would be a silent bug.
  if (json === undefined) throw new TypeError('serialise: the value has no JSON representation');
  const body = Buffer.from(json, 'utf8');
  return { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
}

/** Versions arrive from the database as int8 (a string with our pg type parsers) or as numbers. */
function toVersion(domain: CacheDomain, v: number | bigint | string): number {
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(BigInt(v)) : typeof v === 'bigint' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) {
    throw new RangeError(`syncVersions: version of ${domain} must be a non-negative integer, got ${String(v)}`);
  }
  return n;
}

/**
 * Whether a value is a promise: by its `then`, since `instanceof Promise` is false for one made in
 * another realm (node's own, e.g. a promisified zlib call, seen from a vm context such as a test's).
 */
export function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** The key a derived response (PublicCache.derived) is kept under: no public key holds a NUL. */
export function derivedKey(key: string, name: string): string {
  return `${key}\u0000${name}`;
}

export class PublicCache {
  private readonly entries = new Map<string, Entry>(); // Map order is recency order: first = least recently used
  private readonly flights = new Map<string, Promise<CachedResponse>>();
  private readonly current: Versions = { meta: 0, goods: 0, matrix: 0 };
  /** Raised by clear(), so loads started before it do not refill the cache afterwards. */
  private generation = 0;
  private readonly counters = { hits: 0, misses: 0, loads: 0, loadedBytes: 0, discardedStale: 0, evicted: 0, tooLarge: 0, derivedHits: 0, derivedMade: 0 };
  private readonly derivations = new Map<string, Promise<CachedResponse>>();
  /** the sum of the entries' sizes */
  private bytes = 0;
  private readonly byDomains = new Map<string, { hit: number; miss: number; load: number }>();
  private readonly now: () => number;

  constructor(private readonly opts: PublicCacheOptions) {
    this.now = opts.now ?? Date.now;
  }

  async get(key: string, domains: readonly CacheDomain[], load: () => Promise<unknown>): Promise<CachedResponse> {
    if (this.opts.disabled) {
      this.counters.misses++;
      this.counters.loads++;
      this.count(domains, 'miss');
      this.count(domains, 'load');
      const response = serialise(await load());
      this.counters.loadedBytes += response.body.length;
      return response;
    }

    const entry = this.entries.get(key);
    if (entry) {
      if (this.isFresh(entry, domains)) {
        this.entries.delete(key);
        this.entries.set(key, entry); // re-insert: now the most recently used
        this.counters.hits++;
        this.count(domains, 'hit');
        return entry.response;
      }
      this.drop(key);
    }
    this.counters.misses++;
    this.count(domains, 'miss');

    // The flight key carries the versions at the start of the load: a caller arriving after a bump
    // must not join a load that may have read the data before the write it is entitled to see.
    const snapshot: Versions = { ...this.current };
    const flightKey = JSON.stringify([key, this.generation, [...domains].sort().map((d) => [d, snapshot[d]])]);
    const running = this.flights.get(flightKey);
    if (running) return running;

    const flight = this.loadAndStore(key, domains, snapshot, load).finally(() => {
      if (this.flights.get(flightKey) === flight) this.flights.delete(flightKey);
    });
    this.flights.set(flightKey, flight);
    return flight;
  }

  /**
   * A fresh entry of `key`, counted as a hit, or undefined (counted as nothing: the caller then goes
   * through `get`, which counts the miss and loads). For a path that serves hits only.
   */
  peek(key: string, domains: readonly CacheDomain[]): CachedResponse | undefined {
    if (this.opts.disabled) return undefined;
    const entry = this.entries.get(key);
    if (!entry || !this.isFresh(entry, domains)) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry); // now the most recently used
    this.counters.hits++;
    this.count(domains, 'hit');
    return entry.response;
  }

  /**
   * A response made from a cached one (a page cut from a list, a compressed copy), kept as an entry
   * of its own (`derivedKey(key, name)`) under the source entry's domains and versions, so it is void
   * exactly when its source is, and counted in the same bounds. `source` is what the caller was
   * served for `key`; a derived entry made from another response of that key is made again. Answers
   * at once when kept (no await on the hot path); concurrent makers of one entry share one making.
   * When the source is not kept (too large, or replaced meanwhile) the response is made and not kept.
   */
  derived(key: string, source: CachedResponse, name: string, make: () => CachedResponse | Promise<CachedResponse>): CachedResponse | Promise<CachedResponse> {
    const dkey = derivedKey(key, name);
    const kept = this.entries.get(dkey);
    if (kept && kept.source === source.etag && this.isFresh(kept, kept.domains)) {
      this.entries.delete(dkey);
      this.entries.set(dkey, kept); // now the most recently used
      this.counters.derivedHits++;
      return kept.response;
    }
    const flightKey = `${dkey}\u0000${source.etag}`;
    const running = this.derivations.get(flightKey);
    if (running) return running;
    const made = make();
    if (!isPromise(made)) return this.storeDerived(key, source, dkey, made);
    const flight = made
      .then((response) => this.storeDerived(key, source, dkey, response))
      .finally(() => {
        if (this.derivations.get(flightKey) === flight) this.derivations.delete(flightKey);
      });
    this.derivations.set(flightKey, flight);
    return flight;
  }

  private storeDerived(key: string, source: CachedResponse, dkey: string, response: CachedResponse): CachedResponse {
    this.counters.derivedMade++;
    const from = this.entries.get(key);
    // Kept only while its source is the entry of `key` that is fresh now.
    if (!from || from.response !== source || !this.isFresh(from, from.domains)) return response;
    this.drop(dkey);
    this.keep(dkey, { response, source: source.etag, size: response.body.length + dkey.length * 2, storedAt: from.storedAt, domains: from.domains, versions: from.versions });
    return response;
  }

  bump(domains: readonly CacheDomain[]): void {
    for (const d of domains) this.current[d]++;
  }

  /**
   * Raises local versions to at least the given ones (versions learnt from the database or from
   * another process). Never lowers: a local bump not yet seen elsewhere must stay in force.
   */
  syncVersions(v: Partial<Record<CacheDomain, number | bigint | string>>): void {
    for (const d of CACHE_DOMAINS) {
      const given = v[d];
      if (given === undefined) continue;
      const n = toVersion(d, given);
      if (n > this.current[d]) this.current[d] = n;
    }
  }

  versions(): Record<CacheDomain, number> {
    return { ...this.current };
  }

  /**
   * `bytes`: what the entries hold now (bodies and keys); `loadedBytes`: the bodies of every load so
   * far; `evicted`: entries let go for room; `tooLarge`: answers over `maxBytes`, served but not kept;
   * `derivedHits`/`derivedMade`: derived responses (pages, compressed copies) served kept / made.
   */
  stats(): {
    entries: number;
    bytes: number;
    maxBytes: number;
    hits: number;
    misses: number;
    loads: number;
    loadedBytes: number;
    discardedStale: number;
    evicted: number;
    tooLarge: number;
    derivedHits: number;
    derivedMade: number;
  } {
    return { entries: this.entries.size, bytes: this.bytes, maxBytes: this.opts.maxBytes, ...this.counters };
  }

  /** Hits, misses and loads by the set of domains looked up (`goods,matrix,meta`). */
  statsByDomains(): Record<string, { hit: number; miss: number; load: number }> {
    return Object.fromEntries([...this.byDomains].map(([k, v]) => [k, { ...v }]));
  }

  private count(domains: readonly CacheDomain[], result: 'hit' | 'miss' | 'load'): void {
    // The routes pass the same few constant arrays: their counters are found without sorting per request.
    let c = this.countersOf.get(domains);
    if (!c) {
      const k = [...domains].sort().join(',');
      c = this.byDomains.get(k);
      if (!c) this.byDomains.set(k, (c = { hit: 0, miss: 0, load: 0 }));
      this.countersOf.set(domains, c);
    }
    c[result]++;
  }
  private readonly countersOf = new WeakMap<readonly CacheDomain[], { hit: number; miss: number; load: number }>();

  /** Drops every entry. Loads in progress still answer their callers but store nothing. */
  clear(): void {
    this.entries.clear();
    this.bytes = 0;
    this.generation++;
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.size;
  }

  private isFresh(entry: Entry, domains: readonly CacheDomain[]): boolean {
    if (this.now() - entry.storedAt > this.opts.ttlMs) return false;
    // Both lists count, so a caller naming a domain the storing caller did not is still protected.
    const unchanged = (d: CacheDomain): boolean => entry.versions[d] === this.current[d];
    return entry.domains.every(unchanged) && domains.every(unchanged);
  }

  private async loadAndStore(key: string, domains: readonly CacheDomain[], snapshot: Versions, load: () => Promise<unknown>): Promise<CachedResponse> {
    const generation = this.generation;
    const startedAt = this.now();
    this.counters.loads++;
    this.count(domains, 'load');
    const response = serialise(await load());
    this.counters.loadedBytes += response.body.length;

    // A bump during the load means the value may predate the write that caused it: the callers
    // who asked before the write may have it, but later callers must not.
    const stillCurrent = generation === this.generation && domains.every((d) => this.current[d] === snapshot[d]);
    if (!stillCurrent) {
      this.counters.discardedStale++;
      return response;
    }
    this.drop(key);
    // Two bytes a character: the key is a JS string on the heap; the body a Buffer outside it.
    this.keep(key, { response, size: response.body.length + key.length * 2, storedAt: startedAt, domains: [...domains], versions: snapshot });
    return response;
  }

  /** Stores an entry unless it alone passes the byte budget, then lets the least recently used go until both bounds hold. */
  private keep(key: string, entry: Entry): void {
    if (entry.size > this.opts.maxBytes) {
      this.counters.tooLarge++;
      return;
    }
    this.entries.set(key, entry);
    this.bytes += entry.size;
    // Least recently used first (Map order), until both bounds hold; the entry just stored is last.
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.opts.maxEntries && this.bytes <= this.opts.maxBytes) break;
      this.drop(oldest);
      this.counters.evicted++;
    }
  }
}
