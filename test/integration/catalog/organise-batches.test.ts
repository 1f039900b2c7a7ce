/**
 * Organisation plans over the read models and appends in multi-stream batches, each stream at the
 * revision it planned against. The batch sizes must not change what it decides, and a link that moved
 * after it was read (an administrator took its tags over) must be read again and planned again,
 * never overwritten.
 */
import { Organiser, type OrganiseReport } from '../../../src/catalog/organisation/organise';
import { ORGANISE_LOCK } from '../../../src/catalog/organisation/runs';
import { linkStreamId } from '../../../src/catalog/links/events';
import { eventMetadata } from '../../../src/platform/events/registry';
import { startSimulator, type RunningSimulator } from '../../../src/sync/simulator';
import { eventually } from '../../support/eventually';
import { expectNoFailedProjections, startTestService, type TestService } from '../../support/service';

// Two catalogues synchronised and organised, one of them a stream per append: minutes on a busy machine.
jest.setTimeout(240_000);

async function syncAll(svc: TestService): Promise<void> {
  for (const kind of ['categories', 'origin_goods', 'details'] as const) {
    const run = await svc.services.sync.start(kind, { by: 'system:test' });
    expect((await run.finished).state).toBe('succeeded');
  }
}

/** What organisation decided, without the ids it allocated: links by family key, parsed columns and tags. */
async function decided(svc: TestService) {
  const families = await svc.db.pool.query<{ key: string | null; name: string; members: string[] }>(
    `SELECT f.family_name_key AS key, f.name, array_agg(og.id::text ORDER BY og.id) AS members
       FROM families f JOIN origin_goods og ON og.family_id = f.id GROUP BY f.id ORDER BY 1, 3`,
  );
  const links = await svc.db.pool.query(
    `SELECT id, parsed_country, parsed_logistics, parsed_product_name, parsed_sku, family_name_key, tags, tags_manual, tags_missing
       FROM origin_goods ORDER BY id`,
  );
  return { families: families.rows, links: links.rows };
}

const withoutIds = (r: OrganiseReport) => ({ ...r, lockedSkipped: r.lockedSkipped.map((x) => x.id), review: r.review.map((x) => x.reason) });

