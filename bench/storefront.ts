/**
 * Public storefront reads on a catalog of `--storefront-families` families (default 30 000):
 *
 * - cached GET /public/goods/:id and GET /public/goods?page=… throughput, with autocannon, side by
 *   side with a bare `node:http` server answering the same bytes (same status, headers and body,
 *   replayed from what the service answered), and the ratio service / bare;
 * - the same two with the cross-process freshness check off (src/storefront/freshness.ts), so its
 *   cost is visible;
 * - the cold list: a representative good renamed as the catalog projection would commit it, then the
 *   first GET /public/goods?page=1 (the family index reads the changed family, the list is written
 *   from the kept items, the page cut); and the loader of a process's first list (every family read,
 *   every item written).
 *
 * It is a read benchmark, so the read models are written directly with SQL (families with
 * materialised matrix, unions and media; 1–3 goods each; countries, a three-level category tree,
 * size/colour/style tags), not through events and projections.
 *
 * The service runs in a child process (this file, started with STOREFRONT_BENCH_CHILD=1), so the
 * load generator does not share its event loop; the bare server runs in that same child, so both
 * sides get the same CPU.
 */
import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import express, { Router } from 'express';
import pg from 'pg';
import { loadConfig } from '../src/config';
import { buildApp, closeServices, createServices } from '../src/main';
import { createLogger } from '../src/platform/log';
import { createHttpServer } from '../src/platform/http/server';
import { FamilyIndex } from '../src/storefront/family-index';
import { ListItemBytes } from '../src/storefront/list-bytes';
import { loadGoodsList } from '../src/storefront/queries';
import { storefrontRoutes } from '../src/storefront/routes';
import { type BenchContext, type Measure, type Ratio, type Suite, measure, median, ratio } from './harness';

const SIZES = ['XS', 'S', 'M', 'L', 'XL', '2XL', '3XL'];
const COLORS = ['黑色', '白色', '红色', '卡其', '米白', '灰色', '军绿', '藏青', '酒红', '浅蓝'];
const FAMILY_ID_BASE = 1_000_000_000_000_000n;
const GOOD_ID_BASE = 2_000_000_000_000_000n;
const TEMPLATES = 16;

/** The materialised aggregates of one kind of family: 4 sizes × 3 colours × 2 × 2 × 2 = 96 cells. */
function familyTemplate(t: number) {
  const sizes = SIZES.slice(t % 3, (t % 3) + 4);
  const colors = [0, 1, 2].map((k) => COLORS[(t + k * 3) % COLORS.length]!);
  const printCounts = ['单面印花', '双面印花'];
  const crafts = ['烫画', '直喷'];
  const logistics = ['不包邮', '包邮'];
  const cells = [];
  for (const size of sizes)
    for (const color of colors)
      for (const printCount of printCounts)
        for (const craft of crafts)
          for (const lg of logistics) {
            const cents = 1990 + t * 100 + printCounts.indexOf(printCount) * 500 + crafts.indexOf(craft) * 300 + logistics.indexOf(lg) * 400;
            cells.push({ size, color, printCount, craft, logistics: lg, price: (cents / 100).toFixed(2) });
          }
  const variants = sizes.flatMap((size) => colors.map((color, k) => ({ size, color, price: (29.9 + k).toFixed(2), sku: `B${t}-${k}-${size}` })));
  const sizeChart = sizes.map((size, k) => ({ size, chest: String(88 + 6 * k), length: String(66 + 2 * k) }));
  const packagingSpecs = [
    { name: '单件', widthCm: 25, heightCm: 2, lengthCm: 30, weightGrams: 170 },
    { name: '整箱（50件）', widthCm: 40, heightCm: 40, lengthCm: 60, weightGrams: 9300 },
  ];
  const mediaByColor = Object.fromEntries(
    colors.map((color, c) => [
      color,
      [0, 1, 2].map((k) => ({ id: String(4_611_686_018_427_387_904n + BigInt(t * 100 + c * 10 + k)), url: `https://img.example.com/media/t${t}/${c}-${k}.jpg`, sortOrder: k })),
    ]),
  );
  return {
    variants: JSON.stringify(variants),
    sizeChart: JSON.stringify(sizeChart),
    packagingSpecs: JSON.stringify(packagingSpecs),
    priceMatrix: JSON.stringify({ sizes, colors, printCounts, crafts, logistics, cells, invalidOverrides: [] }),
    mediaByColor: JSON.stringify(mediaByColor),
  };
}

