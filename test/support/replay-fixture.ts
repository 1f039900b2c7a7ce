/**
 * An old event log and the read models it gave (docs/architecture.md, Replaying an old log). The log
 * was written once by the service of its day, driven over HTTP against the supplier simulator
 * (`npm run replay-fixture`, scripts/replay-fixture.ts); the test replays it with today's code and
 * compares the rows with those it gave then. Here: its files, how a log is dumped and loaded, how the
 * read models are dumped, and the catalogue the script makes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type pg from 'pg';
import { allProjections } from '../../projections';
import { tableDigests, tableRows } from '../../src/platform/projections/fingerprint';
import type { RunningSimulator } from '../../src/sync/simulator';
import { applySupplierChange } from '../../src/sync/simulator/mutations';
import { eventually } from './eventually';
import type { TestDatabase } from './db';
import { startTestService, type TestService } from './service';

export const FIXTURE_DIR = path.resolve(__dirname, '../fixtures/replay');
export const EVENTS_FILE = path.join(FIXTURE_DIR, 'events.jsonl.gz');
export const TABLES_FILE = path.join(FIXTURE_DIR, 'read-models.json');

/** The read-model tables of every projection. */
export const readModelTables = (): string[] => allProjections().flatMap((p) => p.tables);

/** One event of the log as the fixture keeps it: `tx` numbers the transactions in log order. */
interface FixtureEvent {
  tx: number;
  id: string;
  stream: string;
  revision: string;
  type: string;
  version: number;
  data: unknown;
  metadata: unknown;
  at: string;
}

/** The log in order, its transactions numbered from 1. */
export async function dumpEventLog(pool: pg.Pool): Promise<FixtureEvent[]> {
  const r = await pool.query<FixtureEvent>(
    `SELECT dense_rank() OVER (ORDER BY tx_id)::int AS tx, event_id AS id, stream_id AS stream, revision::text AS revision, type, version, data, metadata,
            to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at
       FROM es_events ORDER BY tx_id, seq`,
  );
  return r.rows;
}

export function writeEventsFile(events: readonly FixtureEvent[]): void {
  writeFileSync(EVENTS_FILE, gzipSync(events.map((e) => JSON.stringify(e)).join('\n') + '\n', { level: 9 }));
}

export function readEventsFile(): FixtureEvent[] {
  return gunzipSync(readFileSync(EVENTS_FILE))
    .toString('utf8')
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as FixtureEvent);
}

/**
 * Writes the events into an empty log, in their order, each transaction's events with one stamp
 * (1, 2, … : below anything a cluster stamps now, or the epoch is raised above them as for a log
 * restored from another cluster), and the streams at their last revisions.
 */
export async function loadEventLog(pool: pg.Pool, events: readonly FixtureEvent[]): Promise<void> {
  const c = await pool.connect();
  try {
    await c.query('BEGIN');
    const n = await c.query<{ n: string }>(`SELECT count(*) AS n FROM es_events`);
    if (n.rows[0]!.n !== '0') throw new Error('loadEventLog: the log is not empty');
    for (let i = 0; i < events.length; i += 2000) {
      await c.query(
        `INSERT INTO es_events (tx_id, event_id, stream_id, revision, type, version, data, metadata, recorded_at)
         SELECT e.tx, e.id, e.stream, e.revision::bigint, e.type, e.version, e.data, e.metadata, e.at::timestamptz
           FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS a(j, o),
                jsonb_to_record(a.j) AS e(tx bigint, id uuid, stream text, revision text, type text, version int, data jsonb, metadata jsonb, at text)
          ORDER BY a.o`,
        [JSON.stringify(events.slice(i, i + 2000))],
      );
    }
    await c.query(`INSERT INTO es_streams (stream_id, revision) SELECT stream_id, max(revision) FROM es_events GROUP BY stream_id`);
    await c.query(`SELECT es_check_epoch()`);
    await c.query('COMMIT');
  } catch (e) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    c.release();
  }
}

/** The read models as the fixture keeps them: per table its row count, digest and row digests. */
export interface ReadModelDump {
  events: number;
  tables: Record<string, { rows: number; digest: string; rowDigests: string[] }>;
}