describe('organisation in batches', () => {
  let sim: RunningSimulator;
  const services: TestService[] = [];
  beforeAll(async () => {
    sim = await startSimulator({ links: 240, seed: 5 });
  });
  afterAll(async () => {
    for (const s of services) await s.close();
    await sim.close();
  });
  const start = async (env: Record<string, string> = {}) => {
    const svc = await startTestService({ env: { UPSTREAM_URL: sim.url, ...env } });
    services.push(svc);
    return svc;
  };

  it('decides the same families, parsed columns and tags whatever the read and append batch sizes', async () => {
    const big = await start();
    const small = await start();
    await syncAll(big);
    await syncAll(small);
    const bigReport = await new Organiser(big.services).organise('system:test');
    // A stream per append and a few links per read: as one link at a time would.
    const smallReport = await new Organiser(small.services, { read: 7, append: 1 }).organise('system:test');
    expect(bigReport.created).toBeGreaterThan(10);
    expect(withoutIds(smallReport)).toEqual(withoutIds(bigReport));
    expect(await decided(small)).toEqual(await decided(big));
    // Both organised everything: a second run appends nothing.
    const count = async (svc: TestService) => Number((await svc.db.pool.query(`SELECT count(*) AS n FROM es_events`)).rows[0].n);
    const before = await count(big);
    const again = await new Organiser(big.services).organise('system:test');
    expect(again).toMatchObject({ parsed: 0, derived: 0, created: 0, attached: 0 });
    expect(await count(big)).toBe(before);
    await expectNoFailedProjections(big);
    await expectNoFailedProjections(small);
  });

  it('a run whose lock connection is lost stops before its next append; the lock does not leak, so the next run goes through', async () => {
    const svc = await start();
    await syncAll(svc);
    const organiser = new Organiser(svc.services, { read: 10, append: 1 });
    const running = organiser.organise('system:test');
    running.catch(() => undefined);
    await eventually(() => organiser.progress.phase === 'parse' && organiser.progress.done >= 10, 30_000, 5);
    // An operator (or a network fault) ends the session holding the organisation lock (not one a
    // chunk holds on the countries and tags it names meanwhile).
    const holder = await svc.db.pool.query<{ pid: number }>(
      `SELECT l.pid FROM pg_locks l WHERE l.locktype = 'advisory' AND l.classid = 72002 AND l.objid = hashtext($1)::oid AND l.objsubid = 2 AND l.granted
          AND l.pid <> pg_backend_pid() AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      [ORGANISE_LOCK],
    );
    expect(holder.rows).toHaveLength(1);
    await svc.db.pool.query(`SELECT pg_terminate_backend($1)`, [holder.rows[0]!.pid]);
    await expect(running).rejects.toMatchObject({ code: 'LOCK.LOST', status: 503 });
    expect(organiser.progress.state).toBe('failed');
    const parsedThen = Number((await svc.db.pool.query(`SELECT count(*) AS n FROM es_events WHERE type = 'LinkOrganised'`)).rows[0].n);
    expect(parsedThen).toBeLessThan(240);

    // Nothing of the lock is left in the pool: the next run takes it and organises the rest.
    const report = await new Organiser(svc.services).organise('system:test');
    expect(report.parsed).toBeGreaterThan(0);
    expect(report.created).toBeGreaterThan(0);
    await expectNoFailedProjections(svc);
  });

  it('a family locked after the read models were read is left alone: its would-be member is reported, not attached', async () => {
    const svc = await start();
    await syncAll(svc);
    await new Organiser(svc.services).organise('system:test');
    // A link leaves its family: the next organisation would attach it again.
    const { rows } = await svc.db.pool.query<{ id: string; family_id: string }>(
      `SELECT id, family_id FROM origin_goods WHERE family_id IN (SELECT family_id FROM origin_goods WHERE family_id IS NOT NULL GROUP BY 1 HAVING count(*) > 1) ORDER BY id LIMIT 1`,
    );
    const { id: linkId, family_id: familyId } = rows[0]!;
    expect((await svc.request('DELETE', `/product-families/${familyId}/members/${linkId}`)).status).toBe(200);
    const before = (await svc.db.pool.query(`SELECT revision, locked FROM families WHERE id = $1`, [familyId])).rows[0];
    // An administrator locks the family; the read model is still the one organisation would have read.
    expect((await svc.request('PATCH', `/product-families/${familyId}`, { locked: true })).status).toBe(200);
    await svc.db.pool.query(`UPDATE families SET revision = $2, locked = $3 WHERE id = $1`, [familyId, before.revision, before.locked]);

    const report = await new Organiser(svc.services).organise('system:test');
    expect(report.lockedSkipped).toContainEqual({ id: linkId, familyId });
    expect(report.attached).toBe(0);
    const types = (await svc.services.store.readStream(`family-${familyId}`)).map((e) => e.type);
    expect(types.at(-1)).toBe('FamilyLocked');
    expect((await svc.services.store.readStream(linkStreamId(linkId))).map((e) => e.type).at(-1)).toBe('LinkLeftFamily');
    await expectNoFailedProjections(svc);
  });

  it('a link taken over after the read models were read is read again: its manual tags stay, it still joins its family', async () => {
    const svc = await start();
    await syncAll(svc);
    const linkId = (await svc.db.pool.query<{ id: string }>(`SELECT id FROM origin_goods WHERE name LIKE '%（%）%' ORDER BY id LIMIT 1`)).rows[0]!.id;
    const stream = linkStreamId(linkId);
    const before = (await svc.db.pool.query(`SELECT revision, tags, tags_manual FROM origin_goods WHERE id = $1`, [linkId])).rows[0];
    const manual = { size: ['XXS'], color: ['金色'], printCount: ['双面印花'], craft: ['热转印'], logistics: ['海运'] };
    await svc.services.store.appendToStream(
      stream,
      [svc.services.registry.encode('LinkTagsTakenOver', { linkId, tags: manual, filled: [] }, eventMetadata('user:admin', 'UpdateLinkTags'))],
      { expectedRevision: BigInt(before.revision) },
    );
    await eventually(async () => (await svc.db.pool.query(`SELECT tags_manual FROM origin_goods WHERE id = $1`, [linkId])).rows[0].tags_manual === true, 20_000);
    // The read model as organisation would have read it just before the takeover: one revision behind.
    await svc.db.pool.query(`UPDATE origin_goods SET revision = $2, tags = $3, tags_manual = $4 WHERE id = $1`, [linkId, before.revision, before.tags, before.tags_manual]);
    const report = await new Organiser(svc.services, { read: 50, append: 20 }).organise('system:test');
    expect(report.created).toBeGreaterThan(0);
    const events = await svc.services.store.readStream(stream);
    const takeover = events.findIndex((e) => e.type === 'LinkTagsTakenOver');
    // Planned again on the stream: no derived tags over the manual ones, parsed, and in a family, in
    // the run's one event for the link.
    const after = events.slice(takeover + 1);
    expect(after.map((e) => e.type)).toEqual(['LinkOrganised']);
    expect(Object.keys(after[0]!.data as object).sort()).toEqual(['familyId', 'linkId', 'parsed']);
    await expectNoFailedProjections(svc);
  });
});
