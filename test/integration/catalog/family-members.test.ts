/**
 * Members of a family, as administrators add and remove them (docs/api.md, Administrator): the
 * link's move and the families' records are one append decided on the family's own stream, so a
 * family deleted or merged meanwhile refuses the link (409 FAMILY.GONE), and every answer shows its
 * own request's effect, however many writes race on one family. On each event store: postgres, and
 * the KurrentDB adapter over a fake of its client.
 */
import { startSimulator, type RunningSimulator } from '../../../src/sync/simulator';
import { adminApi } from '../../support/admin-api';
import { beforeWriteTo } from '../../support/before-append';
import { eventually } from '../../support/eventually';
import { EVENT_STORES, expectNoFailedProjections, startTestService, type EventStoreKind, type TestService } from '../../support/service';

jest.setTimeout(180_000);

describe.each(EVENT_STORES)('family members, on %s', (eventStore: EventStoreKind) => {
  let sim: RunningSimulator;
  let svc: TestService;
  const { api, ok, sync } = adminApi(() => svc);
  const memberIds = (family: { members: { id: string }[] }) => family.members.map((m) => m.id);
  const streamEvents = (streamId: string) => svc.services.store.readStream(streamId);
  /** Links whose family the read models no longer hold. */
  const dangling = async () =>
    (await svc.db.pool.query(`SELECT og.id FROM origin_goods og WHERE og.family_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM families f WHERE f.id = og.family_id)`)).rows;
  let links: string[];

  beforeAll(async () => {
    sim = await startSimulator({ links: 200, seed: 9 });
    svc = await startTestService({ env: { UPSTREAM_URL: sim.url }, eventStore });
    for (const p of ['/sync/categories', '/sync/origin-goods']) expect((await sync(p)).state).toBe('succeeded');
    expect((await api('POST', '/product-families/organize')).status).toBe(200);
    links = (await svc.db.pool.query<{ id: string }>(`SELECT id::text FROM origin_goods ORDER BY id`)).rows.map((r) => r.id);
  });
  afterAll(async () => {
    await expectNoFailedProjections(svc);
    await svc.close();
    await sim.close();
  });

  it('ten parallel adds to one family, twelve rounds: every 201 lists its own link, and the family ends with all of them', async () => {
    const family = await ok('POST', '/product-families', { name: '并发系列' });
    for (let round = 0; round < 12; round++) {
      const batch = links.slice(round * 10, round * 10 + 10);
      const answers = await Promise.all(batch.map((linkId) => api('POST', `/product-families/${family.id}/members`, { originGoodId: linkId })));
      answers.forEach((a, i) => {
        if (a.status === 202) return; // written; the read models were not there yet: nothing to show
        expect([round, batch[i], a.status]).toEqual([round, batch[i], 201]);
        expect([round, batch[i], memberIds(a.body).includes(batch[i]!)]).toEqual([round, batch[i], true]);
      });
    }
    const members = memberIds(await ok('GET', `/product-families/${family.id}`));
    expect(members.sort()).toEqual(links.slice(0, 120).sort());
    // The family's own stream records each join once.
    expect((await streamEvents(`family-${family.id}`)).filter((e) => e.type === 'FamilyMemberAdded')).toHaveLength(120);
  });

  it('ten parallel adds of the same link: one writes, and every answer, the nine that wrote nothing too, lists the link', async () => {
    const family = await ok('POST', '/product-families', { name: '同一链接' });
    const linkId = links[140]!;
    const answers = await Promise.all(Array.from({ length: 10 }, () => api('POST', `/product-families/${family.id}/members`, { originGoodId: linkId })));
    for (const a of answers) {
      expect(a.status === 201 || a.status === 202).toBe(true);
      if (a.status === 201) expect(memberIds(a.body)).toEqual([linkId]);
    }
    const joined = (await streamEvents(`link-${linkId}`)).filter((e) => e.type === 'LinkJoinedFamily' && (e.data as { familyId: string }).familyId === family.id);
    expect(joined).toHaveLength(1);
  });

  it('a removal answers the family without the link, and the old family records that it left', async () => {
    const a = await ok('POST', '/product-families', { name: '甲' });
    const b = await ok('POST', '/product-families', { name: '乙' });
    const linkId = links[150]!;
    await ok('POST', `/product-families/${a.id}/members`, { originGoodId: linkId });
    const moved = await ok('POST', `/product-families/${b.id}/members`, { originGoodId: linkId });
    expect(memberIds(moved)).toEqual([linkId]);
    expect(memberIds(await ok('GET', `/product-families/${a.id}`))).toEqual([]);
    expect((await streamEvents(`family-${a.id}`)).map((e) => e.type)).toEqual(['FamilyCreated', 'FamilyMemberAdded', 'FamilyMemberRemoved']);
    const removed = await ok('DELETE', `/product-families/${b.id}/members/${linkId}`);
    expect(memberIds(removed)).toEqual([]);
  });

  it('adding a member to a deleted family is 409 FAMILY.GONE naming its state, and the link stays where it was', async () => {
    const gone = await ok('POST', '/product-families', { name: '将删除' });
    expect((await api('DELETE', `/product-families/${gone.id}`)).status).toBe(204);
    const linkId = links[160]!;
    const before = (await svc.db.pool.query(`SELECT family_id::text FROM origin_goods WHERE id = $1`, [linkId])).rows[0].family_id;
    const r = await api('POST', `/product-families/${gone.id}/members`, { originGoodId: linkId });
    expect([r.status, r.body.error.code]).toEqual([409, 'FAMILY.GONE']);
    expect(r.body.error.message).toMatch(/deleted/);
    expect((await svc.db.pool.query(`SELECT family_id::text FROM origin_goods WHERE id = $1`, [linkId])).rows[0].family_id).toBe(before);
    const moves = (await streamEvents(`link-${linkId}`)).filter((e) => ['LinkJoinedFamily', 'LinkLeftFamily'].includes(e.type) && e.metadata.why === 'AddFamilyMember');
    expect(moves).toEqual([]);
  });

  it('adding a member races the family’s delete: either the add wins (the delete is then refused) or the add is refused; never a link in a family that is gone', async () => {
    for (let round = 0; round < 8; round++) {
      const family = await ok('POST', '/product-families', { name: `竞争 ${round}` });
      const linkId = links[170 + round]!;
      const [add, del] = await Promise.all([api('POST', `/product-families/${family.id}/members`, { originGoodId: linkId }), api('DELETE', `/product-families/${family.id}`)]);
      expect([round, await dangling()]).toEqual([round, []]);
      if (del.status === 204) expect([round, add.status, add.body.error?.code]).toEqual([round, 409, 'FAMILY.GONE']);
      else expect([round, add.status, del.status]).toEqual([round, 201, 409]);
    }
  });

  it('a family deleted just as a member add reaches the store: the add is refused whole, and the link stays where it was', async () => {
    const family = await ok('POST', '/product-families', { name: '即将删除' });
    const linkId = links[190]!;
    const before = (await streamEvents(`link-${linkId}`)).length;
    let deleted = 0;
    const hook = beforeWriteTo(svc, {
      streamId: `family-${family.id}`,
      carrying: ['FamilyMemberAdded'],
      meanwhile: async () => void (deleted = (await api('DELETE', `/product-families/${family.id}`)).status),
    });
    let add: { status: number; body: any };
    try {
      add = await api('POST', `/product-families/${family.id}/members`, { originGoodId: linkId });
    } finally {
      hook.restore();
    }
    expect(hook.taken()).toBe(1);
    expect(deleted).toBe(204);
    expect([add.status, add.body.error?.code]).toEqual([409, 'FAMILY.GONE']);
    expect((await streamEvents(`link-${linkId}`)).slice(before)).toEqual([]);
    expect((await streamEvents(`family-${family.id}`)).map((e) => e.type)).toEqual(['FamilyCreated', 'FamilyDeleted']);
    await eventually(async () => (await svc.services.engine.status()).every((p) => p.lagEvents === 0), 30_000);
    expect(await dangling()).toEqual([]);
  });
});
