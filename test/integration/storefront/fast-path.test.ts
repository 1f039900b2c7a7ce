/**
 * Cached public reads go through the fast lane (src/storefront/fast-path.ts) instead of the express
 * stack. A client must not be able to tell: the same status, body and headers (security headers,
 * CORS, request id, ETag, Cache-Control) as the express path that filled the cache, 304 on a
 * matching ETag, HEAD without a body, the cross-process freshness check, and express's answer for
 * anything the lane does not serve.
 */
import { startTestService, type TestService } from '../../support/service';
import { populatedCatalog, type Catalog } from './catalog-fixture';

/** Headers a client sees, without those that differ between any two answers. */
function comparable(h: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  h.forEach((v, k) => {
    if (!['date', 'x-request-id', 'connection', 'keep-alive'].includes(k)) out[k] = v;
  });
  return out;
}

describe('the public fast lane', () => {
  let catalog: Catalog;
  let svc: TestService;
  let familyId: string;
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') => fetch(svc.url + path, { method, headers });

  beforeAll(async () => {
    catalog = await populatedCatalog({ links: 200, seed: 4, env: { CORS_ORIGINS: 'https://shop.example' } });
    svc = catalog.svc;
    familyId = ((await (await get('/public/goods?pageSize=1')).json()) as { items: { goodId: string }[] }).items[0]!.goodId;
  });
  afterAll(async () => {
    await catalog.close();
  });

  const paths = () => [
    `/public/goods/${familyId}`,
    '/public/goods?page=2&pageSize=5&sort=PRICE_ASC',
    '/public/home',
    '/public/categories/tree',
    '/public/tag-groups',
    '/public/tree-order',
    '/public/countries',
  ];

  it('answers a hit with the bytes and headers the express path answered the miss with', async () => {
    svc.services.cache.clear();
    for (const path of paths()) {
      const headers = { origin: 'https://shop.example' };
      const before = svc.services.cache.stats();
      const miss = await get(path, headers);
      const missBody = await miss.text();
      const mid = svc.services.cache.stats();
      const hit = await get(path, headers);
      const hitBody = await hit.text();
      const after = svc.services.cache.stats();
      // The first went through express and loaded; the second was served from the cache without loading.
      expect([path, mid.loads - before.loads, after.loads - mid.loads, after.hits - mid.hits]).toEqual([path, 1, 0, 1]);
      expect([path, hit.status]).toEqual([path, 200]);
      expect(hitBody).toBe(missBody);
      expect(comparable(hit.headers)).toEqual(comparable(miss.headers));
      expect(hit.headers.get('access-control-allow-origin')).toBe('https://shop.example');
      expect(hit.headers.get('content-security-policy')).toBeTruthy();
      expect(hit.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
    // The storefront's API base serves the same entries.
    const aliased = await get(`/v2-api/public/goods/${familyId}`, { origin: 'https://shop.example' });
    const direct = await get(`/public/goods/${familyId}`, { origin: 'https://shop.example' });
    expect(await aliased.text()).toBe(await direct.text());
    expect(comparable(aliased.headers)).toEqual(comparable(direct.headers));
    // The request id is the server's own, as on the express path; the client's is only logged.
    expect((await get(paths()[0]!, { 'x-request-id': 'abc.123' })).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    // Another origin gets no CORS headers, only the Vary.
    const foreign = await get(paths()[0]!, { origin: 'https://evil.example' });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    expect(foreign.headers.get('vary')).toBe('Origin, Accept-Encoding');
  });

  it('304 to a matching ETag, HEAD with the headers only', async () => {
    const path = paths()[1]!;
    const first = await get(path);
    const etag = first.headers.get('etag')!;
    const before = svc.services.cache.stats();
    const revalidated = await get(path, { 'if-none-match': etag });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe('');
    expect(revalidated.headers.get('etag')).toBe(etag);
    const head = await get(path, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(first.headers.get('content-length'));
    expect(svc.services.cache.stats().hits - before.hits).toBe(2);
  });

  it('bad input and unknown routes still get express’s answers', async () => {
    for (const [path, status] of [
      ['/public/goods?page=0', 400],
      ['/public/goods?page=1&page=2', 400],
      ['/public/goods/abc', 400],
      ['/public/goods/123', 404],
      ['/public/nothing', 404],
    ] as const) {
      const r = await get(path);
      expect([path, r.status]).toEqual([path, status]);
      expect(((await r.json()) as { error: { code: string } }).error.code).toEqual(expect.any(String));
      expect(r.headers.get('x-request-id')).toBeTruthy();
    }
  });

  it('a write through another process shows on the very next request (the freshness check runs on the fast lane too)', async () => {
    const other = await startTestService({ db: svc.db, workers: false, login: true });
    try {
      const path = `/public/goods/${familyId}`;
      const shown = async () => ((await (await get(path)).json()) as { name: string }).name;
      await shown(); // cached here
      const goodId = (await svc.db.pool.query<{ id: string }>(`SELECT representative_good_id AS id FROM families WHERE id = $1`, [familyId])).rows[0]!.id;
      const r = await other.request('PATCH', `/goods/${goodId}`, { name: '改名 FAST01' });
      expect(r.status).toBe(200);
      expect(await shown()).toContain('FAST01');
    } finally {
      await other.close();
    }
  });
});
