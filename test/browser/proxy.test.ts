/**
 * Behind the reverse proxy of docker-compose.yml (docs/api.md, Deployments and proxy prefixes): the shipped nginx
 * template (web/proxy/default.conf.template) rendered as the nginx image would render it, run by
 * Debian's nginx in front of two real services, V1 behind /api and V2 behind /v2-api, and the
 * browser clients driven through it. The admin SPA (served by V2) must talk to /api (its page
 * announces ADMIN_API_BASE), the storefront to /v2-api, never with a double slash; the session
 * cookies must pass through both prefixes, an upload be served where it was stored, and the demo's
 * pictures by the V2 service.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { ROOT, answer, recordRequests, registerAndLogin, shot, startBrowserSession, type BrowserSession } from '../support/browser';
import { eventually } from '../support/eventually';
import { IMAGES } from '../support/images';
import { ADMIN, startTestService, type TestService } from '../support/service';
import { freePort } from '../support/free-port';

jest.setTimeout(180_000);

const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

let session: BrowserSession;
let v1: TestService;
let nginx: ChildProcess;
let dir: string;
let proxy: string;
let context: BrowserContext;
let page: Page;

/** The template as the nginx image's entrypoint renders it (envsubst of V1_UPSTREAM, V2_UPSTREAM), on a loopback port. */
function renderProxyConfig(upstreams: { v1: string; v2: string }, port: number): string {
  const template = readFileSync(path.join(ROOT, 'web/proxy/default.conf.template'), 'utf8');
  const site = template
    .replace(/\$\{V1_UPSTREAM\}/g, upstreams.v1)
    .replace(/\$\{V2_UPSTREAM\}/g, upstreams.v2)
    .replace(/listen 80;/, `listen 127.0.0.1:${port};`);
  expect(site).not.toContain('${');
  return [
    'worker_processes 1;',
    `pid ${dir}/nginx.pid;`,
    `error_log ${dir}/error.log;`,
    'events {}',
    'http {',
    '  include /etc/nginx/mime.types;',
    `  access_log ${dir}/access.log;`,
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${dir}/${t};`),
    site,
    '}',
  ].join('\n');
}

/**
 * nginx on a free loopback port. The port is picked, then bound by nginx: another process may take
 * it in between, and then nginx exits (after its own bind retries) and another port is tried. nginx
 * writes its pid file only once its listening sockets are bound, so a pid file and a live process
 * mean the port is nginx's, not some other server's that happens to answer there.
 */
async function startNginx(upstreams: { v1: string; v2: string }): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    writeFileSync(path.join(dir, 'nginx.conf'), renderProxyConfig(upstreams, port));
    rmSync(path.join(dir, 'nginx.pid'), { force: true });
    const child = spawn(NGINX, ['-p', dir, '-e', `${dir}/error.log`, '-c', `${dir}/nginx.conf`, '-g', 'daemon off;'], { stdio: 'ignore' });
    const bound = await eventually(() => (child.exitCode !== null || child.signalCode !== null ? 'exited' : existsSync(path.join(dir, 'nginx.pid')) ? 'bound' : null), 30_000);
    if (bound === 'bound') {
      nginx = child;
      return `http://127.0.0.1:${port}`;
    }
    if (attempt === 3) throw new Error(`nginx did not start: ${readFileSync(path.join(dir, 'error.log'), 'utf8')}`);
  }
}

beforeAll(async () => {
  if (!existsSync(NGINX)) throw new Error(`${NGINX} is missing: apt-get install -y nginx-light (.ci/run does this)`);
  dir = mkdtempSync(path.join(os.tmpdir(), 'proxy-'));
  // Each deployment keeps its own uploads, so a file served from the wrong one is a 404.
  session = await startBrowserSession({ env: { ADMIN_API_BASE: '/api', UPLOAD_DIR: path.join(dir, 'v2-uploads') }, demo: false });
  v1 = await startTestService({ login: false, env: { UPLOAD_DIR: path.join(dir, 'v1-uploads') } });
  proxy = await startNginx({ v1: new URL(v1.url).host, v2: new URL(session.svc.url).host });
  await eventually(async () => (await fetch(`${proxy}/v2-api/public/countries`).catch(() => null))?.ok || null, 30_000);
  context = await session.browser.newContext({ baseURL: proxy, viewport: { width: 1280, height: 860 }, locale: 'zh-CN' });
  page = await context.newPage();
});

