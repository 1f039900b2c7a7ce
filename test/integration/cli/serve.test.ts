/**
 * The first start as a new user meets it, over the process and HTTP: `bin/catalog.js serve` (what
 * `npm start` runs) on a fresh database with the built-in simulator. Its output (JSON lines here,
 * where it is no terminal) says where the clients are, where to create the first administrator and,
 * when the seeding ends, how much it made; every request is one short line; `/` leads to the clients,
 * which have icons; the demo's pictures are absolute addresses at this service that pass its image
 * rule and answer with a drawing; SIGINT stops it in order, without a warning or a stack trace.
 */
import { isImageUrl } from '../../../src/platform/http/fields';
import { startChildService, type ChildService } from '../../support/child-service';
import { createTestDatabase, type TestDatabase } from '../../support/db';
import { freePort } from '../../support/free-port';
import type { PublicGoodDetail, PublicCategoryNode } from '../../../src/contract/storefront';

jest.setTimeout(300_000);

let db: TestDatabase;
let env: Record<string, string>;
let svc: ChildService;
let port: number;
/** where the service says browsers reach it */
let origin: string;
/** where this test reaches it */
let base: string;

interface Line {
  level: number;
  msg: string;
  [key: string]: unknown;
}
const parsed = (): Line[] => svc.lines().map((l) => JSON.parse(l) as Line);

beforeAll(async () => {
  db = await createTestDatabase();
  port = await freePort();
  origin = `http://localhost:${port}`;
  base = `http://127.0.0.1:${port}`;
  env = {
    PATH: process.env.PATH!,
    // a production deployment with its own database, running the simulator as a demo stack does
    NODE_ENV: 'production',
    UPSTREAM_SIMULATOR: 'true',
    DATABASE_URL: db.url,
    JWT_SECRET: 'serve-test-secret-that-is-at-least-32-characters',
    HOST: '127.0.0.1',
    PORT: String(port),
    SIMULATOR_LINKS: '60',
    PROJECTION_POLL_MS: '50',
    LOG_LEVEL: 'info',
  };
  svc = startChildService(env);
  await svc.waitForLine(/demo ready/, 240_000);
});

afterAll(async () => {
  await svc?.stop('SIGKILL');
  await db?.drop();
});