export async function dumpReadModels(pool: pg.Pool): Promise<ReadModelDump> {
  const tables: ReadModelDump['tables'] = {};
  const names = readModelTables();
  const digests = await tableDigests(pool, names);
  for (const t of names) {
    const d = digests.get(t);
    if (!d) throw new Error(`dumpReadModels: no table ${t}`);
    tables[t] = { ...d, rowDigests: (await tableRows(pool, t)).map((r) => r.digest) };
  }
  const events = await pool.query<{ n: string }>(`SELECT count(*) AS n FROM es_events`);
  return { events: Number(events.rows[0]!.n), tables };
}

export function writeTablesFile(dump: ReadModelDump): void {
  writeFileSync(TABLES_FILE, JSON.stringify(dump, null, 1) + '\n');
}

export function readTablesFile(): ReadModelDump {
  return JSON.parse(readFileSync(TABLES_FILE, 'utf8')) as ReadModelDump;
}

/**
 * Where `pool`'s read models differ from `expected`: per differing table, its counts and up to three
 * rows of each side that the other lacks (rows of this database as text, the expected side's as
 * digests: the fixture keeps no row text).
 */
export async function readModelDifferences(pool: pg.Pool, expected: ReadModelDump): Promise<string[]> {
  const out: string[] = [];
  const names = [...new Set([...readModelTables(), ...Object.keys(expected.tables)])];
  const digests = await tableDigests(pool, names);
  for (const t of names) {
    const want = expected.tables[t];
    const got = digests.get(t);
    if (!want || !got) {
      out.push(`${t}: ${want ? 'no such table now' : 'not in the fixture'}`);
      continue;
    }
    if (want.digest === got.digest) continue;
    const rows = await tableRows(pool, t);
    const wanted = new Set(want.rowDigests);
    const have = new Set(rows.map((r) => r.digest));
    const extra = rows.filter((r) => !wanted.has(r.digest)).map((r) => r.row.slice(0, 300));
    const missing = want.rowDigests.filter((d) => !have.has(d));
    out.push(
      `${t}: ${got.rows} rows, expected ${want.rows}; ${missing.length} expected rows missing (${missing.slice(0, 3).join(', ')}); rows not expected: ${JSON.stringify(extra.slice(0, 3))}`,
    );
  }
  return out;
}

// ------------------------------------------------------------------------------ the replay

/** The service of the fixture: no scheduled synchronisation (nothing but the log may write). */
export const replayEnv = (upstream?: string): Record<string, string> => ({
  ...(upstream ? { UPSTREAM_URL: upstream } : {}),
  UPSTREAM_PAGE_SIZE: '25',
  DATABASE_POOL_SIZE: '5',
  CATEGORY_SYNC_CRON: 'off',
  GOODS_SYNC_CRON: 'off',
  DETAILS_SYNC_CRON: 'off',
});

/**
 * Replays the log of `db` with this code: the service starts, its projections apply the whole log
 * from its start (`afterLive` runs then), then every projection is rebuilt (shadow tables filled
 * from the start of the log, swapped in) and runs again, caught up.
 */
export async function replayFixture(db: TestDatabase, afterLive?: () => Promise<void>): Promise<void> {
  const svc = await startTestService({ db, login: false, env: replayEnv() });
  try {
    await caughtUp(svc);
    await afterLive?.();
    const names = allProjections().map((p) => p.name);
    const was = new Map((await svc.services.engine.status()).map((p) => [p.name, String(p.lastRebuildAt)]));
    for (const n of names) await svc.services.engine.requestRebuild(n);
    await eventually(
      async () => {
        const status = (await svc.services.engine.status()).filter((p) => names.includes(p.name));
        const bad = status.find((p) => p.lastError || p.rebuildError);
        if (bad) throw new Error(`projection ${bad.name}: ${JSON.stringify(bad.lastError ?? bad.rebuildError)}`);
        return status.every((p) => p.state === 'running' && String(p.lastRebuildAt) !== was.get(p.name));
      },
      180_000,
      50,
    );
    await caughtUp(svc);
  } finally {
    await svc.close();
  }
}

// ------------------------------------------------------------------------------ the catalogue

/** The simulator's pictures are announced here, whatever its port: the log does not name a port. */
export const FIXTURE_PICTURES = 'http://pictures.fixture.invalid/demo-pictures';