afterAll(async () => {
  if (nginx && nginx.exitCode === null) await new Promise((r) => (nginx.once('exit', r), nginx.kill('SIGTERM')));
  await session?.close();
  await v1?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Paths the page asked for, without the clients' own files. */
const apiPaths = (urls: string[]) => urls.map((u) => new URL(u).pathname).filter((p) => !/^\/(admin|v2\/h5)(\/|$)/.test(p));

describe('behind the reverse proxy', () => {
  it('the admin SPA registers, logs in and restores its session through /api only', async () => {
    const seen = recordRequests(page, () => true);
    await registerAndLogin(page);
    await page.reload();
    await page.getByTestId('current-user').filter({ hasText: ADMIN.username }).waitFor();
    seen.stop();
    const paths = apiPaths(seen.requests.map((r) => r.url()));
    expect(paths).toEqual(expect.arrayContaining(['/api/auth/register', '/api/auth/login', '/api/auth/me']));
    for (const p of paths) expect(p).toMatch(/^\/api\/[^/]/);
    // the cookies were set through /api and are sent to every prefix
    const cookies = await context.cookies(proxy);
    expect(cookies.filter((c) => c.name.startsWith('svc_')).map((c) => [c.name, c.path, c.httpOnly])).toEqual(
      expect.arrayContaining([
        ['svc_at', '/', true],
        ['svc_rt', '/', true],
      ]),
    );
    // the administrator exists on V1, behind /api, and not on V2
    const login = (url: string) => fetch(`${url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
    expect((await login(v1.url)).status).toBe(200);
    expect((await login(session.svc.url)).status).toBe(401);
    await shot(page, 'proxy-admin');
  });

  it('an expired access cookie is refreshed through /api/auth/refresh, once, and the request retried', async () => {
    await context.clearCookies({ name: 'svc_at' });
    const refreshed = answer(page, '/api/auth/refresh', 200);
    const me = answer(page, '/api/auth/me', 200);
    await page.reload();
    await Promise.all([refreshed, me]);
    await page.getByTestId('current-user').filter({ hasText: ADMIN.username }).waitFor();
  });

  it('an upload through /api is served at the /uploads/ URL it answers, by the deployment that stored it', async () => {
    const r = await context.request.post(`${proxy}/api/upload`, { multipart: { file: { name: 'dot.png', mimeType: 'image/png', buffer: IMAGES.png } } });
    expect(r.status()).toBe(201);
    const { url } = (await r.json()) as { url: string };
    expect(url).toMatch(/^\/uploads\/[^/]+\.png$/);
    const served = await fetch(`${proxy}${url}`);
    expect([served.status, served.headers.get('content-type')]).toEqual([200, 'image/png']);
  });

  it('the storefront under /v2/h5 reads /v2-api, never with a double slash', async () => {
    const h5 = await context.newPage();
    const seen = recordRequests(h5, () => true);
    await h5.goto('/v2/h5/');
    await h5.getByTestId('h5-home').waitFor();
    await h5.goto('/v2/h5/#/list');
    await h5.getByTestId('list-footer').waitFor();
    seen.stop();
    const paths = apiPaths(seen.requests.map((r) => r.url()));
    expect(paths).toEqual(expect.arrayContaining(['/v2-api/public/home', '/v2-api/public/categories/tree']));
    for (const p of paths) expect(p).toMatch(/^\/v2-api\/public\/[^/]/);
    await shot(h5, 'proxy-h5');
    await h5.close();
  });

  it("the demo's pictures pass through /demo-pictures/ to the V2 service, which draws them", async () => {
    for (const [picture, type] of [
      ['/demo-pictures/goods/f1/tee-NVY.svg', 'image/svg+xml; charset=utf-8'],
      ['/demo-pictures/media/f7/hoodie-RED-2.svg', 'image/svg+xml; charset=utf-8'],
      ['/demo-pictures/icons/tote-102.svg', 'image/svg+xml; charset=utf-8'],
    ]) {
      const r = await fetch(`${proxy}${picture}`);
      expect([picture, r.status, r.headers.get('content-type')]).toEqual([picture, 200, type]);
      expect(await r.text()).toMatch(/^<svg /);
    }
    // the service's answer, not nginx's
    const missing = await fetch(`${proxy}/demo-pictures/goods/f1/robot-NVY.svg`);
    expect([missing.status, await missing.text()]).toEqual([404, 'no such picture']);
  });

  it('the bare prefixes redirect; the root opens the storefront; a client route falls back to its page', async () => {
    for (const [from, to] of [
      ['/admin', '/admin/'],
      ['/v2/h5', '/v2/h5/'],
      ['/api', '/api/'],
      ['/v2-api', '/v2-api/'],
      ['/', '/v2/h5/'],
    ]) {
      const r = await fetch(`${proxy}${from}`, { redirect: 'manual' });
      expect([from, r.status >= 301 && r.status <= 302, new URL(r.headers.get('location')!, proxy).pathname]).toEqual([from, true, to]);
    }
    const deep = await fetch(`${proxy}/admin/families`);
    expect([deep.status, deep.headers.get('cache-control')]).toEqual([200, 'no-cache']);
    expect(await deep.text()).toContain('<meta name="catalog-api-base" content="/api" />');
  });
});