/** Writes the read models of `families` public families straight into a migrated database. */
export async function seedStorefront(url: string, families: number): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query('BEGIN');
    await c.query(`INSERT INTO countries (id, name, code, sort_order, revision)
                   SELECT i, 'country ' || i, 'C' || i, (i * 3) % 10, 0 FROM generate_series(1, 10) i`);
    await c.query(`INSERT INTO categories (id, parent_id, name, raw_name, icon, effective_icon, sort_order, level, revision)
                   SELECT 100 + i, NULL, 'top ' || i, 'top ' || i, 'https://img.example.com/icons/' || i || '.png',
                          'https://img.example.com/icons/' || i || '.png', 4 - i, 1, 0 FROM generate_series(1, 3) i`);
    await c.query(`INSERT INTO categories (id, parent_id, name, raw_name, effective_icon, sort_order, level, revision)
                   SELECT 200 + i, 101 + (i - 1) % 3, 'middle ' || i, 'middle ' || i,
                          'https://img.example.com/icons/' || (1 + (i - 1) % 3) || '.png', (i * 5) % 7, 2, 0 FROM generate_series(1, 7) i`);
    await c.query(`INSERT INTO categories (id, parent_id, name, raw_name, effective_icon, sort_order, level, revision)
                   SELECT 300 + i, 201 + (i - 1) % 7, 'style ' || i, 'style ' || i, NULL, (i * 7) % 30, 3, 0 FROM generate_series(1, 30) i`);
    await c.query(`INSERT INTO tag_groups (id, name, dimension, revision, created_at, updated_at)
                   VALUES (1, '尺码', 'size', 0, now(), now()), (2, '颜色', 'color', 0, now(), now()), (3, '风格', NULL, 0, now(), now())`);
    await c.query(
      `INSERT INTO tags (id, group_id, name, sort_order, revision, created_at, updated_at)
       SELECT 1000 + o, 1, s, o, 0, now(), now() FROM unnest($1::text[]) WITH ORDINALITY AS u(s, o)
       UNION ALL SELECT 2000 + o, 2, s, 10 + o, 0, now(), now() FROM unnest($2::text[]) WITH ORDINALITY AS u(s, o)
       UNION ALL SELECT 3000 + i, 3, 'style tag ' || i, 20 + i, 0, now(), now() FROM generate_series(1, 10) i`,
      [SIZES, COLORS],
    );
    const t = Array.from({ length: TEMPLATES }, (_, i) => familyTemplate(i));
    await c.query(
      `INSERT INTO families (id, name, auto_managed, locked, member_count, variants, size_chart, packaging_specs, price_matrix,
                             lowest_price, media_by_color, created_at, updated_at, revision)
       SELECT $1::bigint + i, '家族 ' || i, true, false, 2,
              ($3::jsonb[])[1 + i % ${TEMPLATES}], ($4::jsonb[])[1 + i % ${TEMPLATES}], ($5::jsonb[])[1 + i % ${TEMPLATES}],
              ($6::jsonb[])[1 + i % ${TEMPLATES}],
              CASE WHEN i % 97 = 0 THEN NULL ELSE (1990 + (i * 37) % 2000) / 100.0 END,
              ($7::jsonb[])[1 + i % ${TEMPLATES}], now(), now(), 0
         FROM generate_series(1, $2::int) i`,
      [
        FAMILY_ID_BASE.toString(),
        families,
        t.map((x) => x.variants),
        t.map((x) => x.sizeChart),
        t.map((x) => x.packagingSpecs),
        t.map((x) => x.priceMatrix),
        t.map((x) => x.mediaByColor),
      ],
    );
    // 1–3 goods per family; a few tags each (two sizes, a colour, a style tag).
    await c.query(
      `INSERT INTO goods (id, name, description, image, good_priority, tag_ids, tag_font_color, category_id, country_id, family_id,
                          created_at, updated_at, revision)
       SELECT $2::bigint + i * 4 + k, '纯棉短袖T恤 G' || (5000 + i) || CASE WHEN k > 0 THEN ' v' || k ELSE '' END, '描述 ' || i,
              'https://img.example.com/goods/' || i || '-' || k || '.jpg', (i * 13 + k) % 5,
              ARRAY[1001 + i % 4, 1002 + i % 4, 2001 + i % 10, 3001 + (i + k) % 10]::bigint[], CASE WHEN i % 5 = 0 THEN '#ff0000' END,
              301 + i % 30, 1 + i % 10, $1::bigint + i, now() - make_interval(secs => i * 3 + k), now(), 0
         FROM generate_series(1, $3::int) i CROSS JOIN LATERAL generate_series(0, i % 3) k`,
      [FAMILY_ID_BASE.toString(), GOOD_ID_BASE.toString(), families],
    );
    // What the catalog projection's recompute keeps: goodPriority desc, createdAt desc, id asc.
    await c.query(`UPDATE families f SET good_count = s.n, representative_good_id = s.rep
                     FROM (SELECT family_id, count(*) AS n,
                                  (array_agg(id ORDER BY good_priority DESC, created_at DESC, id ASC))[1] AS rep
                             FROM goods GROUP BY family_id) s
                    WHERE s.family_id = f.id`);
    await c.query('COMMIT');
    // What autovacuum does to a settled catalog: statistics, and the visibility map that lets the
    // list read public families from the covering index (migration 008) without the wide rows.
    await c.query('VACUUM ANALYZE');
  } catch (e) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    await c.end();
  }
}

