import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { loadConfig } from '../../../../src/config';
import { createHttpServer } from '../../../../src/platform/http/server';
import { ifNoneMatchMatches, sendCached } from '../../../../src/platform/cache/http';
import { CACHE_DOMAINS, derivedKey, isCacheDomain, PublicCache, serialise, type CachedResponse, type PublicCacheOptions } from '../../../../src/platform/cache/public-cache';

/** A loader the test settles by hand, so "during the load" is a real, controllable moment. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A cache on a hand-driven clock, and a loader that counts its calls and returns call-numbered values. */
function given(opts: Partial<PublicCacheOptions> = {}) {
  const clock = { t: 1_000 };
  const cache = new PublicCache({ ttlMs: 60_000, maxEntries: 100, maxBytes: 1024 * 1024, disabled: false, now: () => clock.t, ...opts });
  const calls: string[] = [];
  const loader = (name: string) => async () => {
    calls.push(name);
    return { name, call: calls.length };
  };
  return { cache, clock, calls, loader };
}

const json = (r: CachedResponse): unknown => JSON.parse(r.body.toString('utf8'));

describe('PublicCache', () => {
  describe('invalidation domains', () => {
    it('are exactly meta, goods and matrix', () => {
      expect(CACHE_DOMAINS).toEqual(['meta', 'goods', 'matrix']);
      for (const d of CACHE_DOMAINS) expect(isCacheDomain(d)).toBe(true);
      for (const s of ['Goods', 'price', '', 'constructor', 'meta ']) expect(isCacheDomain(s)).toBe(false);
    });

    it('each start at version 0 and bump raises only the domains named', () => {
      const { cache } = given();
      expect(cache.versions()).toEqual({ meta: 0, goods: 0, matrix: 0 });
      cache.bump(['goods', 'matrix']);
      cache.bump(['goods']);
      expect(cache.versions()).toEqual({ meta: 0, goods: 2, matrix: 1 });
    });

    it('versions() is a copy the caller cannot use to change the cache', () => {
      const { cache } = given();
      cache.versions().goods = 99;
      expect(cache.versions().goods).toBe(0);
    });

    it('a bump voids the entries of that domain at once, without waiting for the time-to-live', async () => {
      const { cache, loader, calls } = given();
      expect(json(await cache.get('home', ['goods'], loader('home')))).toEqual({ name: 'home', call: 1 });
      expect(json(await cache.get('home', ['goods'], loader('home')))).toEqual({ name: 'home', call: 1 });
      cache.bump(['goods']);
      expect(json(await cache.get('home', ['goods'], loader('home')))).toEqual({ name: 'home', call: 2 });
      expect(calls).toHaveLength(2);
    });

    it('a bump of another domain leaves the entry in place', async () => {
      const { cache, loader, calls } = given();
      await cache.get('tree', ['meta'], loader('tree'));
      cache.bump(['goods', 'matrix']);
      await cache.get('tree', ['meta'], loader('tree'));
      expect(calls).toHaveLength(1);
      expect(cache.stats()).toMatchObject({ hits: 1, misses: 1, loads: 1 });
    });

    it('an entry depending on several domains is void when any one of them is bumped', async () => {
      const { cache, loader, calls } = given();
      await cache.get('detail:1', ['goods', 'matrix'], loader('detail'));
      cache.bump(['matrix']);
      await cache.get('detail:1', ['goods', 'matrix'], loader('detail'));
      cache.bump(['goods']);
      await cache.get('detail:1', ['goods', 'matrix'], loader('detail'));
      expect(calls).toHaveLength(3);
    });

    it('a bump of a domain named only by the reading caller voids the entry', async () => {
      const { cache, loader, calls } = given();
      await cache.get('k', ['goods'], loader('k'));
      cache.bump(['matrix']);
      await cache.get('k', ['goods', 'matrix'], loader('k'));
      expect(calls).toHaveLength(2);
    });

    it('a bump of a domain named only by the storing caller voids the entry', async () => {
      const { cache, loader, calls } = given();
      await cache.get('k', ['goods', 'matrix'], loader('k'));
      cache.bump(['matrix']);
      await cache.get('k', ['goods'], loader('k'));
      expect(calls).toHaveLength(2);
    });

    it('syncVersions raises versions from numbers, bigints and int8 strings, and ignores absent domains', () => {
      const { cache } = given();
      cache.syncVersions({ meta: 3, goods: 7n, matrix: '12' });
      expect(cache.versions()).toEqual({ meta: 3, goods: 7, matrix: 12 });
      cache.syncVersions({ goods: '9007199254740991' });
      expect(cache.versions()).toEqual({ meta: 3, goods: 9007199254740991, matrix: 12 });
    });

    it('syncVersions never lowers a version: a local bump not yet seen elsewhere stays in force', () => {
      const { cache } = given();
      cache.bump(['goods']);
      cache.bump(['goods']);
      cache.syncVersions({ goods: 1, meta: 0 });
      expect(cache.versions()).toEqual({ meta: 0, goods: 2, matrix: 0 });
    });

    it('a raise by syncVersions voids the entries of that domain like a bump', async () => {
      const { cache, loader, calls } = given();
      await cache.get('list', ['goods'], loader('list'));
      await cache.get('tree', ['meta'], loader('tree'));
      cache.syncVersions({ goods: '5' });
      await cache.get('list', ['goods'], loader('list'));
      await cache.get('tree', ['meta'], loader('tree'));
      expect(calls).toEqual(['list', 'tree', 'list']);
    });

    it('syncVersions to the version already held is not a bump', async () => {
      const { cache, loader, calls } = given();
      cache.bump(['goods']);
      await cache.get('list', ['goods'], loader('list'));
      cache.syncVersions({ goods: 1n });
      await cache.get('list', ['goods'], loader('list'));
      expect(calls).toHaveLength(1);
    });

    it.each([['abc'], ['-1'], [''], ['1.5'], [-1], [1.5], [Number.NaN], ['99999999999999999999'], [2n ** 64n]])(
      'syncVersions refuses %p as a version and changes nothing',
      (bad) => {
        const { cache } = given();
        expect(() => cache.syncVersions({ goods: bad })).toThrow(RangeError);
        expect(cache.versions()).toEqual({ meta: 0, goods: 0, matrix: 0 });
      },
    );
  });

  describe('time-to-live fallback', () => {
    it('serves an entry up to the time-to-live and reloads it once older', async () => {
      const { cache, clock, loader, calls } = given({ ttlMs: 1_000 });
      await cache.get('k', ['meta'], loader('k'));
      clock.t += 1_000;
      await cache.get('k', ['meta'], loader('k'));
      expect(calls).toHaveLength(1);
      clock.t += 1;
      expect(json(await cache.get('k', ['meta'], loader('k')))).toEqual({ name: 'k', call: 2 });
      expect(calls).toHaveLength(2);
    });

    it('counts the age from the start of the load, since the data can be no newer than that', async () => {
      const { cache, clock, calls } = given({ ttlMs: 1_000 });
      const slowLoad = async () => {
        calls.push('slow');
        clock.t += 600; // the load itself takes 600 ms
        return calls.length;
      };
      await cache.get('k', ['meta'], slowLoad); // started at 1000, finished at 1600
      clock.t = 2_000;
      await cache.get('k', ['meta'], slowLoad);
      expect(calls).toHaveLength(1);
      clock.t = 2_001;
      await cache.get('k', ['meta'], slowLoad);
      expect(calls).toHaveLength(2);
    });
  });

  describe('a bump while the loader runs', () => {
    it('returns the loaded value to the caller but does not store it', async () => {
      const { cache } = given();
      const d = deferred<string>();
      const pending = cache.get('list', ['goods'], () => d.promise);
      cache.bump(['goods']);
      d.resolve('before the write');
      expect(json(await pending)).toBe('before the write');
      expect(cache.stats()).toMatchObject({ entries: 0, discardedStale: 1 });

      const next = await cache.get('list', ['goods'], async () => 'after the write');
      expect(json(next)).toBe('after the write');
      expect(cache.stats()).toMatchObject({ entries: 1, loads: 2 });
    });

    it('gives the value to every caller who joined the load before the bump', async () => {
      const { cache } = given();
      const d = deferred<string>();
      const first = cache.get('list', ['goods'], () => d.promise);
      const second = cache.get('list', ['goods'], () => Promise.reject(new Error('must not run')));
      cache.bump(['goods']);
      d.resolve('v');
      expect((await first).etag).toBe((await second).etag);
      expect(cache.stats()).toMatchObject({ entries: 0, loads: 1 });
    });

    it('counts a raise by syncVersions like a bump', async () => {
      const { cache } = given();
      const d = deferred<string>();
      const pending = cache.get('detail:9', ['matrix'], () => d.promise);
      cache.syncVersions({ matrix: 4 });
      d.resolve('v');
      await pending;
      expect(cache.stats()).toMatchObject({ entries: 0, discardedStale: 1 });
    });

    it('stores the value when only an unrelated domain was bumped', async () => {
      const { cache } = given();
      const d = deferred<string>();
      const pending = cache.get('tree', ['meta'], () => d.promise);
      cache.bump(['goods', 'matrix']);
      d.resolve('v');
      await pending;
      expect(cache.stats()).toMatchObject({ entries: 1, discardedStale: 0 });
    });

    it('does not store a value whose load started before clear()', async () => {
      const { cache } = given();
      const d = deferred<string>();
      const pending = cache.get('tree', ['meta'], () => d.promise);
      cache.clear();
      d.resolve('v');
      expect(json(await pending)).toBe('v');
      expect(cache.stats().entries).toBe(0);
    });
  });

  describe('single-flight', () => {
    it('concurrent misses for one key share a single load and receive the same entry', async () => {
      const { cache } = given();
      const d = deferred<number[]>();
      let loads = 0;
      const load = () => {
        loads++;
        return d.promise;
      };
      const results = [cache.get('list', ['goods'], load), cache.get('list', ['goods'], load), cache.get('list', ['goods'], load)];
      d.resolve([1, 2, 3]);
      const [a, b, c] = await Promise.all(results);
      expect(loads).toBe(1);
      expect(b).toBe(a);
      expect(c).toBe(a);
      expect(cache.stats()).toMatchObject({ entries: 1, hits: 0, misses: 3, loads: 1, discardedStale: 0 });
    });

    it('different keys load separately', async () => {
      const { cache, loader, calls } = given();
      await Promise.all([cache.get('detail:1', ['goods'], loader('1')), cache.get('detail:2', ['goods'], loader('2'))]);
      expect(calls.sort()).toEqual(['1', '2']);
    });

    it('a rejection reaches every waiter, stores nothing, and the next call loads again', async () => {
      const { cache } = given();
      const d = deferred<string>();
      const boom = new Error('database down');
      const first = cache.get('list', ['goods'], () => d.promise);
      const second = cache.get('list', ['goods'], () => d.promise);
      d.reject(boom);
      await expect(first).rejects.toBe(boom);
      await expect(second).rejects.toBe(boom);
      expect(cache.stats()).toMatchObject({ entries: 0, loads: 1 });

      expect(json(await cache.get('list', ['goods'], async () => 'recovered'))).toBe('recovered');
      expect(cache.stats()).toMatchObject({ entries: 1, loads: 2 });
    });

    it('a loader that throws before returning a promise is a rejection like any other', async () => {
      const { cache } = given();
      const boom = new Error('bad query');
      await expect(
        cache.get('k', ['meta'], () => {
          throw boom;
        }),
      ).rejects.toBe(boom);
      expect(json(await cache.get('k', ['meta'], async () => 1))).toBe(1);
    });

    it('a call after a bump does not join the load started before it, and the older load cannot overwrite', async () => {
      const { cache } = given();
      const old = deferred<string>();
      const fresh = deferred<string>();
      const beforeWrite = cache.get('list', ['goods'], () => old.promise);
      cache.bump(['goods']);
      let freshLoads = 0;
      const afterWrite = cache.get('list', ['goods'], () => {
        freshLoads++;
        return fresh.promise;
      });
      expect(freshLoads).toBe(1);

      fresh.resolve('new'); // the newer load finishes first and is stored ...
      expect(json(await afterWrite)).toBe('new');
      old.resolve('old'); // ... the older one finishes later and must not replace it
      expect(json(await beforeWrite)).toBe('old');

      expect(json(await cache.get('list', ['goods'], () => Promise.reject(new Error('must not run'))))).toBe('new');
      expect(cache.stats()).toMatchObject({ loads: 2, discardedStale: 1, hits: 1 });
    });

    it('a call after a bump of an unrelated domain still joins the running load', async () => {
      const { cache } = given();
      const d = deferred<string>();
      let loads = 0;
      const load = () => {
        loads++;
        return d.promise;
      };
      const first = cache.get('list', ['goods'], load);
      cache.bump(['meta']);
      const second = cache.get('list', ['goods'], load);
      d.resolve('v');
      expect(await second).toBe(await first);
      expect(loads).toBe(1);
    });
  });

  describe('maxEntries', () => {
    it('evicts the least recently used entry when the count would exceed it', async () => {
      const { cache, loader, calls } = given({ maxEntries: 2 });
      await cache.get('a', ['meta'], loader('a'));
      await cache.get('b', ['meta'], loader('b'));
      await cache.get('a', ['meta'], loader('a')); // a is now more recent than b
      await cache.get('c', ['meta'], loader('c')); // b goes
      expect(cache.stats().entries).toBe(2);
      calls.length = 0;

      await cache.get('a', ['meta'], loader('a'));
      await cache.get('c', ['meta'], loader('c'));
      expect(calls).toEqual([]);
      await cache.get('b', ['meta'], loader('b'));
      expect(calls).toEqual(['b']);
      expect(cache.stats().entries).toBe(2);
    });

    it('reloading a voided entry replaces it without evicting a valid neighbour', async () => {
      const { cache, loader, calls } = given({ maxEntries: 2 });
      await cache.get('tree', ['meta'], loader('tree'));
      await cache.get('list', ['goods'], loader('list'));
      cache.bump(['meta']);
      await cache.get('tree', ['meta'], loader('tree'));
      await cache.get('list', ['goods'], loader('list'));
      expect(calls).toEqual(['tree', 'list', 'tree']); // list was still a hit
      expect(cache.stats().entries).toBe(2);
    });
  });

  describe('maxBytes', () => {
    /** A loader of a body of exactly `n` bytes of JSON. */
    const sized = (n: number) => async () => 'x'.repeat(n - 2);
    const size = (key: string, body: number) => body + key.length * 2;

    it('keeps the bodies and keys under the budget, letting the least recently used go first', async () => {
      const { cache } = given({ maxBytes: 3000 });
      await cache.get('a', ['goods'], sized(1000));
      await cache.get('b', ['goods'], sized(1000));
      expect(cache.stats().bytes).toBe(size('a', 1000) + size('b', 1000));
      await cache.get('a', ['goods'], sized(1000)); // a is now more recent than b
      await cache.get('c', ['goods'], sized(1000)); // three would be 3006 bytes: b goes
      expect(cache.stats()).toMatchObject({ entries: 2, bytes: size('a', 1000) + size('c', 1000), evicted: 1 });
      let loaded = 0;
      const counting = (n: number) => async () => (loaded++, 'x'.repeat(n - 2));
      await cache.get('a', ['goods'], counting(1000));
      await cache.get('c', ['goods'], counting(1000));
      expect(loaded).toBe(0);
      await cache.get('b', ['goods'], counting(1000));
      expect(loaded).toBe(1);
      expect(cache.stats().bytes).toBeLessThanOrEqual(3000);
    });

    it('one large answer evicts as many small ones as it needs; an answer over the budget is served, not kept', async () => {
      const { cache } = given({ maxBytes: 3000 });
      for (const k of ['a', 'b', 'c', 'd', 'e']) await cache.get(k, ['goods'], sized(500));
      expect(cache.stats().entries).toBe(5);
      await cache.get('big', ['goods'], sized(2400));
      expect(cache.stats()).toMatchObject({ entries: 2, bytes: size('e', 500) + size('big', 2400), evicted: 4 });
      const huge = await cache.get('huge', ['goods'], sized(5000));
      expect(huge.body.length).toBe(5000);
      expect(cache.stats()).toMatchObject({ entries: 2, bytes: size('e', 500) + size('big', 2400), tooLarge: 1 });
    });

    it('a stale entry reloaded, a clear(), a replaced value: the count follows what is held', async () => {
      const { cache } = given({ maxBytes: 10_000 });
      await cache.get('tree', ['meta'], sized(800));
      await cache.get('list', ['goods'], sized(1200));
      cache.bump(['meta']);
      await cache.get('tree', ['meta'], sized(300));
      expect(cache.stats().bytes).toBe(size('tree', 300) + size('list', 1200));
      cache.clear();
      expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0 });
    });
  });

  describe('derived entries (a page, a compressed copy)', () => {
    const copy = (r: CachedResponse, tag: string): CachedResponse => ({ body: Buffer.from(`${r.body.toString('utf8')}${tag}`), etag: `"${tag}"` });

    it('are made once per source, kept under its versions and counted in its bytes, void with it', async () => {
      const { cache, loader } = given();
      const source = await cache.get('list', ['goods'], loader('list'));
      const held = cache.stats().bytes;
      let made = 0;
      const make = () => (made++, copy(source, 'p1'));
      const first = cache.derived('list', source, 'page=1', make) as CachedResponse;
      expect(cache.derived('list', source, 'page=1', make)).toBe(first);
      expect([made, cache.stats().derivedMade, cache.stats().derivedHits]).toEqual([1, 1, 1]);
      expect(cache.stats().bytes - held).toBe(first.body.length + derivedKey('list', 'page=1').length * 2);

      cache.bump(['goods']);
      const fresh = await cache.get('list', ['goods'], loader('list'));
      cache.derived('list', fresh, 'page=1', make);
      expect(made).toBe(2);
    });

    it('are not kept from a response that is not the kept entry, and share one making when it is asynchronous', async () => {
      const { cache, loader } = given();
      const source = await cache.get('list', ['goods'], loader('list'));
      const stranger = { body: Buffer.from('[]'), etag: '"x"' };
      cache.derived('list', stranger, 'br', () => copy(stranger, 'br'));
      expect(cache.stats().entries).toBe(1);
      let makings = 0;
      const slow = () => {
        makings++;
        return new Promise<CachedResponse>((resolve) => setImmediate(() => resolve(copy(source, 'br'))));
      };
      const [a, b] = await Promise.all([cache.derived('list', source, 'br', slow), cache.derived('list', source, 'br', slow)]);
      expect([makings, a]).toEqual([1, b]);
      expect(cache.stats().entries).toBe(2);
    });
  });

  describe('disabled', () => {
    it('loads on every call, stores nothing, and answers in the same shape', async () => {
      const { cache, loader, calls } = given({ disabled: true });
      const a = await cache.get('list', ['goods'], loader('list'));
      const b = await cache.get('list', ['goods'], loader('list'));
      await Promise.all([cache.get('list', ['goods'], loader('list')), cache.get('list', ['goods'], loader('list'))]);
      expect(calls).toHaveLength(4);
      expect(a).toEqual(serialise({ name: 'list', call: 1 }));
      expect(json(b)).toEqual({ name: 'list', call: 2 });
      expect(cache.stats()).toEqual({
        entries: 0,
        bytes: 0,
        maxBytes: 1024 * 1024,
        hits: 0,
        misses: 4,
        loads: 4,
        loadedBytes: a.body.length * 4,
        discardedStale: 0,
        evicted: 0,
        tooLarge: 0,
        derivedHits: 0,
        derivedMade: 0,
      });
    });

    it('passes a loader rejection through', async () => {
      const { cache } = given({ disabled: true });
      const boom = new Error('x');
      await expect(cache.get('k', ['meta'], () => Promise.reject(boom))).rejects.toBe(boom);
    });
  });

  describe('stored form', () => {
    it('a hit returns the very entry stored: body and etag as serialise gives them', async () => {
      const { cache } = given();
      const value = { id: '1', name: '热转印 T恤' };
      const first = await cache.get('detail:1', ['goods'], async () => value);
      const second = await cache.get('detail:1', ['goods'], async () => ({ other: true }));
      expect(second).toBe(first);
      expect(first).toEqual(serialise(value));
      expect(Buffer.isBuffer(first.body)).toBe(true);
    });

    it('a loader value with no JSON form is a rejection and stores nothing', async () => {
      const { cache } = given();
      await expect(cache.get('k', ['meta'], async () => undefined)).rejects.toThrow(TypeError);
      expect(cache.stats().entries).toBe(0);
    });

    it('clear() drops every entry', async () => {
      const { cache, loader, calls } = given();
      await cache.get('a', ['meta'], loader('a'));
      cache.clear();
      expect(cache.stats().entries).toBe(0);
      await cache.get('a', ['meta'], loader('a'));
      expect(calls).toHaveLength(2);
    });
  });
});

