/**
 * Upload: authenticated, images judged by their bytes, size-limited, stored under generated names,
 * served with nosniff and a cross-origin resource policy; nothing else is reachable under /uploads.
 */
import http from 'node:http';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { login, registerAdmin, startAuthHarness, type AuthHarness, type TestApp } from '../../support/auth-http';
import { IMAGES, SVG } from '../../support/images';

describe.each(['disk', 'postgres'] as const)('upload (UPLOAD_STORAGE=%s)', (storage) => {
  let h: AuthHarness;
  let app: TestApp;
  let cookie: string;
  let uploadDir: string;

  beforeAll(async () => {
    uploadDir = mkdtempSync(path.join(tmpdir(), 'catalog-uploads-'));
    h = await startAuthHarness({ UPLOAD_DIR: uploadDir, UPLOAD_MAX_BYTES: String(64 * 1024), UPLOAD_STORAGE: storage });
    await registerAdmin(await h.app());
  });
  afterAll(async () => {
    await h.close();
    rmSync(uploadDir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    app = await h.app();
    cookie = (await login(app)).cookie;
  });

  const send = (bytes: Buffer, name: string, type: string, opts: { field?: string; headers?: Record<string, string> } = {}) => {
    const form = new FormData();
    form.append(opts.field ?? 'file', new Blob([bytes], { type }), name);
    return app.call('POST', '/upload', { body: form, headers: opts.headers ?? { cookie } });
  };

  it.each(Object.entries(IMAGES))('accepts a %s, stores it under a generated name and serves it back', async (kind, bytes) => {
    const r = await send(bytes, `../../evil name.${kind}`, 'application/octet-stream');
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ url: expect.stringMatching(new RegExp(`^/uploads/[0-9a-f-]{36}\\.${kind}$`)) });
    const name = path.basename(r.body.url);
    if (storage === 'disk') expect(readdirSync(uploadDir)).toContain(name);
    else {
      // In the database, where every process reads it; nothing on this process's disk.
      expect(readdirSync(uploadDir)).not.toContain(name);
      const row = await h.db.pool.query(`SELECT content_type, bytes FROM uploads WHERE name = $1`, [name]);
      expect(Buffer.from(row.rows[0].bytes).equals(bytes)).toBe(true);
    }
    const served = await fetch(app.url + r.body.url);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
    expect(served.headers.get('content-type')).toBe({ png: 'image/png', gif: 'image/gif', jpg: 'image/jpeg', webp: 'image/webp' }[kind]);
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const etag = served.headers.get('etag');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(served.headers.get('last-modified')).toBeTruthy();
    // A cache that has it asks again with its validator: 304, no body.
    const again = await fetch(app.url + r.body.url, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
  });

  it('serves a file an older version left in UPLOAD_DIR', async () => {
    const name = '11111111-2222-4333-8444-555555555555.png';
    writeFileSync(path.join(uploadDir, name), IMAGES.png);
    const served = await fetch(app.url + '/uploads/' + name);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(IMAGES.png)).toBe(true);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('refuses SVG with 415, whatever it is called', async () => {
    for (const [name, type] of [
      ['logo.svg', 'image/svg+xml'],
      ['logo.png', 'image/png'],
    ]) {
      const r = await send(SVG, name!, type!);
      expect(r.status).toBe(415);
      expect(r.body.error.code).toBe('UPLOAD.UNSUPPORTED_TYPE');
    }
    expect(readdirSync(uploadDir).filter((f) => f.endsWith('.svg'))).toEqual([]);
  });

  it('refuses a fake .png (text, HTML, a PDF) with 415', async () => {
    for (const bytes of [Buffer.from('definitely not a picture'), Buffer.from('<html><script>alert(1)</script></html>'), Buffer.from('%PDF-1.7\n%âãÏÓ\n')]) {
      const r = await send(bytes, 'photo.png', 'image/png');
      expect(r.status).toBe(415);
    }
  });

  it('refuses a file over UPLOAD_MAX_BYTES with 413', async () => {
    const big = Buffer.concat([IMAGES.png, Buffer.alloc(64 * 1024)]);
    const r = await send(big, 'big.png', 'image/png');
    expect(r.status).toBe(413);
    expect(r.body.error.code).toBe('UPLOAD.TOO_LARGE');
  });

  it('needs a session (401) and a file in the field "file" (400)', async () => {
    expect((await send(IMAGES.png, 'a.png', 'image/png', { headers: {} })).status).toBe(401);
    expect((await send(IMAGES.png, 'a.png', 'image/png', { field: 'image' })).status).toBe(400);
    expect((await app.call('POST', '/upload', { body: { file: 'x' }, headers: { cookie } })).status).toBe(400);
  });

  it('serves nothing but generated names: traversal, dotfiles and unknown files are 404', async () => {
    writeFileSync(path.join(uploadDir, '.secret'), 'nope');
    const raw = (p: string) =>
      new Promise<number>((resolve, reject) => {
        // node:http sends the path as written; fetch would normalise the dots away
        http
          .get(app.url + '/uploads/placeholder', { path: p }, (res) => {
            res.resume();
            resolve(res.statusCode!);
          })
          .on('error', reject);
      });
    for (const p of [
      '/uploads/../package.json',
      '/uploads/..%2f..%2fpackage.json',
      '/uploads/%2e%2e/%2e%2e/package.json',
      '/uploads/..%5c..%5cpackage.json',
      '/uploads/.secret',
      '/uploads/00000000-0000-0000-0000-000000000000.png',
      '/uploads/',
    ]) {
      expect([p, await raw(p)]).toEqual([p, 404]);
    }
  });

  it('prefixes the url with API_PREFIX', async () => {
    const prefixed = await h.app({ env: { API_PREFIX: '/v2-api', UPLOAD_DIR: uploadDir, UPLOAD_MAX_BYTES: String(64 * 1024), UPLOAD_STORAGE: storage } });
    const { cookie: c } = await login({ ...prefixed, call: (m, p, o) => prefixed.call(m, '/v2-api' + p, o) });
    const form = new FormData();
    form.append('file', new Blob([IMAGES.gif]), 'a.gif');
    const r = await prefixed.call('POST', '/v2-api/upload', { body: form, headers: { cookie: c } });
    expect(r.status).toBe(201);
    expect(r.body.url).toMatch(/^\/v2-api\/uploads\/[0-9a-f-]{36}\.gif$/);
    expect((await fetch(prefixed.url + r.body.url)).status).toBe(200);
  });
});
