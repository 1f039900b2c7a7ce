/**
 * The public cache's promises at the HTTP level (docs/api.md, Public read caching, rules 2–4, 7):
 * - a write answered by an API process is visible on the very next public request to that process
 *   and to a second API process on the same database, even one that hears no notification at all;
 * - a value loaded while a domain is bumped is answered to whoever asked before the write, and not
 *   stored; concurrent misses share one load.
 * Nothing here waits for time to pass: every step is ordered by what the test itself observes.
 */
import express from 'express';
import type { AddressInfo } from 'node:net';
import { createHttpServer } from '../../../src/platform/http/server';
import { storefrontRoutes } from '../../../src/storefront/routes';
import { startTestService, type TestService } from '../../support/service';
import { eventually } from '../../support/eventually';
import { type Catalog, populatedCatalog, publicGet } from './catalog-fixture';

describe('public cache coherence', () => {
  let cat: Catalog;
  let a: TestService; // runs the projection workers and takes the writes
  let b: TestService; // a second API process on the same database: no workers
  const q = async <T = any>(sql: string, params: unknown[] = []): Promise<T[]> => (await a.db.pool.query(sql, params)).rows as T[];
  const ok = async (method: string, path: string, body?: unknown) => {
    const r = await a.request(method, path, body);
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  /** Public families with their first matrix cell, each used by one test only. */
  let families: { id: string; cell: Record<string, string> }[] = [];
  const setPrice = (f: { id: string; cell: Record<string, string> }, price: string) => ok('PUT', `/product-families/${f.id}/price-overrides`, { ...f.cell, price });

  beforeAll(async () => {
    cat = await populatedCatalog({ links: 150, seed: 5 });
    a = cat.svc;
    b = await startTestService({ db: a.db, workers: false, login: false, env: { UPSTREAM_URL: cat.sim.url } });
    const rows = await q<{ id: string; cell: Record<string, string> }>(
      `SELECT id::text AS id, (price_matrix->'cells'->0) - 'price' AS cell FROM families
        WHERE good_count > 0 AND jsonb_array_length(price_matrix->'cells') > 0 ORDER BY id`,
    );
    families = rows;
    expect(families.length).toBeGreaterThanOrEqual(5);
  }, 240_000);

  afterAll(async () => {
    await b?.close();
    await cat?.close();
  });

  it('a write through process A shows on the very next request to A and to B', async () => {
    const f = families[0]!;
    // Both processes have the detail, the cheapest-first list and the countries cached.
    for (const svc of [a, b]) {
      expect((await publicGet(svc, `/public/goods/${f.id}`)).status).toBe(200);
      expect((await publicGet(svc, `/public/goods?sort=PRICE_ASC&pageSize=1`)).status).toBe(200);
      expect((await publicGet(svc, `/public/countries`)).status).toBe(200);
    }
    for (const price of ['0.08', '0.07', '0.06']) {
      await setPrice(f, price);
      for (const svc of [b, a]) {
        expect((await publicGet(svc, `/public/goods/${f.id}`)).body.lowestPrice).toBe(price);
        expect((await publicGet(svc, `/public/goods?sort=PRICE_ASC&pageSize=1`)).body.items[0]).toMatchObject({ goodId: f.id, price });
      }
    }
    // meta: a new country order.
    const ids = (await q<{ id: string }>(`SELECT id::text AS id FROM countries ORDER BY random()`)).map((c) => c.id);
    await ok('PATCH', '/countries/sort', { ids });
    expect((await publicGet(b, '/public/countries')).body.items.map((c: any) => c.id)).toEqual(ids);
    expect((await publicGet(a, '/public/countries')).body.items.map((c: any) => c.id)).toEqual(ids);
    // A representative switch, seen in B's list.
    const [family] = await q<{ id: string; goods: string[] }>(
      `SELECT family_id::text AS id, array_agg(id::text ORDER BY good_priority DESC, created_at DESC, id) AS goods
         FROM goods WHERE family_id IS NOT NULL GROUP BY family_id HAVING count(*) >= 2 ORDER BY family_id LIMIT 1`,
    );
    await ok('PATCH', `/goods/${family!.goods[1]}`, { image: 'https://img.example.com/second.jpg', goodPriority: 1000 });
    const detail = (await publicGet(b, `/public/goods/${family!.id}`)).body;
    expect(detail.image).toBe('https://img.example.com/second.jpg');
  });

  it('B stays right without hearing any notification: it reads the domain versions before serving', async () => {
    const f = families[1]!;
    // The same storefront routes on B's services without the check: what B would serve on
    // notifications alone (the negative control).
    const unchecked = createHttpServer(express().use(storefrontRoutes(b.services, { crossProcessFreshness: false })), b.services.config.http);
    await new Promise<void>((r) => unchecked.listen(0, '127.0.0.1', r));
    const uncheckedUrl = `http://127.0.0.1:${(unchecked.address() as AddressInfo).port}`;
    const getUnchecked = async (path: string) => (await fetch(uncheckedUrl + path)).json() as Promise<any>;
    try {
      await b.services.notifications.stop(); // B hears nothing from now on
      const before = (await publicGet(b, `/public/goods/${f.id}`)).body.lowestPrice;
      expect((await getUnchecked(`/public/goods/${f.id}`)).lowestPrice).toBe(before);

      await setPrice(f, '0.05');
      // Nothing told B: its cache, read without the check, still holds the old price …
      expect((await getUnchecked(`/public/goods/${f.id}`)).lowestPrice).toBe(before);
      // … but the public routes check the versions first and answer the write.
      expect((await publicGet(b, `/public/goods/${f.id}`)).body.lowestPrice).toBe('0.05');
      expect((await getUnchecked(`/public/goods/${f.id}`)).lowestPrice).toBe('0.05'); // the check voided the entry for all

      // Every later write too, and on every endpoint.
      for (const price of ['0.04', '0.03']) {
        await setPrice(f, price);
        expect((await publicGet(b, `/public/goods?sort=PRICE_ASC&pageSize=1`)).body.items[0]).toMatchObject({ goodId: f.id, price });
      }
      const ids = (await q<{ id: string }>(`SELECT id::text AS id FROM countries ORDER BY random()`)).map((c) => c.id);
      await ok('PATCH', '/countries/sort', { ids });
      expect((await publicGet(b, '/public/tree-order')).body.countries).toEqual(ids);
    } finally {
      await new Promise<void>((r) => unchecked.close(() => r()));
    }
  });

  it('a value loaded across a bump is answered to those who asked before the write, not stored; concurrent misses share one load', async () => {
    const f = families[2]!;
    const oldPrice = (await q<{ p: string }>(`SELECT lowest_price::text AS p FROM families WHERE id = $1`, [f.id]))[0]!.p;
    const stats = () => a.services.cache.stats();
    // Pause the detail's load between its two reads (the family row, then the tags; see
    // src/storefront/queries.ts loadGoodDetail): the service's pool holds the tags query until the
    // test lets it go. (A table lock would do it in the database, but holding an ACCESS EXCLUSIVE
    // lock gives the test's transaction an xid, and the event store's readers then wait for it.)
    const pool = a.services.pool;
    const query = pool.query;
    let reachTags!: () => void;
    const atTags = new Promise<void>((r) => (reachTags = r));
    let releaseTags!: () => void;
    const tagsReleased = new Promise<void>((r) => (releaseTags = r));
    pool.query = (async (...args: unknown[]) => {
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string } | undefined)?.text;
      if (text?.includes('FROM tags t JOIN tag_groups tg')) {
        reachTags();
        await tagsReleased;
      }
      return (query as (...a: unknown[]) => unknown).apply(pool, args);
    }) as typeof pool.query;
    const pending: Promise<{ status: number; body: any }>[] = [];
    try {
      const loadsBefore = stats().loads;
      const missesBefore = stats().misses;
      pending.push(publicGet(a, `/public/goods/${f.id}`));
      await atTags; // the family row is read; the load waits
      // Concurrent misses for the same key join the load in flight.
      pending.push(...Array.from({ length: 4 }, () => publicGet(a, `/public/goods/${f.id}`)));
      await eventually(() => stats().misses === missesBefore + 5);
      expect(stats().loads).toBe(loadsBefore + 1);

      // The write commits, and the command answers, while the load is paused.
      await setPrice(f, '0.01');
    } finally {
      pool.query = query;
      releaseTags();
    }
    const discardedBefore = stats().discardedStale;
    const answers = await Promise.all(pending);
    // Those who asked before the write get the value as it was …
    for (const r of answers) expect([r.status, r.body.lowestPrice]).toEqual([200, oldPrice]);
    expect(oldPrice).not.toBe('0.01');
    expect(stats().discardedStale).toBe(discardedBefore + 1);
    // … and the next request gets the write, not the value loaded across it.
    expect((await publicGet(a, `/public/goods/${f.id}`)).body.lowestPrice).toBe('0.01');
    expect((await publicGet(a, `/public/goods/${f.id}`)).body.lowestPrice).toBe('0.01');
  });

  it('an unchanged catalog is served from the cache in both processes, with a 304 to a matching ETag', async () => {
    const f = families[3]!;
    for (const svc of [a, b]) {
      const first = await publicGet(svc, `/public/goods/${f.id}`);
      const loads = svc.services.cache.stats().loads;
      const again = await publicGet(svc, `/public/goods/${f.id}`, { 'if-none-match': first.headers.get('etag')! });
      expect(again.status).toBe(304);
      expect((await publicGet(svc, `/public/goods/${f.id}`)).body).toEqual(first.body);
      expect(svc.services.cache.stats().loads).toBe(loads);
    }
    // Both processes answer the same bytes, so the same ETag.
    expect((await publicGet(a, '/public/goods?page=2')).headers.get('etag')).toBe((await publicGet(b, '/public/goods?page=2')).headers.get('etag'));
  });

  it('a synchronisation that changes only links outside families voids nothing; one that changes a family’s link does', async () => {
    const versions = async () =>
      Object.fromEntries((await q<{ domain: string; version: string }>(`SELECT domain, version::text FROM cache_domains`)).map((r) => [r.domain, r.version]));
    const sync = async (path: string) => {
      const run = await eventually(async () => {
        const started = await a.request('POST', path);
        return started.status === 202 ? started.body : null; // 409 while a scheduled run of its kind is under way
      });
      const done = await eventually(async () => {
        const r = await a.request('GET', `/sync/runs/${run.runId}`);
        return r.body.state !== 'running' ? r.body : null;
      }, 60_000);
      expect(done.state).toBe('succeeded');
    };
    const [sample] = await q<{ category_id: string }>(`SELECT category_id::text FROM origin_goods WHERE category_id IS NOT NULL ORDER BY id LIMIT 1`);
    const countries = (await publicGet(a, '/public/countries')).body;
    const loads = a.services.cache.stats().loads;
    const before = await versions();
    // A new link and its detail: not in a family until an organisation files it, so not public.
    const link = cat.sim.catalog.addLink({ name: 'Gildan 64000 新款短袖T恤 缓存测试', categoryId: sample!.category_id, price: '19.90' });
    await sync('/sync/origin-goods');
    await sync('/sync/details');
    expect((await q(`SELECT family_id, detail_synced_at FROM origin_goods WHERE id = $1`, [link.id]))[0]).toMatchObject({ family_id: null, detail_synced_at: expect.any(Date) });
    expect(await versions()).toEqual(before);
    expect((await publicGet(a, '/public/countries')).body).toEqual(countries);
    expect(a.services.cache.stats().loads).toBe(loads);
    // A public family's link changes upstream: its family is recomputed, and the cache voided.
    const [member] = await q<{ id: string }>(`SELECT id::text FROM origin_goods WHERE family_id = $1 ORDER BY id LIMIT 1`, [families[4]!.id]);
    cat.sim.catalog.editDetail(member!.id, (d) => ({ ...d, variants: d.variants.map((v) => ({ ...v, price: (Number(v.price) + 1).toFixed(2) })) }));
    await sync('/sync/details');
    const after = await versions();
    for (const domain of ['goods', 'matrix']) expect(BigInt(after[domain]!)).toBeGreaterThan(BigInt(before[domain]!));
  });
});
