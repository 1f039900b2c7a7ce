/**
 * A details sync, an organisation and administrators' member adds at once, over the same links.
 * Their appends list the same streams in different orders (organisation's join: the family, then its
 * links; a member add: the link, then the family; the sync: its links as their details arrived); each
 * append on postgres takes its streams in stream-id order (migration 034), so they wait for one
 * another and none deadlocks: no 503, no failed run, and the catalogue holds together (no link in a
 * family that is gone, each link in the family its stream says, every family's aggregates as its
 * members make them, a second organisation with nothing to do).
 */
import type { PoolClient } from 'pg';
import { staleFamilies } from '../../../src/catalog/families/recompute';
import { comparePositions } from '../../../src/platform/event-store/port';
import { startSimulator, type RunningSimulator } from '../../../src/sync/simulator';
import { adminApi } from '../../support/admin-api';
import { eventually } from '../../support/eventually';
import { expectNoFailedProjections, startTestService, type TestService } from '../../support/service';

jest.setTimeout(240_000);

describe('a details sync, an organisation and member adds at once', () => {
  let sim: RunningSimulator;
  let svc: TestService;
  const { api, ok, sync, familiesWith } = adminApi(() => svc);
  const settle = async () => svc.services.waitForProjections(await svc.services.store.headPosition(undefined, { committed: true }), ['link-0', 'family-0', 'good-0']);
  /** Appends PostgreSQL ended to break a deadlock and the store ran again. */
  const retried = async () => (await svc.services.metrics.appendRetries.get()).values.reduce((n, v) => n + v.value, 0);
  /** New prices for these links' variants: the next details sync appends to each. */
  let bump = 0;
  const repriceDetails = (linkIds: readonly string[]) => {
    bump++;
    for (const id of linkIds) sim.catalog.editDetail(id, (d) => ({ ...d, variants: d.variants.map((v) => ({ ...v, price: (Number(v.price) + bump / 100).toFixed(2) })) }));
  };

  async function expectTheCatalogueHolds(): Promise<void> {
    await settle();
    const pool = svc.db.pool;
    const dangling = await pool.query(`SELECT id FROM origin_goods WHERE family_id IS NOT NULL AND family_id NOT IN (SELECT id FROM families)`);
    expect(dangling.rows).toEqual([]);
    // Each link is in the family its own stream says (the read model's one family per link is the log's).
    const links = (await pool.query<{ id: string; family: string | null }>(`SELECT id::text, family_id::text AS family FROM origin_goods`)).rows;
    for (const { id, family } of links) {
      let own: string | null = null;
      for (const e of await svc.services.store.readStream(`link-${id}`)) {
        // An administrator's move, or an organisation run's join (LinkOrganised with a family).
        if (e.type === 'LinkJoinedFamily' || e.type === 'LinkOrganised') own = (e.data as { familyId?: string }).familyId ?? own;
        if (e.type === 'LinkLeftFamily') own = null;
      }
      expect([id, family]).toEqual([id, own]);
    }
    const families = (await pool.query<{ id: string }>(`SELECT id::text FROM families`)).rows.map((r) => r.id);
    expect(await staleFamilies(pool, families)).toEqual([]);
    // Organisation ran beside writes it did not see; once more sees them all, and then a second run has nothing to do.
    await ok('POST', '/product-families/organize');
    const before = await svc.services.store.headPosition(undefined, { committed: true });
    expect(await ok('POST', '/product-families/organize')).toMatchObject({ attached: 0, created: 0, merged: 0 });
    expect(comparePositions(await svc.services.store.headPosition(undefined, { committed: true }), before)).toBe(0);
  }

  beforeAll(async () => {
    sim = await startSimulator({ links: 200, seed: 21 });
    svc = await startTestService({ env: { UPSTREAM_URL: sim.url } });
    for (const p of ['/sync/categories', '/sync/origin-goods', '/sync/details']) expect((await sync(p)).state).toBe('succeeded');
    expect((await api('POST', '/product-families/organize')).status).toBe(200);
    // A log of a production's size, planned as such: appends find their streams through the index,
    // one after another, not by a scan of the whole table in the order its rows happen to lie.
    await svc.db.pool.query(`INSERT INTO es_streams (stream_id, revision) SELECT 'test-padding-' || g, 0 FROM generate_series(1, 100000) g`);
    await svc.db.pool.query(`ANALYZE es_streams`);
  });
  afterAll(async () => {
    await expectNoFailedProjections(svc);
    await svc.close();
    await sim.close();
  });

  it('each waiting on a link another holds: none deadlocks; the organisation, the sync and the add all succeed', async () => {
    const [family] = await familiesWith(4);
    const [, l1, l2] = family!.links;
    // Organisation will bring them back into their family: its join appends the family, then them.
    for (const l of [l1!, l2!]) await ok('DELETE', `/product-families/${family!.family_id}/members/${l}`);
    repriceDetails(family!.links);
    await settle();
    const retriesBefore = await retried();

    // A transaction holds the first link's row: organisation, which has taken whatever it takes first,
    // waits there; then the sync and an administrator's add of the second link come, and wait too.
    const blocker: PoolClient = await svc.db.pool.connect();
    let organised: Promise<{ status: number; body: any }>;
    let synced: Promise<any>;
    let added: Promise<{ status: number; body: any }>;
    try {
      await blocker.query('BEGIN');
      await blocker.query(`SELECT 1 FROM es_streams WHERE stream_id = $1 FOR UPDATE`, [`link-${l1}`]);
      const waiting = async () =>
        Number(
          (
            await svc.db.pool.query<{ n: string }>(
              `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%es_append%'`,
            )
          ).rows[0]!.n,
        );
      organised = api('POST', '/product-families/organize');
      await eventually(async () => (await waiting()) >= 1 || null, 60_000, 10);
      synced = sync('/sync/details');
      added = api('POST', `/product-families/${family!.family_id}/members`, { originGoodId: l2 });
      await eventually(async () => (await waiting()) >= 3 || null, 60_000, 10);
    } finally {
      await blocker.query('COMMIT').catch(() => undefined);
      blocker.release();
    }
    const [org, run, add] = await Promise.all([organised!, synced!, added!]);
    expect(org.status).toBe(200);
    expect(run.state).toBe('succeeded');
    expect(add.status).toBeLessThan(300);
    // No append had to be run again: none of them deadlocked.
    expect((await retried()) - retriesBefore).toBe(0);
    await settle();
    const members = (await svc.db.pool.query<{ id: string }>(`SELECT id::text FROM origin_goods WHERE family_id = $1`, [family!.family_id])).rows.map((r) => r.id);
    expect(members).toEqual(expect.arrayContaining([l1, l2]));
    await expectTheCatalogueHolds();
  });

  it('three rounds of all of them at once, the adds moving links between families: no 503, no failed run', async () => {
    const retriesBefore = await retried();
    for (let round = 0; round < 3; round++) {
      const [a, b] = await familiesWith(3);
      const moving = [...a!.links.slice(0, 2), ...b!.links.slice(0, 2)];
      // Two links leave their family (organisation brings them back), the others change family.
      for (const l of a!.links.slice(2, 3)) await ok('DELETE', `/product-families/${a!.family_id}/members/${l}`);
      repriceDetails([...a!.links, ...b!.links]);
      await settle();
      const answers = await Promise.all([
        api('POST', '/product-families/organize'),
        sync('/sync/details').then((run) => ({ status: run.state === 'succeeded' ? 200 : 500, body: run })),
        ...moving.map((l, i) => api('POST', `/product-families/${i < 2 ? b!.family_id : a!.family_id}/members`, { originGoodId: l })),
      ]);
      expect([round, answers.map((r) => (r.status < 300 ? 'ok' : `${r.status} ${JSON.stringify(r.body)}`))]).toEqual([round, answers.map(() => 'ok')]);
      await expectTheCatalogueHolds();
    }
    expect((await retried()) - retriesBefore).toBe(0);
  });
});
