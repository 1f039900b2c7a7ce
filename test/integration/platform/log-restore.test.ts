/**
 * The event log survives a move to another cluster. A database restored into a fresh cluster keeps
 * its events stamped with the old cluster's transaction ids, while the new cluster's ids start low:
 * without a rebase, every new event would be stamped below the projections' checkpoints and never
 * read. The database of a running service is dumped table by table (its rows as they are, stamps and
 * sequences included) and restored into a fresh PostgreSQL cluster; a service started on it must
 * project a change and show it publicly, and a full rebuild there must give the same rows.
 */
import pg from 'pg';
import { migrate } from '../../../src/platform/migrate';
import { createPool } from '../../../src/platform/db';
import { eventually } from '../../support/eventually';
import { startSecondCluster, type Cluster } from '../../support/second-cluster';
import { startTestService, type TestService } from '../../support/service';
import { populatedCatalog, type Catalog } from '../storefront/catalog-fixture';

const CATALOG_TABLES = ['families', 'origin_goods', 'goods', 'family_overrides', 'family_custom_members', 'good_origin_goods', 'family_stamps'];

/** Every row of every table of `from`, written into the same (migrated, emptied) tables of `to`. */
async function dumpAndRestore(from: string, to: string): Promise<void> {
  const source = new pg.Client({ connectionString: from });
  const target = new pg.Client({ connectionString: to });
  await source.connect();
  await target.connect();
  try {
    const tables = (
      await source.query<{ name: string }>(`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`)
    ).rows.map((r) => r.name);
    await target.query('BEGIN');
    // As pg_dump --disable-triggers restores: foreign keys are not checked row by row, in any table order.
    await target.query(`SET LOCAL session_replication_role = replica`);
    await target.query(`TRUNCATE ${tables.map((t) => `"${t}"`).join(', ')}`);
    for (const t of tables) {
      const rows = await source.query<{ rows: string }>(`SELECT coalesce(json_agg(x), '[]')::text AS rows FROM "${t}" x`);
      // As pg_dump writes them: generated columns left out, for the database to compute again.
      const columns = (
        await source.query<{ name: string }>(
          `SELECT column_name AS name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1 AND is_generated = 'NEVER' ORDER BY ordinal_position`,
          [t],
        )
      ).rows.map((c) => `"${c.name}"`);
      await target.query(`INSERT INTO "${t}" (${columns.join(', ')}) OVERRIDING SYSTEM VALUE SELECT ${columns.join(', ')} FROM json_populate_recordset(NULL::"${t}", $1::json)`, [
        rows.rows[0]!.rows,
      ]);
    }
    await target.query(`SELECT setval(pg_get_serial_sequence('es_events', 'seq'), (SELECT max(seq) FROM es_events))`);
    await target.query('COMMIT');
  } finally {
    await source.end();
    await target.end();
  }
}

async function snapshot(pool: pg.Pool): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const t of CATALOG_TABLES) {
    const r = await pool.query<{ h: string | null; n: string }>(`SELECT md5(string_agg(x::text, '|' ORDER BY x::text)) AS h, count(*) AS n FROM ${t} x`);
    out[t] = `${r.rows[0]!.n}:${r.rows[0]!.h ?? '-'}`;
  }
  return out;
}

describe('the event log restored into another cluster', () => {
  let catalog: Catalog;
  let cluster: Cluster;
  let restored: TestService;

  beforeAll(async () => {
    catalog = await populatedCatalog({ links: 120, seed: 9 });
    cluster = await startSecondCluster();
  }, 120_000);
  afterAll(async () => {
    await restored?.close();
    await catalog?.close();
    await cluster?.stop();
  });

  it('a service on the restored database rebases the stamps, projects a change and shows it; a rebuild gives the same rows', async () => {
    const admin = new pg.Client({ connectionString: cluster.url('postgres') });
    await admin.connect();
    await admin.query('CREATE DATABASE restored');
    await admin.end();
    const url = cluster.url('restored');
    await migrate({ databaseUrl: url });
    await dumpAndRestore(catalog.svc.db.url, url);
    const pool = createPool(url, 4);
    const newest = BigInt((await pool.query<{ t: string }>(`SELECT max(tx_id) AS t FROM es_events`)).rows[0]!.t);
    const xidNow = BigInt((await pool.query<{ x: string }>(`SELECT pg_current_xact_id()::text AS x`)).rows[0]!.x);
    // The situation the rebase is for: the new cluster's transactions are below the stored stamps.
    expect(xidNow).toBeLessThan(newest);

    restored = await startTestService({ db: { url, name: 'restored', pool, drop: async () => undefined }, login: true });
    const before = await snapshot(pool);

    // A change made on the restored service: appended, projected, public.
    const { rows } = await pool.query<{ family: string; good: string }>(
      `SELECT f.id AS family, f.representative_good_id AS good FROM families f WHERE f.good_count > 0 ORDER BY f.id LIMIT 1`,
    );
    const r = await restored.request('PATCH', `/goods/${rows[0]!.good}`, { name: '迁移后改名 MOVE01' });
    expect(r.status).toBe(200);
    const stamp = BigInt((await pool.query<{ t: string }>(`SELECT max(tx_id) AS t FROM es_events`)).rows[0]!.t);
    expect(stamp).toBeGreaterThan(newest);
    const shown = (await (await fetch(`${restored.url}/public/goods/${rows[0]!.family}`)).json()) as { name: string };
    expect(shown.name).toContain('MOVE01');
    expect((await restored.services.engine.status()).every((p) => p.lagEvents === 0 && p.state === 'running')).toBe(true);

    // A full rebuild on the restored database reads the old and the new events in order.
    const changed = await snapshot(pool);
    expect(changed.goods).not.toBe(before.goods);
    const was = (await pool.query(`SELECT last_rebuild_at FROM projection_checkpoints WHERE name = 'catalog'`)).rows[0]?.last_rebuild_at;
    await restored.services.engine.requestRebuild('catalog');
    await eventually(async () => {
      const row = (await pool.query(`SELECT last_rebuild_at, state FROM projection_checkpoints WHERE name = 'catalog'`)).rows[0];
      return String(row.last_rebuild_at) !== String(was) && row.state === 'running';
    }, 60_000);
    expect(await snapshot(pool)).toEqual(changed);
    // What made it work: the stamps were rebased above the stored ones at start-up.
    expect(BigInt((await pool.query<{ o: string }>(`SELECT tx_offset AS o FROM es_log_epoch`)).rows[0]!.o)).toBeGreaterThan(0n);
  });
});
