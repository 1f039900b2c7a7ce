/**
 * The real service the simulation drives: in process, on a database of its own, against the
 * supplier simulator, with a second in-process instance on the same database that reads with the
 * public cache off (invariant e). Every sequence starts from the same baseline: a database prepared
 * once (categories, links and details synced, organised, goods made for some links, a tag group of
 * the shop's own, a country and a category of the administrator's, a home position) and cloned for
 * each sequence, with a simulator generated from the same seed.
 */
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { startSimulator, type RunningSimulator } from '../../src/sync/simulator';
import { migrate } from '../../src/platform/migrate';
import { startTestService, type TestService } from '../support/service';
import { databaseUrl, type TestDatabase } from '../support/db';
import { createPool } from '../../src/platform/db';
import { eventually } from '../support/eventually';

/** Where the simulator's pictures are announced: fixed, so a simulator on another port lists the same links. */
const PICTURES = 'http://pictures.simulation.invalid/demo-pictures';

export interface WorldOptions {
  /** links of the simulated supplier (small: a sequence must be quick) */
  links: number;
  /** the simulator's catalogue seed */
  catalogueSeed: number;
}

export interface World {
  sim: RunningSimulator;
  /** the service under test: HTTP, projections, the public cache */
  svc: TestService;
  /** a second instance on the same database, PUBLIC_CACHE_DISABLED, no projection runners: public reads only */
  reader: TestService;
  /** a second writing instance on the same database, with its own projection runners (one of the two leads) and public cache */
  writer: TestService;
  /** an instance that only reads, through its own public cache (voided by the database's notifications, as across processes) */
  cacher: TestService;
  close(): Promise<void>;
}

function adminUrl(): string {
  const url = process.env.TEST_PG_ADMIN_URL ?? process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL (or the jest global set-up) must name a PostgreSQL server');
  process.env.TEST_PG_ADMIN_URL = url;
  return url;
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: adminUrl() });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