/**
 * A goods write as the catalog projection commits it: a representative good renamed (its list item
 * changes), the `goods`, `matrix` and `meta` versions bumped, and the family recorded as changed
 * (migration 034). The service's freshness check reads the versions on the next request.
 */
async function renameOneGood(pool: pg.Pool, round: number): Promise<void> {
  const family = (FAMILY_ID_BASE + BigInt(1 + ((round * 7919) % 1000))).toString();
  const c = await pool.connect();
  try {
    await c.query('BEGIN');
    await c.query(`UPDATE goods SET name = name || ' ' || $2 WHERE id = (SELECT representative_good_id FROM families WHERE id = $1)`, [family, `r${round}`]);
    await c.query(
      `WITH v AS (UPDATE cache_domains SET version = version + 1 WHERE domain IN ('goods', 'matrix', 'meta') RETURNING domain, version)
       INSERT INTO family_changes (goods_version, family_ids) SELECT version, ARRAY[$1::bigint] FROM v WHERE domain = 'goods'`,
      [family],
    );
    await c.query('COMMIT');
  } catch (e) {
    await c.query('ROLLBACK');
    throw e;
  } finally {
    c.release();
  }
}

/** The body's length as sent (not decoded) for one Accept-Encoding. */
function wireBytes(url: string, coding: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': coding } }, (res) => {
        let n = 0;
        res.on('data', (c: Buffer) => (n += c.length));
        res.on('end', () => resolve(n));
      })
      .on('error', reject);
  });
}

// ------------------------------------------------------------------------------------ child process

type ToChild = { kind: 'prime'; paths: string[] } | { kind: 'cold'; rounds: number } | { kind: 'cpu' } | { kind: 'stop' };
type FromChild =
  | { kind: 'ready'; appUrl: string; bareUrl: string; routesOnlyUrl: string }
  | { kind: 'cpu'; micros: number }
  | { kind: 'primed'; bytes: number }
  | { kind: 'cold'; httpSeconds: number[]; loaderSeconds: number[]; items: number; bytes: number }
  | { kind: 'error'; message: string };

