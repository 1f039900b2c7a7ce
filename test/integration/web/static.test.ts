/**
 * The built clients as the service serves them (src/web-apps.ts), over real HTTP: the page carries
 * the configured API base, assets are cached for good, client routes fall back to the page.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import express from 'express';
import { loadConfig } from '../../../src/config';
import { createHttpServer } from '../../../src/platform/http/server';
import { webDistDir, webRoutes, type WebRoutesOptions } from '../../../src/web-apps';
import { apiBase } from '../../../web/shared/api-base';

const PAGE = '<!doctype html>\n<html lang="zh-CN">\n  <head>\n    <meta charset="UTF-8" />\n  </head>\n  <body><div id="root"></div></body>\n</html>\n';

describe('the served browser clients', () => {
  const dists: string[] = [];
  const servers: http.Server[] = [];

  /** A fresh dist folder with both clients built (each test that changes files gets its own). */
  function makeDist(page = PAGE): string {
    const d = mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
    dists.push(d);
    for (const app of ['admin', 'h5']) {
      mkdirSync(path.join(d, app, 'assets'), { recursive: true });
      writeFileSync(path.join(d, app, 'index.html'), page);
      writeFileSync(path.join(d, app, 'assets', 'index-abc123.js'), 'console.log(1)');
    }
    return d;
  }
  let dist: string;
  beforeAll(() => {
    dist = makeDist();
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    for (const d of dists) rmSync(d, { recursive: true, force: true });
  });

  async function serve(opts: WebRoutesOptions, distDir = dist, before?: express.RequestHandler): Promise<string> {
    const app = express();
    if (before) app.use(before);
    app.use(webRoutes({ distDir, ...opts }));
    const server = createHttpServer(app, loadConfig({ NODE_ENV: 'test' }).http);
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** What a client's apiBase() would read from the page, without a browser. */
  const announced = (html: string, buildDefault: string) =>
    apiBase(buildDefault, {
      querySelector: (sel) => {
        const name = /meta\[name="([^"]+)"\]/.exec(sel)![1];
        const m = new RegExp(`<meta name="${name}" content="([^"]*)"`).exec(html);
        return m
          ? {
              getAttribute: () =>
                m[1]!
                  .replace(/&quot;/g, '"')
                  .replace(/&lt;/g, '<')
                  .replace(/&gt;/g, '>')
                  .replace(/&amp;/g, '&'),
            }
          : null;
      },
    });

  it('a configured base is announced in the page at every client route, index.html however spelt; the other client keeps its build default', async () => {
    const url = await serve({ apiBases: { admin: '/api' } });
    for (const p of ['/admin/', '/admin/index.html', '/admin/families', '/admin/%69ndex.html', '/admin//index.html', '/admin/./INDEX.html']) {
      const r = await fetch(`${url}${p}`);
      expect([p, r.status, r.headers.get('cache-control')]).toEqual([p, 200, 'no-cache']);
      expect(r.headers.get('content-type')).toMatch(/^text\/html/);
      expect([p, announced(await r.text(), '')]).toEqual([p, '/api']);
    }
    const h5 = await (await fetch(`${url}/v2/h5/`)).text();
    expect(h5).toBe(PAGE);
    expect(announced(h5, '/v2-api')).toBe('/v2-api');
  });

  it('a <head> with attributes takes the meta too', async () => {
    const url = await serve({ apiBases: { admin: '/api' } }, makeDist(PAGE.replace('<head>', '<head data-x="1">')));
    expect(announced(await (await fetch(`${url}/admin/`)).text(), '')).toBe('/api');
  });

  it('without configuration both pages are the build as it is', async () => {
    const url = await serve({});
    expect(await (await fetch(`${url}/admin/`)).text()).toBe(PAGE);
    expect(await (await fetch(`${url}/admin/index.html`)).text()).toBe(PAGE);
  });

  it('the base is escaped into the attribute, so it cannot break out of the page', async () => {
    const url = await serve({ apiBases: { h5: '/x"><script>alert(1)</script>' } });
    const html = await (await fetch(`${url}/v2/h5/`)).text();
    expect(html).not.toContain('<script>');
    expect(announced(html, '/v2-api')).toBe('/x"><script>alert(1)</script>');
  });

  it("a product's preview is escaped into the page; a lookup that fails gives the generic preview, not a 500", async () => {
    const warned: unknown[] = [];
    const page = PAGE.replace('<head>', '<head>\n    <title>商城</title>');
    const url = await serve(
      {
        publicUrl: 'https://shop.example',
        contactUrl: 'https://kf.example/?a=1&b="2"',
        log: { warn: (o: unknown) => void warned.push(o) },
        shareCard: async (id) => {
          if (id === '2') throw new Error('database down');
          return { name: '</title><script>alert(1)</script>"&', price: '9.90', image: '/pictures/1.svg?x="y"' };
        },
      },
      makeDist(page),
    );
    const html = await (await fetch(`${url}/v2/h5/goods/1`)).text();
    expect(html).not.toContain('<script>');
    expect(html).toContain('<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;&quot;&amp;</title>');
    expect(html).toContain('<meta property="og:image" content="https://shop.example/pictures/1.svg?x=%22y%22" />');
    expect(html).toContain('<meta property="og:url" content="https://shop.example/v2/h5/goods/1" />');
    expect(html).toContain('<meta name="catalog-contact" content="https://kf.example/?a=1&amp;b=&quot;2&quot;" />');
    const failed = await fetch(`${url}/v2/h5/goods/2`);
    expect(failed.status).toBe(200);
    const generic = await failed.text();
    expect(generic).toContain('<title>商城</title>');
    expect(generic).toContain('<meta property="og:title" content="商城" />');
    expect(warned).toHaveLength(1);
    // The admin's page announces no 客服.
    expect(await (await fetch(`${url}/admin/`)).text()).not.toContain('catalog-contact');
  });

  it('while a rebuild has removed the page: 404 with a hint, not 500; the rebuilt page is served at once, still announcing the base', async () => {
    const own = makeDist();
    const url = await serve({ apiBases: { admin: '/api' } }, own);
    await fetch(`${url}/admin/`);
    const file = path.join(own, 'admin', 'index.html');
    rmSync(file);
    const gone = await fetch(`${url}/admin/`);
    expect([gone.status, await gone.text()]).toEqual([404, '/admin: client not built; run npm run build']);
    writeFileSync(file, PAGE.replace('<body>', '<body data-build="2">'));
    const html = await (await fetch(`${url}/admin/`)).text();
    expect(html).toContain('data-build="2"');
    expect(announced(html, '')).toBe('/api');
  });

  it('an unbuilt checkout serves none of its sources: 404 with a hint for the page, the client source and the Vite configuration', async () => {
    // A checkout as `npx catalog serve` sees it before `npm run build`: web/ holds the build's input
    // (an index.html beside src/ and vite.config.mts), and there is no dist/web.
    const checkout = mkdtempSync(path.join(os.tmpdir(), 'checkout-'));
    dists.push(checkout);
    writeFileSync(path.join(checkout, 'package.json'), '{}');
    mkdirSync(path.join(checkout, 'src'));
    for (const app of ['admin', 'h5']) {
      mkdirSync(path.join(checkout, 'web', app, 'src'), { recursive: true });
      writeFileSync(path.join(checkout, 'web', app, 'index.html'), '<!doctype html><html><head></head><body><script type="module" src="/src/main.tsx"></script></body></html>');
      writeFileSync(path.join(checkout, 'web', app, 'src', 'main.tsx'), 'export {};');
      writeFileSync(path.join(checkout, 'web', app, 'vite.config.mts'), 'export default {};');
    }
    const dir = webDistDir(path.join(checkout, 'src'));
    expect(dir).toBe(path.join(checkout, 'dist', 'web'));
    const url = await serve({}, dir);
    for (const p of ['/admin/', '/admin/index.html', '/v2/h5/', '/admin/families']) {
      const r = await fetch(`${url}${p}`);
      expect([p, r.status, await r.text()]).toEqual([p, 404, `${p.startsWith('/admin') ? '/admin' : '/v2/h5'}: client not built; run npm run build`]);
    }
    for (const p of ['/admin/src/main.tsx', '/admin/vite.config.mts', '/v2/h5/src/main.tsx', '/v2/h5/vite.config.mts']) {
      const r = await fetch(`${url}${p}`);
      expect([p, r.status]).toEqual([p, 404]);
      expect(await r.text()).not.toContain('export');
    }
  });

  it('hashed assets are immutable for a year; a missing asset is 404, not the page; /admin redirects to /admin/', async () => {
    const url = await serve({ apiBases: { admin: '/api' } });
    const asset = await fetch(`${url}/admin/assets/index-abc123.js`);
    expect([asset.status, asset.headers.get('cache-control')]).toEqual([200, 'public, max-age=31536000, immutable']);
    expect((await fetch(`${url}/admin/assets/gone.js`)).status).toBe(404);
    const bare = await fetch(`${url}/admin?x=1`, { redirect: 'manual' });
    expect([bare.status, bare.headers.get('location')]).toEqual([301, '/admin/?x=1']);
  });

  it('an asset built with its compressed forms goes as brotli, else gzip, as the browser accepts, else as it is: the same bytes, cached the same', async () => {
    const d = makeDist();
    const script = Buffer.from(`console.log(${JSON.stringify('商品'.repeat(2000))});\n`);
    const file = path.join(d, 'h5', 'assets', 'index-big.js');
    writeFileSync(file, script);
    writeFileSync(`${file}.gz`, gzipSync(script));
    writeFileSync(`${file}.br`, brotliCompressSync(script));
    // As the service's CORS does, before the files: its Vary stays beside the encoding's.
    const url = await serve({}, d, (_req, res, next) => {
      res.vary('Origin');
      next();
    });
    /** The raw answer (node:http: nothing decoded on the way), with the encoding asked for. */
    const get = (encoding: string | null, file = 'index-big.js', method = 'GET') =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        const req = http.request(`${url}/v2/h5/assets/${file}`, { method, headers: encoding === null ? {} : { 'accept-encoding': encoding } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        });
        req.on('error', reject);
        req.end();
      });
    const decoded = (r: { headers: http.IncomingHttpHeaders; body: Buffer }) =>
      r.headers['content-encoding'] === 'br' ? brotliDecompressSync(r.body) : r.headers['content-encoding'] === 'gzip' ? gunzipSync(r.body) : r.body;
    for (const [asked, sent] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['identity', undefined],
      [null, undefined],
    ] as const) {
      const r = await get(asked);
      // A script's type either way (text/… for the compressed forms, RFC 9239; application/… as it is).
      const type = /^(text|application)\/javascript; charset=utf-8$/i.test(r.headers['content-type'] ?? '');
      expect({
        asked,
        status: r.status,
        encoding: r.headers['content-encoding'],
        type,
        vary: r.headers.vary?.split(/,\s*/).sort(),
        cache: r.headers['cache-control'],
      }).toEqual({
        asked,
        status: 200,
        encoding: sent,
        type: true,
        vary: ['Accept-Encoding', 'Origin'],
        cache: 'public, max-age=31536000, immutable',
      });
      expect(decoded(r).equals(script)).toBe(true);
      if (sent) expect(r.body.length).toBeLessThan(script.length / 3);
    }
    // Not served by the files: never labelled as compressed. Another method; a compressed form gone
    // since the service started (a rebuild); a path that does not decode.
    const posted = await get('br', 'index-big.js', 'POST');
    expect([posted.status, posted.headers['content-encoding']]).toEqual([404, undefined]);
    rmSync(`${file}.br`);
    const gone = await get('br');
    expect([gone.status, gone.headers['content-encoding'], gone.body.toString()]).toEqual([404, undefined, 'not found']);
    const undecodable = await get('br', '%E0.js');
    expect([undecodable.status, undecodable.headers['content-encoding'], /URI malformed/.test(undecodable.body.toString())]).toEqual([400, undefined, false]);
  });
});