async function cloneDatabase(template: string): Promise<TestDatabase> {
  const name = `catalog_sim_${randomBytes(5).toString('hex')}`;
  await admin(async (c) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await c.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
        return;
      } catch (e) {
        if (attempt > 50 || !/being accessed by other users/.test(String(e))) throw e;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
  });
  const url = databaseUrl(name);
  const pool = createPool(url, 3, 'catalog-simulation');
  return {
    url,
    name,
    pool,
    async drop() {
      await pool.end();
      await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/** The migrated template: jest's global set-up made one; the soak (outside jest) makes its own. */
async function migratedTemplate(): Promise<{ name: string; drop: () => Promise<void> }> {
  const made = process.env.TEST_PG_TEMPLATE;
  if (made) return { name: made, drop: async () => undefined };
  const name = `catalog_sim_template_${process.pid}`;
  await admin(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${name}`);
  });
  await migrate({ databaseUrl: databaseUrl(name) });
  return { name, drop: () => admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined) };
}

export async function startSupplier(opts: WorldOptions): Promise<RunningSimulator> {
  return startSimulator({ links: opts.links, seed: opts.catalogueSeed, pictures: PICTURES });
}

/** Every projection has applied every committed event and runs. */
export async function caughtUp(svc: TestService, timeoutMs = 60_000): Promise<void> {
  await eventually(
    async () => {
      const status = await svc.services.engine.status();
      const bad = status.find((p) => p.state === 'failed' || p.lastError);
      if (bad) throw new Error(`projection ${bad.name} failed: ${JSON.stringify(bad.lastError)}`);
      return status.every((p) => p.lagEvents === 0 && p.state === 'running');
    },
    timeoutMs,
    25,
  );
}

/**
 * Small pools: the simulation shares its PostgreSQL server with whatever else runs (a whole test
 * suite, other soaks), and a sequence needs few connections at a time.
 */
const SERVICE_ENV = (upstream: string): Record<string, string> => ({
  UPSTREAM_URL: upstream,
  UPSTREAM_PAGE_SIZE: '25',
  DATABASE_POOL_SIZE: '5',
  CATEGORY_SYNC_CRON: 'off',
  GOODS_SYNC_CRON: 'off',
  DETAILS_SYNC_CRON: 'off',
});

/** The server refused a connection for want of slots (other work holds them): worth a wait and another try. */
const serverFull = (e: unknown) => /too many clients|remaining connection slots/.test(String(e));

async function retryWhileFull<T>(what: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await what();
    } catch (e) {
      if (attempt >= 30 || !serverFull(e)) throw e;
      await new Promise((r) => setTimeout(r, 1000 + Math.random() * 1000));
    }
  }
}

export function startWorld(baseline: string, opts: WorldOptions): Promise<World> {
  return retryWhileFull(() => startWorldOnce(baseline, opts));
}

async function startWorldOnce(baseline: string, opts: WorldOptions): Promise<World> {
  const db = await cloneDatabase(baseline);
  const sim = await startSupplier(opts);
  let svc: TestService | undefined;
  try {
    svc = await startTestService({ db, env: SERVICE_ENV(sim.url) });
    const reader = await startTestService({ db, workers: false, login: false, env: { ...SERVICE_ENV(sim.url), PUBLIC_CACHE_DISABLED: 'true' } });
    const writer = await startTestService({ db, env: SERVICE_ENV(sim.url) });
    const cacher = await startTestService({ db, workers: false, login: false, env: SERVICE_ENV(sim.url) });
    const s = svc;
    return {
      sim,
      svc: s,
      reader,
      writer,
      cacher,
      async close() {
        await cacher.close();
        await writer.close();
        await reader.close();
        await s.close();
        await sim.close();
        await db.drop();
      },
    };
  } catch (e) {
    await svc?.close();
    await sim.close();
    await db.drop();
    throw e;
  }
}

/** Runs a synchronisation to its end over HTTP; its run record. */
export async function syncRun(svc: TestService, path: string, body?: unknown): Promise<any> {
  const started = await svc.request('POST', path, body ?? {});
  if (started.status !== 202) throw new Error(`${path} → ${started.status} ${JSON.stringify(started.body)}`);
  return eventually(async () => {
    const r = await svc.request('GET', `/sync/runs/${started.body.runId}`);
    return r.body.state !== 'running' ? r.body : null;
  }, 120_000);
}

export async function ok(svc: TestService, method: string, path: string, body?: unknown): Promise<any> {
  let r = await svc.request(method, path, body);
  // A rule checked against read models still behind is refused with 503 PROJECTION.BEHIND: wait, then again.
  for (let attempt = 0; r.status === 503 && attempt < 60; attempt++) {
    await caughtUp(svc);
    await new Promise((res) => setTimeout(res, 250));
    r = await svc.request(method, path, body);
  }
  if (r.status >= 300) throw new Error(`${method} ${path} → ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/**
 * The baseline every sequence starts from, as an operator would set up a shop: synchronise, organise,
 * make goods for about half the organised links, a tag group without dimension with three tags (on
 * some goods), a country and a category of the administrator's (unused), a home position.
 */
export function prepareBaseline(opts: WorldOptions): Promise<{ name: string; drop: () => Promise<void> }> {
  return retryWhileFull(() => prepareBaselineOnce(opts));
}

async function prepareBaselineOnce(opts: WorldOptions): Promise<{ name: string; drop: () => Promise<void> }> {
  const template = await migratedTemplate();
  const db = await cloneDatabase(template.name);
  const sim = await startSupplier(opts);
  try {
    const svc = await startTestService({ db, env: SERVICE_ENV(sim.url) });
    try {
      for (const p of ['/sync/categories', '/sync/origin-goods', '/sync/details']) {
        const run = await syncRun(svc, p);
        if (run.state !== 'succeeded') throw new Error(`baseline ${p}: ${JSON.stringify(run)}`);
      }
      await ok(svc, 'POST', '/product-families/organize');
      // The run answers when it has appended; its families show once the read models applied it.
      await caughtUp(svc);
      await eventually(async () => Number((await svc.db.pool.query(`SELECT count(*) AS n FROM origin_goods WHERE family_id IS NOT NULL`)).rows[0].n) > 0, 120_000, 50);
      const group = await ok(svc, 'POST', '/tag-groups', { name: '风格' });
      const tags: string[] = [];
      for (const name of ['复古', '简约', '街头']) tags.push((await ok(svc, 'POST', '/tags', { name, groupId: group.id })).id);
      await ok(svc, 'POST', '/countries', { name: '试验国', code: 'ZZ' });
      await ok(svc, 'POST', '/categories', { name: '试验类目' });
      const organised = (
        await svc.db.pool.query<{ id: string; category_id: string }>(`SELECT id::text, category_id::text FROM origin_goods WHERE family_id IS NOT NULL ORDER BY id`)
      ).rows;
      const countries = (await svc.db.pool.query<{ id: string; name: string }>(`SELECT id::text, name FROM countries`)).rows;
      const goods: string[] = [];
      for (const [i, link] of organised.entries()) {
        if (i % 2 === 1) continue;
        const parsed = (await svc.db.pool.query(`SELECT parsed_country FROM origin_goods WHERE id = $1`, [link.id])).rows[0];
        const country = countries.find((c) => c.name === parsed.parsed_country);
        const good = await ok(svc, 'POST', '/goods', {
          originGoodId: link.id,
          categoryId: link.category_id,
          countryId: country?.id ?? null,
          tagIds: i % 3 === 0 ? [tags[i % tags.length]!] : [],
        });
        goods.push(good.id);
      }
      await ok(svc, 'POST', '/positions', { name: '首页推荐', goodIds: goods.slice(0, 3) });
      await caughtUp(svc);
      await eventually(async () => Number((await svc.db.pool.query(`SELECT count(*) AS n FROM goods WHERE family_id IS NOT NULL`)).rows[0].n) === goods.length, 120_000, 50);
    } finally {
      await svc.close();
    }
  } finally {
    await sim.close();
  }
  // Login throttles count per database (docs/security.md): every clone starts with none.
  await db.pool.query(`DELETE FROM rate_limit_hits`);
  await db.pool.end();
  return {
    name: db.name,
    drop: async () => {
      await admin((c) => c.query(`DROP DATABASE IF EXISTS ${db.name} WITH (FORCE)`));
      await template.drop();
    },
  };
}

/** A difference between two paths of the code, or between the service and the model: a bug. */
export class Divergence extends Error {
  constructor(
    readonly invariant: string,
    message: string,
  ) {
    super(`(${invariant}) ${message}`);
  }
}

/** What the commands drive: the world of one sequence, and the operation count of the whole run. */
export interface Real {
  world: World;
  ops: { count: number };
}

export function overrideKey(c: { size: string; color: string; printCount: string; craft: string; logistics: string }): string {
  return JSON.stringify({ size: c.size, color: c.color, printCount: c.printCount, craft: c.craft, logistics: c.logistics });
}

/** Rebuilds these projections from the log and waits until they run again, caught up. */
export async function rebuild(r: Real, names: readonly string[]): Promise<void> {
  const { svc } = r.world;
  const was = new Map<string, string>();
  for (const p of await svc.services.engine.status()) was.set(p.name, String(p.lastRebuildAt));
  for (const n of names) await svc.services.engine.requestRebuild(n);
  await eventually(
    async () => (await svc.services.engine.status()).filter((p) => names.includes(p.name)).every((p) => p.state === 'running' && String(p.lastRebuildAt) !== was.get(p.name)),
    120_000,
    50,
  );
  await caughtUp(svc, 120_000);
}