describe('serve, as a new user starts it', () => {
  it('writes one JSON object a line where its output is no terminal, and says where to go', () => {
    const lines = parsed();
    const messages = lines.map((l) => l.msg);
    expect(messages).toEqual(
      expect.arrayContaining([`admin:      ${origin}/admin/`, `storefront: ${origin}/v2/h5/`, `no administrator yet: create the first administrator at ${origin}/admin/`]),
    );
    // in that order, once the service listens
    const at = (m: string) => messages.indexOf(m);
    expect(at('service listening')).toBeLessThan(at(`admin:      ${origin}/admin/`));
    expect(at(`admin:      ${origin}/admin/`)).toBeLessThan(at(`storefront: ${origin}/v2/h5/`));
  });

  it('says "demo ready" with the numbers of families and goods the catalogue then has', async () => {
    const ready = parsed().find((l) => /^demo ready: /.test(l.msg))!;
    const m = /^demo ready: (\d+) families, (\d+) goods$/.exec(ready.msg)!;
    expect(m).not.toBeNull();
    const counts = (await db.pool.query<{ families: number; goods: number }>(`SELECT (SELECT count(*) FROM families)::int AS families, (SELECT count(*) FROM goods)::int AS goods`))
      .rows[0]!;
    expect([Number(m[1]), Number(m[2])]).toEqual([counts.families, counts.goods]);
    expect(counts.families).toBeGreaterThan(5);
    expect(counts.goods).toBeGreaterThan(counts.families);
    // and the storefront lists them
    const list = (await (await fetch(`${base}/v2-api/public/goods?pageSize=1`)).json()) as { total: number };
    expect(list.total).toBe(counts.families);
  });

  it('logs each request in one short line: method, path, status and time, never its headers', async () => {
    const cookie = `svc_at=${'x'.repeat(600)}; svc_rt=${'y'.repeat(600)}`;
    const headers = { cookie, 'user-agent': `Mozilla/5.0 ${'z'.repeat(300)}`, accept: 'application/json' };
    // the public fast lane (a cached answer: asked twice), express, and a 404
    for (let i = 0; i < 3; i++) expect((await fetch(`${base}/v2-api/public/countries`, { headers })).status).toBe(200);
    expect((await fetch(`${base}/auth/me`, { headers })).status).toBe(401);
    expect((await fetch(`${base}/no-such-page`, { headers })).status).toBe(404);
    await svc.waitForLine(/GET \/no-such-page 404/);
    const requestLines = svc.lines().filter((l) => /"msg":"GET \/(v2-api\/public\/countries|auth\/me|no-such-page)/.test(l));
    expect(requestLines.length).toBeGreaterThanOrEqual(5);
    for (const l of requestLines) {
      expect(l.length).toBeLessThan(400);
      expect(l).not.toContain('xxxxxxxx');
      expect(l).not.toContain('zzzzzzzz');
      expect(l).not.toContain('"headers"');
    }
    const msgs = requestLines.map((l) => (JSON.parse(l) as Line).msg);
    expect(msgs).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^GET \/v2-api\/public\/countries 200 [\d.]+ ms \(cached\)$/),
        expect.stringMatching(/^GET \/auth\/me 401 [\d.]+ ms$/),
        expect.stringMatching(/^GET \/no-such-page 404 [\d.]+ ms$/),
      ]),
    );
  });

  it('answers / with a page linking both clients, and each client has its icon', async () => {
    const home = await fetch(`${base}/`);
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await home.text();
    expect(html).toContain('href="/admin/"');
    expect(html).toContain('href="/v2/h5/"');
    const icon = await fetch(`${base}/favicon.ico`);
    expect(icon.url).toBe(`${base}/admin/favicon.svg`);
    expect([icon.status, icon.headers.get('content-type')]).toEqual([200, 'image/svg+xml']);
    for (const client of ['/admin/', '/v2/h5/']) {
      const page = await (await fetch(`${base}${client}`)).text();
      expect(page).toContain(`<link rel="icon" type="image/svg+xml" href="${client}favicon.svg" />`);
      expect(page).toContain(`<link rel="apple-touch-icon" href="${client}apple-touch-icon.png" />`);
      const svg = await fetch(`${base}${client}favicon.svg`);
      expect([svg.status, svg.headers.get('content-type')]).toEqual([200, 'image/svg+xml']);
      expect(await svg.text()).toMatch(/^<svg /);
      const png = await fetch(`${base}${client}apple-touch-icon.png`);
      expect([png.status, png.headers.get('content-type')]).toEqual([200, 'image/png']);
    }
  });

  it("shows the demo's products in pictures it serves itself, at addresses that pass its image rule", async () => {
    const list = (await (await fetch(`${base}/v2-api/public/goods?pageSize=50`)).json()) as { items: { goodId: string; image: string | null }[] };
    const detail = (await (await fetch(`${base}/v2-api/public/goods/${list.items[0]!.goodId}`)).json()) as PublicGoodDetail;
    const tree = (await (await fetch(`${base}/v2-api/public/categories/tree`)).json()) as { items: PublicCategoryNode[] } | PublicCategoryNode[];
    const nodes = Array.isArray(tree) ? tree : tree.items;
    const icons = nodes.flatMap(function walk(n: PublicCategoryNode): string[] {
      return [...(n.icon ? [n.icon] : []), ...n.children.flatMap(walk)];
    });
    const media = Object.values(detail.mediaByColor).flatMap((m) => m.map((x) => x.url));
    expect(media.length).toBeGreaterThan(1);
    expect(icons.length).toBeGreaterThanOrEqual(3);
    const urls = [...list.items.map((g) => g.image!), ...media, ...icons];
    for (const url of urls) {
      expect(url.startsWith(`${origin}/demo-pictures/`)).toBe(true);
      expect(isImageUrl(url)).toBe(true);
    }
    for (const url of new Set(urls)) {
      const r = await fetch(url.replace(origin, base));
      expect([r.status, r.headers.get('content-type')]).toEqual([200, 'image/svg+xml; charset=utf-8']);
      expect(await r.text()).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="(800|256)" height="(800|256)"/);
    }
    // each colour's media show that colour (the address names it)
    const codes: Record<string, string> = {
      黑色: 'BLK',
      白色: 'WHT',
      灰色: 'GRY',
      藏青: 'NVY',
      红色: 'RED',
      军绿: 'OLV',
      卡其: 'KHK',
      粉色: 'PNK',
      宝蓝: 'RBL',
      酒红: 'MRN',
      米白: 'CRM',
      浅蓝: 'LBL',
    };
    for (const [colour, images] of Object.entries(detail.mediaByColor)) for (const m of images) expect(m.url).toContain(`-${codes[colour]}-`);
    // a page loads them by the dozen: their lines stay at debug
    expect(svc.lines().filter((l) => l.includes('/demo-pictures/'))).toEqual([]);
    expect((await fetch(`${base}/demo-pictures/goods/f1/robot-BLK.svg`)).status).toBe(404);
  });

  it('refuses a second start on the same port: exit 2, saying so, without a stack trace', async () => {
    const second = startChildService(env);
    const { code } = await second.exited;
    expect(code).toBe(2);
    expect(second.stderr()).toBe(`Invalid configuration:\n  - PORT: ${port} is already in use on 127.0.0.1; stop what uses it or choose another PORT\n`);
    // the first one still answers
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });

  it('stops in order on SIGINT: exit 0, "stopped", no warning and no stack trace', async () => {
    const { code } = await svc.stop('SIGINT');
    expect(code).toBe(0);
    const lines = parsed();
    const after = lines.slice(lines.findIndex((l) => /^shutting down/.test(l.msg)));
    expect(after.map((l) => l.msg)).toEqual([expect.stringMatching(/^shutting down/), 'stopped']);
    expect(after.filter((l) => l.level >= 40)).toEqual([]);
    expect(svc.lines().filter((l) => /^\s+at |"stack"/.test(l))).toEqual([]);
    expect(svc.stderr()).toBe('');
  });
});
