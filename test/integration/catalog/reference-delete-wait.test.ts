/**
 * A delete keeps its reference lock until the read models show it (docs/api.md, Usage): writes
 * naming the id find it live or gone there, so one that got the lock while the deletion was still
 * on its way would name a deleted id. The projections are stopped before the delete, so its wait
 * for them outlasts COMMAND_WAIT_MS; a listing page naming the category meanwhile waits, and once
 * the projections run again finds it gone.
 */
import type { RunningSimulator } from '../../../src/sync/simulator';
import { referenceLock } from '../../../src/catalog/references';
import { sessionLockHeld } from '../../../src/platform/locks';
import { adminApi, startOrganisedCatalog } from '../../support/admin-api';
import { eventually } from '../../support/eventually';
import type { TestService } from '../../support/service';

jest.setTimeout(120_000);

const COMMAND_WAIT_MS = 400;

describe('a delete whose read models lag', () => {
  let sim: RunningSimulator;
  let svc: TestService;
  let close: () => Promise<void>;
  const { api, sync } = adminApi(() => svc);
  const query = async <T = any>(sql: string, params: unknown[] = []) => (await svc.db.pool.query(sql, params)).rows as T[];

  beforeAll(async () => {
    ({ sim, svc, close } = await startOrganisedCatalog({ links: 30, seed: 11 }, { COMMAND_WAIT_MS: String(COMMAND_WAIT_MS) }));
  });
  afterAll(async () => {
    await svc.services.engine.startRunners();
    await close();
  });

  it('holds the category’s lock past COMMAND_WAIT_MS until they show it deleted: a listing page waits, then does not file a link under it', async () => {
    const category = sim.catalog.addCategory({ parentId: null, name: '迟删类', sort: 950 });
    expect((await sync('/sync/categories')).state).toBe('succeeded');
    await eventually(async () => (await svc.services.engine.status()).every((p) => p.lagEvents === 0), 30_000);

    await svc.services.engine.stopRunners();
    let answered = false;
    const deleting = api('DELETE', `/categories/${category.id}`).finally(() => (answered = true));
    // Counted and appended; then its wait outlasts COMMAND_WAIT_MS several times over.
    await eventually(async () => (await query(`SELECT 1 FROM es_events WHERE stream_id = $1 AND type = 'CategoryDeleted'`, [`category-${category.id}`])).length > 0, 30_000);
    await Promise.race([deleting, new Promise((r) => setTimeout(r, 4 * COMMAND_WAIT_MS))]);
    expect(answered).toBe(false);
    expect(await sessionLockHeld(svc.db.pool, referenceLock('category', category.id))).toBe(true);
    expect((await query(`SELECT removed FROM categories WHERE id = $1`, [category.id]))[0].removed).toBe(false);

    // A listing page that files a new link under it waits for the lock until the projections run again.
    const linkId = sim.catalog.addLink({ name: '美国（包邮）迟删短袖T恤 LD100 直喷', categoryId: category.id, price: '30.00' }).id;
    const listing = sync('/sync/origin-goods');
    await Promise.race([listing, new Promise((r) => setTimeout(r, 4 * COMMAND_WAIT_MS))]);
    await svc.services.engine.startRunners();
    expect((await deleting).status).toBe(204);
    const run = await listing;
    expect(run.state).toBe('succeeded');
    expect(run.errors).toContainEqual({ item: linkId, message: expect.stringMatching(new RegExp(`category ${category.id}`)) });
    expect(await query(`SELECT id FROM origin_goods WHERE id = $1`, [linkId])).toEqual([]);
  });
});