/** The service (as `npm start` builds it, without projection workers) and the bare server, in this process. */
async function childMain(): Promise<void> {
  const send = (m: FromChild) => process.send!(m);
  const config = loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL: process.env.STOREFRONT_BENCH_DB,
    JWT_SECRET: 'bench-secret-that-is-at-least-32-characters-long',
    // The supplier is never called: this only keeps the built-in simulator from starting.
    UPSTREAM_URL: 'http://127.0.0.1:9',
    LOG_LEVEL: 'warn',
  });
  const log = createLogger(config.logLevel);
  const services = await createServices(config, log, config.databaseUrl!);
  // For comparison only: the same routes without the cross-process freshness check.
  const extraRoutes = Router().use('/__bench/unchecked', storefrontRoutes(services, { crossProcessFreshness: false }));
  const app = createHttpServer(buildApp(services, { extraRoutes }), config.http);
  const recorded = new Map<string, { status: number; headers: [string, string][]; body: Buffer }>();
  // The same connection timeouts on all three: the comparison is of what answers, not of the sockets.
  const bare = createHttpServer((req, res) => {
    const r = recorded.get(req.url ?? '');
    if (!r) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(r.status, r.headers.flat());
    res.end(r.body);
  }, config.http);
  const listen = (server: http.Server) =>
    new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
  // The storefront routes alone on a plain express app: what the service's middleware (request logs
  // and ids, security headers, CORS, cookies, body parsing) and its other routers add shows as the
  // difference to the full app.
  const routesOnly = createHttpServer(express().disable('x-powered-by').use(storefrontRoutes(services)), config.http);
  const appUrl = await listen(app);
  const bareUrl = await listen(bare);
  const routesOnlyUrl = await listen(routesOnly);
  // Replayed as the service sent them, minus what node:http writes itself per response.
  const OWN = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

  // The runner gone (finished, interrupted or crashed): so is the reason to serve.
  process.once('disconnect', () => process.exit(0));
  process.on('message', (m: ToChild) => {
    void (async () => {
      try {
        switch (m.kind) {
          case 'prime': {
            let bytes = 0;
            for (const p of m.paths) {
              // As autocannon asks: no Accept-Encoding, so the JSON itself (the bare server replays it).
              const res = await fetch(appUrl + p, { headers: { 'accept-encoding': 'identity' } });
              const body = Buffer.from(await res.arrayBuffer());
              if (res.status !== 200) throw new Error(`GET ${p}: ${res.status} ${body.toString().slice(0, 200)}`);
              bytes += body.length;
              recorded.set(p, { status: res.status, headers: [...res.headers].filter(([k]) => !OWN.has(k)), body });
            }
            send({ kind: 'primed', bytes });
            return;
          }
          case 'cold': {
            const httpSeconds: number[] = [];
            const loaderSeconds: number[] = [];
            let items = 0;
            let bytes = 0;
            const spec = { sort: 'DEFAULT', countryId: null, categoryId: null, tagIds: [], keyword: null } as const;
            for (let i = 0; i < m.rounds; i++) {
              await renameOneGood(services.pool, i);
              const t0 = performance.now();
              const res = await fetch(`${appUrl}/public/goods?page=1`);
              const page = (await res.json()) as { total: number };
              httpSeconds.push((performance.now() - t0) / 1000);
              if (res.status !== 200) throw new Error(`cold list: ${res.status}`);
              items = page.total;
              const t1 = performance.now();
              // A process's first list: no family and no item kept from an earlier load.
              const list = await loadGoodsList(services.pool, { ...spec, tagIds: [] }, { families: new FamilyIndex(), listItems: new ListItemBytes() });
              loaderSeconds.push((performance.now() - t1) / 1000);
              bytes = list.body.length;
            }
            send({ kind: 'cold', httpSeconds, loaderSeconds, items, bytes });
            return;
          }
          case 'cpu': {
            const u = process.cpuUsage();
            send({ kind: 'cpu', micros: u.user + u.system });
            return;
          }
          case 'stop':
            for (const server of [app, bare, routesOnly]) {
              server.closeAllConnections();
              await new Promise<void>((r) => server.close(() => r()));
            }
            await closeServices(services);
            process.exit(0);
        }
      } catch (e) {
        send({ kind: 'error', message: (e as Error).stack ?? String(e) });
      }
    })();
  });
  send({ kind: 'ready', appUrl, bareUrl, routesOnlyUrl });
}

class Child {
  private readonly proc: ChildProcess;
  private readonly inbox: FromChild[] = [];
  private waiting: { resolve: (m: FromChild) => void; reject: (e: Error) => void } | null = null;
  private exited: Error | null = null;