describe('serialise', () => {
  it('writes JSON as UTF-8 bytes', () => {
    const r = serialise({ craft: '热转印', n: 1 });
    expect(r.body.toString('utf8')).toBe('{"craft":"热转印","n":1}');
    expect(r.body.length).toBe(Buffer.byteLength('{"craft":"热转印","n":1}', 'utf8'));
  });

  it('turns bigints, nested or beyond 2^53, into decimal strings', () => {
    const r = serialise({ id: 9223372036854775807n, members: [{ id: 1n }], count: 2 });
    expect(r.body.toString('utf8')).toBe('{"id":"9223372036854775807","members":[{"id":"1"}],"count":2}');
  });

  it('gives a strong ETag: the quoted base64url SHA-1 of the body', () => {
    const r = serialise([1, 2]);
    expect(r.etag).toBe(`"${createHash('sha1').update('[1,2]').digest('base64url')}"`);
    expect(r.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(serialise([1, 2]).etag).toBe(r.etag);
    expect(serialise([2, 1]).etag).not.toBe(r.etag);
  });

  it.each([[undefined], [() => 1], [Symbol('s')]])('refuses %p, which has no JSON text', (v) => {
    expect(() => serialise(v)).toThrow(TypeError);
  });
});

describe('ifNoneMatchMatches (RFC 9110 weak comparison)', () => {
  const etag = '"abc"';
  it.each<[string | undefined, boolean]>([
    [undefined, false],
    ['"abc"', true],
    ['W/"abc"', true],
    ['"x", "abc"', true],
    ['"x",W/"abc"', true],
    ['*', true],
    [' * ', true],
    ['"x"', false],
    ['"ab"', false],
    ['"abc,def"', false],
    ['abc', false],
    ['"*"', false],
    ['', false],
  ])('If-None-Match %p → %p', (header, expected) => {
    expect(ifNoneMatchMatches(header, etag)).toBe(expected);
  });

  it('compares weakly on our side too: a weak ETag matches its strong form', () => {
    expect(ifNoneMatchMatches('"abc"', 'W/"abc"')).toBe(true);
  });
});

describe('sendCached over real HTTP', () => {
  const entry = serialise({ id: 1n, name: '热转印' });
  const cacheControl = 'public, max-age=30';
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    const app = express();
    app.get('/x', (req, res) => sendCached(req, res, entry, cacheControl));
    server = createHttpServer(app, loadConfig({ NODE_ENV: 'test' }).http);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
  });

  it('writes the body with JSON content type, ETag and the given Cache-Control', async () => {
    const res = await fetch(`${base}/x`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('etag')).toBe(entry.etag);
    expect(res.headers.get('cache-control')).toBe(cacheControl);
    expect(res.headers.get('content-length')).toBe(String(entry.body.length));
    expect(Buffer.from(await res.arrayBuffer())).toEqual(entry.body);
  });

  it.each([
    ['the same tag', entry.etag],
    ['a list holding it', `"other", ${entry.etag}`],
    ['its weak form', `W/${entry.etag}`],
    ['*', '*'],
  ])('answers 304 with no body, keeping ETag and Cache-Control, for If-None-Match with %s', async (_what, header) => {
    const res = await fetch(`${base}/x`, { headers: { 'If-None-Match': header } });
    expect(res.status).toBe(304);
    expect(await res.text()).toBe('');
    expect(res.headers.get('etag')).toBe(entry.etag);
    expect(res.headers.get('cache-control')).toBe(cacheControl);
    expect(res.headers.get('content-type')).toBeNull();
  });

  it('answers 200 with the body when If-None-Match names other tags', async () => {
    const res = await fetch(`${base}/x`, { headers: { 'If-None-Match': '"other", W/"stale"' } });
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(entry.body);
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await fetch(`${base}/x`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe(entry.etag);
    expect(res.headers.get('content-length')).toBe(String(entry.body.length));
    expect(await res.text()).toBe('');
  });
});