async function call(svc: TestService, method: string, p: string, body?: unknown): Promise<any> {
  const r = await svc.request(method, p, body);
  if (r.status >= 300) throw new Error(`${method} ${p} → ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

async function syncAll(svc: TestService, paths: readonly string[]): Promise<void> {
  for (const p of paths) {
    const started = await call(svc, 'POST', p, {});
    const run = await eventually(async () => {
      const r = await call(svc, 'GET', `/sync/runs/${started.runId}`);
      return r.state !== 'running' ? r : null;
    }, 120_000);
    if (run.state !== 'succeeded') throw new Error(`${p}: ${JSON.stringify(run)}`);
  }
}

async function caughtUp(svc: Pick<TestService, 'services'>): Promise<void> {
  await eventually(
    async () => {
      const status = await svc.services.engine.status();
      const bad = status.find((p) => p.state === 'failed' || p.lastError);
      if (bad) throw new Error(`projection ${bad.name} failed: ${JSON.stringify(bad.lastError)}`);
      return status.every((p) => p.lagEvents === 0 && p.state === 'running');
    },
    120_000,
    25,
  );
}

const rows = async <T extends pg.QueryResultRow>(svc: TestService, sql: string, params: unknown[] = []) => (await svc.db.pool.query<T>(sql, params)).rows;

/**
 * A small catalogue with a history of every kind: synchronisation (and the supplier changing, going
 * and coming back), organisation, goods made one at a time and in a batch, custom goods and custom
 * members, families renamed, locked, made by hand, given and stripped of members, deleted, their
 * price overrides set and removed; goods edited, given secondary origins, deleted; link tags taken
 * over and restored; tag groups, tags, countries, categories and positions made, edited, sorted and
 * deleted.
 */
export async function writeFixtureHistory(svc: TestService, sim: RunningSimulator): Promise<void> {
  await syncAll(svc, ['/sync/categories', '/sync/origin-goods', '/sync/details']);
  await call(svc, 'POST', '/product-families/organize');
  await caughtUp(svc);

  // Reference data of the shop's own.
  const style = await call(svc, 'POST', '/tag-groups', { name: '风格' });
  const gone = await call(svc, 'POST', '/tag-groups', { name: '临时' });
  await call(svc, 'DELETE', `/tag-groups/${gone.id}`);
  const own: string[] = [];
  for (const name of ['复古', '简约', '街头', '可删']) own.push((await call(svc, 'POST', '/tags', { name, groupId: style.id })).id);
  await call(svc, 'PATCH', `/tags/${own[0]}`, { name: '复古风', color: '#aa3300' });
  await call(svc, 'DELETE', `/tags/${own[3]}`);
  await caughtUp(svc);
  const allTags = await rows<{ id: string }>(svc, `SELECT id::text FROM tags WHERE NOT deleted ORDER BY sort_order, id`);
  await call(svc, 'PATCH', '/tags/sort', { ids: allTags.map((t) => t.id).reverse() });
  const countries = (await call(svc, 'GET', '/countries')).items as { id: string }[];
  const mine = await call(svc, 'POST', '/countries', { name: '试验国', code: 'ZZ' });
  if (countries[0]) await call(svc, 'PATCH', `/countries/${countries[0].id}`, { name: '改名国', sortOrder: 4 });
  await call(svc, 'PATCH', '/countries/sort', { ids: [mine.id, ...countries.map((c) => c.id)].reverse() });
  const goneCountry = await call(svc, 'POST', '/countries', { name: '临时国', code: 'GN' });
  await call(svc, 'DELETE', `/countries/${goneCountry.id}`);
  const top = await call(svc, 'POST', '/categories', { name: '自有类目', icon: 'https://img.example.com/top.png' });
  const child = await call(svc, 'POST', '/categories', { name: '子类目', parentId: top.id });
  const supplierRoot = ((await call(svc, 'GET', '/categories?parentId=root')).items as { id: string }[])[0]!;
  await call(svc, 'PATCH', `/categories/${child.id}`, { parentId: supplierRoot.id, icon: 'https://img.example.com/own.png' });
  const leaf = await call(svc, 'POST', '/categories', { name: '临时类目', parentId: top.id });
  await call(svc, 'DELETE', `/categories/${leaf.id}`);

  // Goods: one at a time for a few organised links, then a batch for most of the rest.
  const organised = await rows<{ id: string; category_id: string; family_id: string; parsed_country: string | null }>(
    svc,
    `SELECT id::text, category_id::text, family_id::text, parsed_country FROM origin_goods WHERE family_id IS NOT NULL ORDER BY id`,
  );
  const allCountries = await rows<{ id: string; name: string }>(svc, `SELECT id::text, name FROM countries`);
  const goodOf = new Map<string, string>();
  for (const link of organised.slice(0, 6)) {
    const country = allCountries.find((c) => c.name === link.parsed_country);
    const good = await call(svc, 'POST', '/goods', { originGoodId: link.id, categoryId: link.category_id, countryId: country?.id ?? null, tagIds: [own[1]] });
    goodOf.set(link.id, good.id);
  }
  const lastFamily = organised[organised.length - 1]!.family_id;
  const batch = organised.slice(6).filter((l) => l.family_id !== lastFamily);
  await call(svc, 'POST', '/goods/batch', { originGoodIds: batch.map((l) => l.id) });
  await caughtUp(svc);
  for (const g of await rows<{ id: string; origin: string }>(svc, `SELECT id::text, origin_good_id::text AS origin FROM goods WHERE origin_good_id IS NOT NULL`)) {
    goodOf.set(g.origin, g.id);
  }

  // Families: rename, lock and unlock, overrides, custom members, a family by hand, moves, a delete.
  const families = await rows<{ id: string; links: string[] }>(
    svc,
    `SELECT family_id::text AS id, array_agg(id::text ORDER BY id) AS links FROM origin_goods WHERE family_id IS NOT NULL GROUP BY family_id ORDER BY family_id`,
  );
  const [f1, f2, f3] = families;
  if (!f1 || !f2 || !f3) throw new Error('the fixture catalogue needs at least three families');
  await call(svc, 'PATCH', `/product-families/${f1.id}`, { name: '改名的系列' });
  await call(svc, 'PATCH', `/product-families/${f2.id}`, { locked: true });
  await call(svc, 'PATCH', `/product-families/${f2.id}`, { locked: false });
  await call(svc, 'PATCH', `/product-families/${f3.id}`, { locked: true });
  for (const f of [f1, f2]) {
    const cells = (await call(svc, 'GET', `/product-families/${f.id}`)).priceMatrix.cells as {
      size: string;
      color: string;
      printCount: string;
      craft: string;
      logistics: string;
    }[];
    for (const [i, cell] of cells.slice(0, 3).entries()) {
      const key = { size: cell.size, color: cell.color, printCount: cell.printCount, craft: cell.craft, logistics: cell.logistics };
      await call(svc, 'PUT', `/product-families/${f.id}/price-overrides`, { ...key, price: `${19 + i}.90` });
      if (i === 1) await call(svc, 'DELETE', `/product-families/${f.id}/price-overrides`, key);
    }
  }
  const custom: string[] = [];
  for (const name of ['自制商品甲', '自制商品乙', '自制商品丙']) custom.push((await call(svc, 'POST', '/goods', { name })).id);
  const cell = ((await call(svc, 'GET', `/product-families/${f1.id}`)).priceMatrix.cells as any[])[0];
  const tags = cell
    ? { size: [cell.size], color: [cell.color], printCount: [cell.printCount], craft: [cell.craft], logistics: [cell.logistics] }
    : { size: ['M'], color: ['黑色'], printCount: ['单面印花'], craft: ['直喷'], logistics: ['包邮'] };
  await call(svc, 'POST', `/product-families/${f1.id}/custom-members`, { goodId: custom[0], tags, price: '25.00' });
  await call(svc, 'POST', `/product-families/${f1.id}/custom-members`, { goodId: custom[1], tags, price: '26.00' });
  await call(svc, 'DELETE', `/product-families/${f1.id}/custom-members/${custom[1]}`);
  const byHand = await call(svc, 'POST', '/product-families', { name: '手工系列' });
  const moved = f1.links[f1.links.length - 1]!;
  await call(svc, 'POST', `/product-families/${byHand.id}/members`, { originGoodId: moved });
  if (f2.links.length > 1) await call(svc, 'DELETE', `/product-families/${f2.id}/members/${f2.links[f2.links.length - 1]}`);
  const doomed = await call(svc, 'POST', '/product-families', { name: '将删除的系列' });
  await call(svc, 'DELETE', `/product-families/${doomed.id}`);

  // Goods edited, given secondary origins, deleted.
  const goods = [...goodOf.values()];
  await call(svc, 'PATCH', `/goods/${goods[0]}`, { goodPriority: 5, tagIds: [own[0], own[2]] });
  await call(svc, 'PATCH', `/goods/${goods[1]}`, { name: '改名商品', countryId: mine.id });
  const secondaries = organised.slice(-3).map((l) => l.id);
  await call(svc, 'PUT', `/goods/${goods[2]}/origins`, { secondaryOriginGoodIds: secondaries });
  await call(svc, 'DELETE', `/goods/${goods[3]}`);
  await call(svc, 'DELETE', `/goods/${custom[2]}`);

  // Link tags taken over by hand, and one given back to the derived tags.
  const dimensionTags = await rows<{ id: string; dimension: string }>(
    svc,
    `SELECT t.id::text, g.dimension FROM tags t JOIN tag_groups g ON g.id = t.group_id WHERE NOT t.deleted AND g.dimension IS NOT NULL ORDER BY t.id`,
  );
  const pick = ['craft', 'printCount', 'logistics'].flatMap((d) =>
    dimensionTags
      .filter((t) => t.dimension === d)
      .slice(0, 1)
      .map((t) => t.id),
  );
  const [l1, l2] = organised.slice(1, 3);
  if (pick.length && l1 && l2) {
    await call(svc, 'PUT', `/origin-goods/${l1.id}/tags`, { tagIds: pick });
    await call(svc, 'PUT', `/origin-goods/${l2.id}/tags`, { tagIds: pick });
    await call(svc, 'POST', `/origin-goods/${l2.id}/tags/restore-auto`);
  }

  // Positions.
  const home = await call(svc, 'POST', '/positions', { name: '首页推荐', goodIds: goods.slice(4, 7) });
  await call(svc, 'PATCH', `/positions/${home.id}`, { goodIds: [goods[6], goods[4], custom[0]], sortOrder: 2 });
  const temp = await call(svc, 'POST', '/positions', { name: '临时位置', goodIds: [goods[5]] });
  await call(svc, 'DELETE', `/positions/${temp.id}`);
  await caughtUp(svc);

  // The supplier changes: prices, a name, a variant's price, a colour gone, links gone, off sale, a new one.
  const links = sim.catalog.links();
  const at = (i: number) => links[i % links.length]!.id;
  applySupplierChange(sim.catalog, { kind: 'price', linkId: at(1), price: '88.00' });
  applySupplierChange(sim.catalog, { kind: 'rename', linkId: at(2), name: `${links[2 % links.length]!.name} 新版` });
  const detail = sim.catalog.detail(at(3));
  const variant = detail?.variants[0];
  if (variant) applySupplierChange(sim.catalog, { kind: 'detail', linkId: at(3), change: { kind: 'variantPrice', size: variant.size, color: variant.color, price: '77.00' } });
  const colour = sim.catalog.detail(at(4))?.variants.at(-1)?.color;
  if (colour) applySupplierChange(sim.catalog, { kind: 'detail', linkId: at(4), change: { kind: 'dropColor', color: colour } });
  applySupplierChange(sim.catalog, { kind: 'delist', linkId: at(5), how: 'removed' });
  applySupplierChange(sim.catalog, { kind: 'delist', linkId: at(6), how: 'offSale' });
  applySupplierChange(sim.catalog, { kind: 'newLink', name: links[7]!.name.replace(/\S+$/, '新品'), categoryId: links[7]!.categoryId, price: '66.00', sameProductAs: at(7) });
  await syncAll(svc, ['/sync/origin-goods', '/sync/details']);
  await call(svc, 'POST', '/product-families/organize');
  await caughtUp(svc);
  applySupplierChange(sim.catalog, { kind: 'relist', linkId: at(5) });
  await syncAll(svc, ['/sync/origin-goods', '/sync/details']);
  await call(svc, 'POST', '/product-families/organize');
  await caughtUp(svc);
}
