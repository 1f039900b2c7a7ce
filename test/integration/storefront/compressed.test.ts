/**
 * Compressed public JSON (docs/api.md, Public read caching, rule 9) over real HTTP: brotli or gzip by
 * Accept-Encoding, a strong ETag per representation and a 304 to each, Vary: Accept-Encoding, on the
 * express path (the miss) and the fast lane (the hit) alike; the copies are cache entries counted in
 * PUBLIC_CACHE_MAX_BYTES and void with their answer.
 */
import http from 'node:http';
import zlib from 'node:zlib';
import { populatedCatalog, type Catalog } from './catalog-fixture';

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

describe('compressed public answers', () => {
  let catalog: Catalog;
  let familyId: string;

  /** The bytes on the wire: node:http does not decode them (fetch would). */
  const raw = (path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> =>
    new Promise((resolve, reject) => {
      http
        .request(catalog.svc.url + path, { method, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        })
        .on('error', reject)
        .end();
    });
  const decoded = (r: Raw): string =>
    (r.headers['content-encoding'] === 'br' ? zlib.brotliDecompressSync(r.body) : r.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(r.body) : r.body).toString('utf8');

  beforeAll(async () => {
    catalog = await populatedCatalog({ links: 200, seed: 7 });
    const list = JSON.parse((await raw('/public/goods?pageSize=1')).body.toString('utf8')) as { items: { goodId: string }[] };
    familyId = list.items[0]!.goodId;
  });
  afterAll(async () => {
    await catalog.close();
  });

  it('answers br, gzip or identity by Accept-Encoding, each with its own strong ETag and a 304 to it, miss and hit alike', async () => {
    for (const path of [`/public/goods/${familyId}`, '/public/goods?page=1&pageSize=20', '/public/goods?page=2&pageSize=20&sort=NEWEST']) {
      catalog.svc.services.cache.clear();
      const plain = await raw(path);
      expect([path, plain.status, plain.headers['content-encoding'], plain.headers.vary]).toEqual([path, 200, undefined, 'Origin, Accept-Encoding']);
      const tags = new Set([plain.headers.etag]);
      for (const [accept, coding] of [
        ['gzip, deflate, br', 'br'],
        ['br;q=0, gzip', 'gzip'],
        ['gzip;q=0, deflate', undefined],
        ['*', 'br'],
      ] as const) {
        // First through express (the copy is made), then from the fast lane (the copy is kept).
        for (const round of ['miss', 'hit']) {
          const made = catalog.svc.services.cache.stats().derivedMade;
          const r = await raw(path, { 'accept-encoding': accept });
          expect([path, accept, round, r.status, r.headers['content-encoding'], r.headers.vary]).toEqual([path, accept, round, 200, coding, 'Origin, Accept-Encoding']);
          expect(Number(r.headers['content-length'])).toBe(r.body.length);
          expect(decoded(r)).toBe(plain.body.toString('utf8'));
          expect(r.headers.etag).toMatch(/^"[^"]+"$/);
          if (coding) expect(r.body.length).toBeLessThan(plain.body.length / 2);
          if (round === 'hit') expect([path, accept, catalog.svc.services.cache.stats().derivedMade - made]).toEqual([path, accept, 0]);
          tags.add(r.headers.etag);
          // Its own tag answers 304, with the same validators and Vary; HEAD gives the headers only.
          const again = await raw(path, { 'accept-encoding': accept, 'if-none-match': r.headers.etag! });
          expect([again.status, again.body.length, again.headers.etag, again.headers.vary]).toEqual([304, 0, r.headers.etag, 'Origin, Accept-Encoding']);
          const head = await raw(path, { 'accept-encoding': accept }, 'HEAD');
          expect([head.status, head.body.length, head.headers['content-encoding'], head.headers['content-length'], head.headers.etag]).toEqual([
            200,
            0,
            coding,
            String(r.body.length),
            r.headers.etag,
          ]);
        }
      }
      // identity, br and gzip: three representations, three tags; another representation's tag is no match.
      expect([path, tags.size]).toEqual([path, 3]);
      expect((await raw(path, { 'accept-encoding': 'gzip', 'if-none-match': plain.headers.etag! })).status).toBe(200);
    }
  });

  it('keeps the copies as cache entries within PUBLIC_CACHE_MAX_BYTES, void with their answer', async () => {
    const cache = catalog.svc.services.cache;
    cache.clear();
    const path = `/public/goods/${familyId}`;
    const plain = await raw(path);
    const held = cache.stats().bytes;
    const br = await raw(path, { 'accept-encoding': 'br' });
    const gz = await raw(path, { 'accept-encoding': 'gzip' });
    // Each copy is counted: its bytes and its key.
    expect(cache.stats().bytes - held).toBeGreaterThanOrEqual(br.body.length + gz.body.length);
    expect(cache.stats().bytes - held).toBeLessThan(br.body.length + gz.body.length + 1000);

    // A write voids the answer and its copies: the next br answer is the new JSON, under a new tag.
    const detail = JSON.parse(plain.body.toString('utf8')) as { priceMatrix: { cells: Record<string, string>[] } };
    const cell = detail.priceMatrix.cells[0]!;
    const r = await catalog.svc.request('PUT', `/product-families/${familyId}/price-overrides`, { ...cell, price: '0.02' });
    expect(r.status).toBeLessThan(300);
    const after = await raw(path, { 'accept-encoding': 'br', 'if-none-match': br.headers.etag! });
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(br.headers.etag);
    expect(JSON.parse(decoded(after)).lowestPrice).toBe('0.02');
  });

  it('a budget of a few answers: pages and copies evict each other, the bytes held never pass it', async () => {
    const budgeted = await populatedCatalog({ links: 200, seed: 7, env: { PUBLIC_CACHE_MAX_BYTES: String(64 * 1024) } });
    try {
      const get = (path: string, accept: string) =>
        new Promise<number>((resolve, reject) => {
          http
            .get(budgeted.svc.url + path, { headers: { 'accept-encoding': accept } }, (res) => {
              res.resume();
              res.on('end', () => resolve(res.statusCode!));
            })
            .on('error', reject);
        });
      const cache = budgeted.svc.services.cache;
      const first = await new Promise<string>((resolve) =>
        http.get(budgeted.svc.url + '/public/goods?pageSize=1', (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString('utf8')));
          res.on('end', () => resolve(text));
        }),
      );
      const total = (JSON.parse(first) as { total: number }).total;
      let most = 0;
      for (let page = 1; page <= Math.ceil(total / 20); page++) {
        for (const accept of ['br', 'gzip', 'identity']) {
          expect(await get(`/public/goods?page=${page}&pageSize=20`, accept)).toBe(200);
          most = Math.max(most, cache.stats().bytes);
        }
      }
      expect(most).toBeLessThanOrEqual(64 * 1024);
      // Copies were made and some let go for room: they are counted like any answer.
      expect([cache.stats().derivedMade > Math.ceil(total / 20), cache.stats().evicted > 0]).toEqual([true, true]);
    } finally {
      await budgeted.close();
    }
  });
});
