/**
 * After a bulk step the service refreshes the planner's statistics of what the step rewrote
 * (src/platform/planner-statistics.ts), whatever the server's autovacuum does: a listing and a
 * details sync, an organisation, a goods batch and a rebuild (its replay and its swap) each leave
 * pg_stat_user_tables.last_analyze of the tables they rewrote newer than before (last_analyze counts
 * only an explicit ANALYZE or VACUUM ANALYZE, never autovacuum's), and a step that changed nothing
 * leaves it alone. The log's tables too: the bulk steps grew it, and a rebuild, which reads it from
 * the start, first refreshes statistics that no longer describe it. Autovacuum is off for the log's
 * tables here, as on a server where it is off.
 */
import { randomUUID } from 'node:crypto';
import { startSimulator, type RunningSimulator } from '../../../src/sync/simulator';
import { eventually } from '../../support/eventually';
import { startTestService, type TestService } from '../../support/service';

jest.setTimeout(180_000);

describe('planner statistics after bulk steps', () => {
  let sim: RunningSimulator;
  let svc: TestService;
  /** last_analyze (and last_vacuum) of the catalog's tables, as the server records them. */
  const analysed = async () => {
    const r = await svc.db.pool.query<{ relname: string; last_analyze: Date | null; last_vacuum: Date | null }>(
      `SELECT relname, last_analyze, last_vacuum FROM pg_stat_user_tables
        WHERE schemaname = 'public' AND relname IN ('origin_goods', 'families', 'goods', 'family_stamps')`,
    );
    return new Map(r.rows.map((x) => [x.relname, x]));
  };
  const time = (d: Date | null | undefined) => d?.getTime() ?? 0;
  /** When the log's events table was last analysed by an explicit ANALYZE, and how many rows changed since. */
  const log = async () =>
    (
      await svc.db.pool.query<{ last_analyze: Date | null; modified: string }>(
        `SELECT last_analyze, n_mod_since_analyze AS modified FROM pg_stat_user_tables WHERE schemaname = 'public' AND relname = 'es_events'`,
      )
    ).rows[0]!;
  const sync = async (path: string) => {
    const started = await svc.request('POST', path);
    expect(started.status).toBe(202);
    return eventually(async () => {
      const r = await svc.request('GET', `/sync/runs/${started.body.runId}`);
      return r.body.state !== 'running' ? r.body : null;
    }, 60_000);
  };
  /** Runs a step and returns what the server then says of the tables, with what it said before. */
  const around = async (step: () => Promise<unknown>) => {
    const before = await analysed();
    await step();
    return { before, after: await analysed() };
  };

  beforeAll(async () => {
    sim = await startSimulator({ links: 400, seed: 5 });
    // Small batches: a rebuild's replay of this catalogue's few thousand events takes many steps, so
    // its refreshes of the shadow tables between steps can be seen.
    svc = await startTestService({ env: { UPSTREAM_URL: sim.url, PROJECTION_BATCH_SIZE: '100' } });
    await svc.db.pool.query(`ALTER TABLE es_events SET (autovacuum_enabled = false); ALTER TABLE es_streams SET (autovacuum_enabled = false)`);
    await sync('/sync/categories');
  });
  afterAll(async () => {
    await svc?.close();
    await sim?.close();
  });

  it('a listing sync, a details sync, an organisation and a goods batch each analyse what they rewrote', async () => {
    const logBefore = await log();
    const listing = await around(() => sync('/sync/origin-goods'));
    expect(time(listing.after.get('origin_goods')?.last_analyze)).toBeGreaterThan(time(listing.before.get('origin_goods')?.last_analyze));
    // The sync appended every link's events: the log is analysed as well.
    expect(time((await log()).last_analyze)).toBeGreaterThan(time(logBefore.last_analyze));

    const details = await around(() => sync('/sync/details'));
    expect(time(details.after.get('origin_goods')?.last_analyze)).toBeGreaterThan(time(details.before.get('origin_goods')?.last_analyze));

    const organise = await around(async () => expect((await svc.request('POST', '/product-families/organize')).status).toBe(200));
    for (const t of ['origin_goods', 'families']) expect([t, time(organise.after.get(t)?.last_analyze) > time(organise.before.get(t)?.last_analyze)]).toEqual([t, true]);
    // The organisation updated every link row several times: dead versions outnumber live ones, so it vacuumed too.
    expect(time(organise.after.get('origin_goods')?.last_vacuum)).toBeGreaterThan(time(organise.before.get('origin_goods')?.last_vacuum));

    const links = (await svc.db.pool.query<{ id: string }>(`SELECT id::text AS id FROM origin_goods WHERE family_id IS NOT NULL ORDER BY id`)).rows.map((r) => r.id);
    expect(links.length).toBeGreaterThan(100);
    const batch = await around(async () => expect((await svc.request('POST', '/goods/batch', { originGoodIds: links })).status).toBe(201));
    expect(time(batch.after.get('goods')?.last_analyze)).toBeGreaterThan(time(batch.before.get('goods')?.last_analyze));

    // Nothing to do, nothing rewritten: no statistics refreshed. (The first run with nothing to do may
    // still analyse what the server counted of the batch's writes only after the batch had answered.)
    const organiseAgain = async () => expect((await svc.request('POST', '/product-families/organize')).status).toBe(200);
    await organiseAgain();
    const again = await around(organiseAgain);
    expect(time(again.after.get('origin_goods')?.last_analyze)).toBe(time(again.before.get('origin_goods')?.last_analyze));
  });

  it("a rebuild analyses a log that grew since its statistics, its shadow tables as the replay fills them, then analyses and vacuums the tables it swapped in, keeping their columns' statistics targets", async () => {
    // The log grows by appends no bulk step follows (as by many small writes over time): by more rows
    // than its statistics, taken by the steps above a moment ago, describe (past autovacuum's
    // threshold, and past the rule that leaves a table analysed within the naptime alone).
    const described = Math.max(0, (await svc.db.pool.query<{ n: number }>(`SELECT reltuples::int AS n FROM pg_class WHERE oid = 'es_events'::regclass`)).rows[0]!.n);
    const at0 = new Date().toISOString();
    const notes = Array.from({ length: described + 500 }, () => ({
      id: randomUUID(),
      type: 'NoteWritten',
      version: 1,
      data: {},
      metadata: { by: 'test', why: 'GrowTheLog', correlationId: randomUUID(), at: at0 },
    }));
    await svc.services.store.appendToStream(`note-${randomUUID()}`, notes);
    const grown = await eventually(async () => {
      const l = await log();
      return Number(l.modified) >= notes.length ? l : null;
    }, 20_000);
    const before = await analysed();
    const at = (await svc.request('GET', '/projections')).body.items.find((p: { name: string }) => p.name === 'catalog').lastRebuildAt;
    expect((await svc.request('POST', '/projections/catalog/rebuild')).status).toBe(202);
    await eventually(
      async () => {
        const p = (await svc.request('GET', '/projections')).body.items.find((x: { name: string }) => x.name === 'catalog');
        return p.state === 'running' && p.lastRebuildAt !== at;
      },
      120_000,
      100,
    );
    const after = await eventually(
      async () => {
        const a = await analysed();
        return ['origin_goods', 'families', 'goods'].every(
          (t) => time(a.get(t)?.last_analyze) > time(before.get(t)?.last_analyze) && time(a.get(t)?.last_vacuum) > time(before.get(t)?.last_vacuum),
        )
          ? a
          : null;
      },
      20_000,
      100,
    );
    expect(after!.size).toBe(4);
    expect(time((await log()).last_analyze)).toBeGreaterThan(time(grown!.last_analyze));
    // The swapped-in tables are the shadow tables themselves, their counters with them: analysed
    // during the replay as well as after the swap.
    const counts = await svc.db.pool.query<{ relname: string; analyze_count: string }>(
      `SELECT relname, analyze_count FROM pg_stat_user_tables WHERE schemaname = 'public' AND relname IN ('origin_goods', 'families')`,
    );
    for (const c of counts.rows) expect([c.relname, Number(c.analyze_count) >= 2]).toEqual([c.relname, true]);
    // The large JSON columns keep the statistics target 0 (migration 033), which LIKE does not copy.
    const targets = await svc.db.pool.query<{ col: string; target: number }>(
      `SELECT c.relname || '.' || a.attname AS col, a.attstattarget::int AS target FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
        WHERE c.relnamespace = 'public'::regnamespace AND (c.relname, a.attname) IN (('families', 'price_matrix'), ('families', 'variants'), ('origin_goods', 'detail'))
        ORDER BY 1`,
    );
    expect(targets.rows).toEqual([
      { col: 'families.price_matrix', target: 0 },
      { col: 'families.variants', target: 0 },
      { col: 'origin_goods.detail', target: 0 },
    ]);
    // So do the bigram index expressions (migration 044), whose indexes LIKE makes afresh.
    const indexTargets = await svc.db.pool.query<{ table: string; target: number }>(
      `SELECT t.relname AS table, a.attstattarget::int AS target FROM pg_index x JOIN pg_class t ON t.oid = x.indrelid
         JOIN pg_attribute a ON a.attrelid = x.indexrelid AND a.attnum = 1
        WHERE t.relnamespace = 'public'::regnamespace AND pg_get_indexdef(x.indexrelid) LIKE '%search_bigrams(%'
        ORDER BY 1`,
    );
    expect(indexTargets.rows).toEqual([
      { table: 'families', target: 0 },
      { table: 'goods', target: 0 },
      { table: 'origin_goods', target: 0 },
      { table: 'origin_goods', target: 0 },
    ]);
  });
});