  constructor(databaseUrl: string) {
    const root = path.resolve(__dirname, '..');
    this.proc = fork(path.join(root, 'bin/run-ts.js'), [path.join(root, 'bench/storefront.ts')], {
      cwd: root,
      env: { ...process.env, STOREFRONT_BENCH_CHILD: '1', STOREFRONT_BENCH_DB: databaseUrl },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.proc.on('message', (m: FromChild) => {
      const w = this.waiting;
      this.waiting = null;
      if (w) w.resolve(m);
      else this.inbox.push(m);
    });
    this.proc.once('exit', (code) => {
      this.exited = new Error(`storefront bench server exited (${code})`);
      this.waiting?.reject(this.exited);
      this.waiting = null;
    });
  }

  async next<K extends FromChild['kind']>(kind: K): Promise<Extract<FromChild, { kind: K }>> {
    const m =
      this.inbox.shift() ??
      (await new Promise<FromChild>((resolve, reject) => {
        if (this.exited) reject(this.exited);
        else this.waiting = { resolve, reject };
      }));
    if (m.kind === 'error') throw new Error(`storefront bench server: ${m.message}`);
    if (m.kind !== kind) throw new Error(`expected ${kind} from the bench server, got ${m.kind}`);
    return m as Extract<FromChild, { kind: K }>;
  }

  send(m: ToChild): void {
    this.proc.send(m);
  }

  async stop(): Promise<void> {
    if (this.exited) return;
    const exited = new Promise<void>((r) => this.proc.once('exit', () => r()));
    this.send({ kind: 'stop' });
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}

// ------------------------------------------------------------------------------------------- suite

interface Round {
  requests: number;
  seconds: number;
  /** CPU time the server process spent per answered request: steadier than throughput on a busy machine */
  cpuMicrosPerRequest: number;
}

async function cannon(ctx: BenchContext, child: Child, label: string, url: string, paths: string[], seconds: number, connections: number): Promise<Round> {
  child.send({ kind: 'cpu' });
  const before = (await child.next('cpu')).micros;
  const result = await autocannon({ url, connections, duration: seconds, requests: paths.map((p) => ({ method: 'GET', path: p })) });
  child.send({ kind: 'cpu' });
  const after = (await child.next('cpu')).micros;
  if (result.non2xx || result.errors) throw new Error(`${label}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  const cpuMicrosPerRequest = (after - before) / result.requests.total;
  ctx.progress(
    `${label}: ${Math.round(result.requests.total / result.duration)} req/s, latency p50 ${result.latency.p50} ms p99 ${result.latency.p99} ms, ${cpuMicrosPerRequest.toFixed(0)} µs server CPU/request`,
  );
  return { requests: result.requests.total, seconds: result.duration, cpuMicrosPerRequest };
}

/**
 * Rounds of one target as one Measure: `count` is the median round's requests and each round's
 * seconds are what that count would have taken at the round's rate, so the table's rate is the
 * median rate and its range the rounds' spread.
 */
function roundsMeasure(label: string, rounds: Round[]): Measure {
  const count = median(rounds.map((r) => r.requests));
  return measure(
    label,
    count,
    rounds.map((r) => (count * r.seconds) / r.requests),
    'requests',
  );
}

export const storefrontSuite: Suite = {
  name: 'storefront',
  title: 'public storefront reads: cached detail and list pages vs a bare node:http server, cold list',
  flags: {
    'storefront-families': { default: 30_000, help: 'public families in the catalog' },
    'http-seconds': { default: 3, help: 'autocannon duration of each throughput run' },
    'http-rounds': { default: 3, help: 'throughput rounds per target (targets take turns)' },
    'http-connections': { default: 50, help: 'autocannon connections' },
    'cold-rounds': { default: 5, help: 'cold list materialisations measured' },
  },
  async run(ctx) {
    const families = ctx.flag('storefront-families');
    const seconds = ctx.flag('http-seconds');
    const connections = ctx.flag('http-connections');
    const db = await ctx.freshDatabase('storefront');
    ctx.progress(`seeding ${families} families`);
    const t0 = performance.now();
    await seedStorefront(db.url, families);
    ctx.progress(`seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const child = new Child(db.url);
    try {
      const { appUrl, bareUrl, routesOnlyUrl } = await child.next('ready');
      // 1000 families spread over the catalog, and 100 list pages of 20 (DEFAULT order).
      const step = Math.max(1, Math.floor(families / 1000));
      const ids = Array.from({ length: Math.min(1000, families) }, (_, i) => (FAMILY_ID_BASE + BigInt(1 + i * step)).toString());
      const detailPaths = ids.map((id) => `/public/goods/${id}`);
      const pages = Math.min(100, Math.ceil(families / 20));
      const listPaths = Array.from({ length: pages }, (_, i) => `/public/goods?page=${1 + Math.floor((i * families) / 20 / pages)}&pageSize=20`);
      const unchecked = (p: string) => `/__bench/unchecked${p}`;

      // Cold first: a first list, then one after each write.
      await (await fetch(`${appUrl}/public/goods?page=1`)).arrayBuffer();
      child.send({ kind: 'cold', rounds: ctx.flag('cold-rounds') });
      const cold = await child.next('cold');
      if (cold.items !== families) throw new Error(`cold list: ${cold.items} items, expected ${families}`);

      // The service answers (and caches) each path once; the bare server records those answers.
      child.send({ kind: 'prime', paths: [...detailPaths, ...listPaths] });
      const primed = await child.next('primed');
      ctx.progress(`primed ${detailPaths.length + listPaths.length} responses, ${(primed.bytes / 1e6).toFixed(1)} MB`);

      // What a shopper's connection carries for a 20-item page and a detail, per representation.
      const wire: string[] = [];
      for (const [what, p] of [
        ['a 20-item page', listPaths[1]!],
        ['a detail', detailPaths[1]!],
      ] as const) {
        const sizes = [];
        for (const coding of ['identity', 'gzip', 'br']) sizes.push(`${coding} ${await wireBytes(appUrl + p, coding)}`);
        wire.push(`bytes on the wire for ${what} (${p}): ${sizes.join(', ')}`);
      }

      const rows: (Measure | Ratio)[] = [];
      const cpu: string[] = [];
      // The targets take turns, round after round, so a change in the machine's load hits all alike.
      const compare = async (what: string, paths: string[]) => {
        const targets = [
          { label: `${what}, bare node:http`, url: bareUrl, paths },
          { label: `${what}, service (cached)`, url: appUrl, paths },
          { label: `${what}, service, freshness check off`, url: appUrl, paths: paths.map(unchecked) },
          { label: `${what}, storefront routes on a plain express app`, url: routesOnlyUrl, paths },
        ];
        const rounds: Round[][] = targets.map(() => []);
        for (let round = 0; round < ctx.flag('http-rounds'); round++) {
          for (const [i, t] of targets.entries()) rounds[i]!.push(await cannon(ctx, child, t.label, t.url, t.paths, seconds, connections));
        }
        const [bare, app, off, plain] = targets.map((t, i) => roundsMeasure(t.label, rounds[i]!)) as [Measure, Measure, Measure, Measure];
        rows.push(
          bare,
          app,
          ratio(`${what}: service / bare`, app, bare),
          off,
          ratio(`${what}, check off: service / bare`, off, bare),
          plain,
          ratio(`${what}, routes on plain express / bare`, plain, bare),
        );
        const [bareCpu, appCpu, offCpu, plainCpu] = rounds.map((r) => median(r.map((x) => x.cpuMicrosPerRequest))) as [number, number, number, number];
        cpu.push(
          `${what}: server CPU per request (median of rounds): service ${appCpu.toFixed(0)} µs, check off ${offCpu.toFixed(0)} µs, ` +
            `routes on plain express ${plainCpu.toFixed(0)} µs, bare ${bareCpu.toFixed(0)} µs; bare/service ${(bareCpu / appCpu).toFixed(3)}`,
        );
      };
      await compare('GET /public/goods/:id', detailPaths);
      await compare('GET /public/goods?page=…', listPaths);
      rows.push(
        measure('cold list: first GET /public/goods after a goods write', families, cold.httpSeconds, 'families'),
        measure("cold list: a process's first list, loader alone (SQL, sort, items)", families, cold.loaderSeconds, 'families'),
      );
      const ms = (xs: number[]) => `${(median(xs) * 1000).toFixed(0)} ms median (${xs.map((x) => (x * 1000).toFixed(0)).join(', ')})`;
      return {
        rows,
        notes: [
          `${families} public families, ${(cold.bytes / 1e6).toFixed(1)} MB of list JSON; cold list, first GET /public/goods?page=1 after a representative good is renamed: ${ms(cold.httpSeconds)}; a process's first list, loader alone: ${ms(cold.loaderSeconds)}`,
          `throughput: autocannon, ${connections} connections, ${ctx.flag('http-rounds')} rounds of ${seconds} s per target (targets take turns), ${detailPaths.length} detail paths / ${listPaths.length} list pages in rotation, all cached; the bare server replays the service's exact status, headers and body`,
          'the service runs in a child process with the bare server; "freshness check off" mounts the same routes without the per-request cache_domains read; "plain express" is the storefront router alone on express() (no logging, security headers, CORS, cookies or other routers), same cache',
          ...cpu,
          ...wire,
        ],
      };
    } finally {
      await child.stop();
    }
  },
};

if (process.env.STOREFRONT_BENCH_CHILD === '1') {
  childMain().catch((e) => {
    process.stderr.write(`storefront bench server failed: ${(e as Error).stack ?? String(e)}\n`);
    process.exit(1);
  });
}
