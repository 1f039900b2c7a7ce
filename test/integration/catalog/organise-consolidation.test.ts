/**
 * Organisation over time (docs/domain.md, Organisation): it attaches a link to the family of its
 * product, merges every pure fragment into the family that keeps its id in one run (then appends
 * nothing), and never overrides a membership that changed after it read it: a link an administrator
 * moved during the run is left alone and listed for review, and a group whose family stopped taking
 * links moves none of its links. Races are made deterministic by stepping in at the event store.
 */
import { startSimulator, type RunningSimulator } from '../../../src/sync/simulator';
import { eventMetadata } from '../../../src/platform/events/registry';
import { newId } from '../../../src/platform/ids';
import { comparePositions } from '../../../src/platform/event-store/port';
import { adminApi } from '../../support/admin-api';
import { beforeWriteTo, recordAppends } from '../../support/before-append';
import { EVENT_STORES, expectNoFailedProjections, startTestService, type EventStoreKind, type TestService } from '../../support/service';

jest.setTimeout(180_000);

describe.each(EVENT_STORES)('organisation over time, on %s', (eventStore: EventStoreKind) => {
  let sim: RunningSimulator;
  let svc: TestService;
  const { api, ok, sync, familiesWith } = adminApi(() => svc);
  /** The end of the log: a run that appends nothing leaves it where it was. */
  const head = () => svc.services.store.headPosition(undefined, { committed: true });
  const unmoved = async (before: Awaited<ReturnType<typeof head>>) => expect(comparePositions(await head(), before)).toBe(0);
  const familyOf = async (linkId: string) => (await svc.db.pool.query(`SELECT family_id::text AS f FROM origin_goods WHERE id = $1`, [linkId])).rows[0].f as string | null;
  const streamTypes = async (streamId: string) => (await svc.services.store.readStream(streamId)).map((e) => ({ type: e.type, data: e.data as any }));
  const settle = async () => svc.services.waitForProjections(await svc.services.store.headPosition(undefined, { committed: true }), ['link-0', 'family-0', 'good-0']);

  beforeAll(async () => {
    sim = await startSimulator({ links: 300, seed: 11 });
    svc = await startTestService({ env: { UPSTREAM_URL: sim.url }, eventStore });
    for (const p of ['/sync/categories', '/sync/origin-goods', '/sync/details']) expect((await sync(p)).state).toBe('succeeded');
    expect((await api('POST', '/product-families/organize')).status).toBe(200);
  });
  afterAll(async () => {
    await expectNoFailedProjections(svc);
    await svc.close();
    await sim.close();
  });

  it('a link without a family joins the existing auto-managed family of its product (attached 1); the next run appends nothing', async () => {
    const [family] = await familiesWith(2);
    const linkId = family!.links[1]!;
    await ok('DELETE', `/product-families/${family!.family_id}/members/${linkId}`);
    expect(await familyOf(linkId)).toBeNull();
    const report = await ok('POST', '/product-families/organize');
    expect(report).toMatchObject({ attached: 1, created: 0, merged: 0, review: [] });
    expect(await familyOf(linkId)).toBe(family!.family_id);
    const before = await head();
    expect(await ok('POST', '/product-families/organize')).toMatchObject({ attached: 0, created: 0, merged: 0, repaired: 0 });
    await unmoved(before);
  });

  /**
   * Fragments of a product as an earlier run or an older version left them: auto-managed families of
   * the product's key, each holding some of its links, recorded on every stream as organisation does.
   */
  async function fragment(targetId: string, key: string, linkIds: readonly string[]): Promise<string> {
    const id = newId();
    const meta = eventMetadata('system:organise', 'Organise');
    const enc = (type: string, data: unknown) => svc.services.registry.encode(type, data, meta);
    const revision = async (s: string) => (await svc.services.store.streamRevision(s)) ?? ('no_stream' as const);
    await svc.services.store.appendToStreams([
      {
        streamId: `family-${id}`,
        expectedRevision: 'no_stream',
        events: [
          enc('FamilyCreated', { familyId: id, name: `碎片 ${id}`, familyNameKey: key, autoManaged: true, locked: false, shelf: 'on' }),
          ...linkIds.map((linkId) => enc('FamilyMemberAdded', { familyId: id, linkId })),
        ],
      },
      {
        streamId: `family-${targetId}`,
        expectedRevision: await revision(`family-${targetId}`),
        events: linkIds.map((linkId) => enc('FamilyMemberRemoved', { familyId: targetId, linkId })),
      },
      ...(await Promise.all(
        linkIds.map(async (linkId) => ({
          streamId: `link-${linkId}`,
          expectedRevision: await revision(`link-${linkId}`),
          events: [enc('LinkLeftFamily', { linkId, familyId: targetId }), enc('LinkJoinedFamily', { linkId, familyId: id })],
        })),
      )),
    ]);
    return id;
  }

  it.each([2, 3])('%i pure fragments of one product all merge into the family with goods in one run, which keeps its id; the next run appends nothing', async (n) => {
    const candidates = await familiesWith(n + 1);
    const target = candidates[n === 2 ? 0 : 1] ?? candidates[0]!;
    const key = (await svc.db.pool.query(`SELECT family_name_key FROM families WHERE id = $1`, [target.family_id])).rows[0].family_name_key as string;
    // The target is public: a good made from its first link.
    if ((await svc.db.pool.query(`SELECT 1 FROM goods WHERE family_id = $1`, [target.family_id])).rowCount === 0) await ok('POST', '/goods', { originGoodId: target.links[0] });
    const fragments: string[] = [];
    for (let i = 1; i <= n; i++) fragments.push(await fragment(target.family_id, key, [target.links[i]!]));
    await settle();
    for (let i = 1; i <= n; i++) expect(await familyOf(target.links[i]!)).toBe(fragments[i - 1]);

    const report = await ok('POST', '/product-families/organize');
    expect(report).toMatchObject({ merged: n, created: 0, attached: 0 });
    expect(report.review.filter((r: { reason: string }) => r.reason === 'CHANGED')).toEqual([]);
    for (let i = 1; i <= n; i++) expect(await familyOf(target.links[i]!)).toBe(target.family_id);
    const left = await svc.db.pool.query(`SELECT id FROM families WHERE id = ANY($1::bigint[])`, [fragments]);
    expect(left.rows).toEqual([]);
    for (const f of fragments) expect((await streamTypes(`family-${f}`)).at(-1)).toEqual({ type: 'FamilyMergedInto', data: { familyId: f, intoFamilyId: target.family_id } });

    const before = await head();
    expect(await ok('POST', '/product-families/organize')).toMatchObject({ merged: 0, created: 0, attached: 0, repaired: 0 });
    await unmoved(before);
  });

  it('a link synced during the run and added to a fragment by an administrator merges with its fragment', async () => {
    const [target, other] = await familiesWith(3);
    const key = (await svc.db.pool.query(`SELECT family_name_key FROM families WHERE id = $1`, [target!.family_id])).rows[0].family_name_key as string;
    if ((await svc.db.pool.query(`SELECT 1 FROM goods WHERE family_id = $1`, [target!.family_id])).rowCount === 0) await ok('POST', '/goods', { originGoodId: target!.links[0] });
    const fragmentId = await fragment(target!.family_id, key, [target!.links[1]!]);
    // A link of another family, taken out of it: the grouping step puts it back, and the run is stepped into there.
    const detached = other!.links[1]!;
    await ok('DELETE', `/product-families/${other!.family_id}/members/${detached}`);
    await settle();
    const name = (await svc.db.pool.query(`SELECT name FROM origin_goods WHERE id = $1`, [target!.links[0]])).rows[0].name as string;
    let added = '';
    const hook = beforeWriteTo(svc, {
      streamId: `link-${detached}`,
      carrying: ['LinkOrganised'],
      // After the run has read every link: the supplier lists a new link, a sync mirrors it, and an
      // administrator adds it to the fragment the consolidation step is about to merge.
      meanwhile: async () => {
        added = sim.catalog.addLink({ name, categoryId: sim.catalog.links()[0]!.categoryId, price: '42.00', sameProductAs: target!.links[0] }).id;
        expect((await sync('/sync/origin-goods')).state).toBe('succeeded');
        await ok('POST', `/product-families/${fragmentId}/members`, { originGoodId: added });
      },
    });
    let report: any;
    try {
      report = await ok('POST', '/product-families/organize');
    } finally {
      hook.restore();
    }
    expect(hook.taken()).toBe(1);
    expect(report).toMatchObject({ merged: 1, attached: 1 });
    expect(report.review.filter((r: { familyId?: string; linkId?: string }) => r.familyId === fragmentId || r.linkId === added)).toEqual([]);
    expect(await familyOf(added)).toBe(target!.family_id);
    expect(await familyOf(target!.links[1]!)).toBe(target!.family_id);
    expect((await svc.db.pool.query(`SELECT 1 FROM families WHERE id = $1`, [fragmentId])).rowCount).toBe(0);
    expect((await streamTypes(`family-${target!.family_id}`)).filter((e) => e.type === 'FamilyMemberAdded' && e.data.linkId === added)).toHaveLength(1);
  });

  it('an administrator who moves a link into another family while a run is about to group it keeps the move; the run lists the link for review', async () => {
    const [a] = await familiesWith(3);
    const linkId = a!.links[2]!;
    await ok('DELETE', `/product-families/${a!.family_id}/members/${linkId}`);
    const b = await ok('POST', '/product-families', { name: '管理员的系列' });
    const aBefore = (await streamTypes(`family-${a!.family_id}`)).length;
    const hook = beforeWriteTo(svc, {
      streamId: `link-${linkId}`,
      meanwhile: async () => void (await ok('POST', `/product-families/${b.id}/members`, { originGoodId: linkId })),
    });
    let report: any;
    try {
      report = await ok('POST', '/product-families/organize');
    } finally {
      hook.restore();
    }
    expect(hook.taken()).toBe(1);
    expect(await familyOf(linkId)).toBe(b.id);
    expect(report.review).toContainEqual({ linkId, familyId: b.id, reason: 'MEMBERSHIP_CHANGED' });
    expect(report.attached).toBe(0);
    const moves = (await streamTypes(`link-${linkId}`)).filter((e) => e.type === 'LinkJoinedFamily' || e.type === 'LinkLeftFamily');
    expect(moves.at(-1)).toEqual({ type: 'LinkJoinedFamily', data: { linkId, familyId: b.id } });
    expect((await streamTypes(`family-${b.id}`)).map((e) => e.type)).toEqual(['FamilyCreated', 'FamilyMemberAdded']);
    // The family organisation would have put it in records nothing of it.
    expect((await streamTypes(`family-${a!.family_id}`)).slice(aBefore).filter((e) => e.data.linkId === linkId)).toEqual([]);
  });

  it('a link that moved for another reason joins with its group; a family locked meanwhile takes none of them, and none is moved', async () => {
    const [a] = await familiesWith(3);
    const linkId = a!.links[1]!;
    await ok('DELETE', `/product-families/${a!.family_id}/members/${linkId}`);
    const joinsBefore = (await streamTypes(`family-${a!.family_id}`)).length;
    const meta = eventMetadata('system:sync', 'SyncOriginGoods');
    const mirrored = (await streamTypes(`link-${linkId}`)).find((e) => e.type === 'LinkMirrored')!.data;
    const hook = beforeWriteTo(
      svc,
      {
        streamId: `link-${linkId}`,
        // A sync rewrites the link (same data): its stream moves, its family does not.
        meanwhile: async () => {
          const rev = await svc.services.store.streamRevision(`link-${linkId}`);
          await svc.services.store.appendToStream(`link-${linkId}`, [svc.services.registry.encode('LinkMirrored', { ...mirrored, craftLabel: '改' }, meta)], {
            expectedRevision: rev!,
          });
        },
      },
      // ...and before organisation appends again, an administrator locks the family.
      { streamId: `family-${a!.family_id}`, meanwhile: async () => void (await ok('PATCH', `/product-families/${a!.family_id}`, { locked: true })) },
    );
    let report: any;
    try {
      report = await ok('POST', '/product-families/organize');
    } finally {
      hook.restore();
    }
    expect(hook.taken()).toBe(2);
    expect(await familyOf(linkId)).toBeNull();
    expect(report.lockedSkipped).toContainEqual({ id: linkId, familyId: a!.family_id });
    expect(report.attached).toBe(0);
    expect((await streamTypes(`link-${linkId}`)).at(-1)!.type).not.toBe('LinkJoinedFamily');
    const after = await streamTypes(`family-${a!.family_id}`);
    expect(after.slice(joinsBefore).map((e) => e.type)).toEqual(['FamilyLocked']);
    // Unlocked, the next run takes it.
    await ok('PATCH', `/product-families/${a!.family_id}`, { locked: false });
    expect(await ok('POST', '/product-families/organize')).toMatchObject({ attached: 1 });
    expect(await familyOf(linkId)).toBe(a!.family_id);
  });

  it('a link left in a family an older version deleted counts as unorganised: the next run groups it again', async () => {
    const [a] = await familiesWith(2);
    const linkId = a!.links[0]!;
    const orphanage = newId();
    const meta = eventMetadata('system:organise', 'Organise');
    const enc = (type: string, data: unknown) => svc.services.registry.encode(type, data, meta);
    const rev = async (s: string) => (await svc.services.store.streamRevision(s)) ?? ('no_stream' as const);
    // As before the rule: a family created, a link moved into it, the family deleted with the link still there.
    await svc.services.store.appendToStreams([
      {
        streamId: `family-${orphanage}`,
        expectedRevision: 'no_stream',
        events: [
          enc('FamilyCreated', { familyId: orphanage, name: '旧系列', familyNameKey: null, autoManaged: false, locked: true, shelf: 'on' }),
          enc('FamilyMemberAdded', { familyId: orphanage, linkId }),
        ],
      },
      {
        streamId: `link-${linkId}`,
        expectedRevision: await rev(`link-${linkId}`),
        events: [enc('LinkLeftFamily', { linkId, familyId: a!.family_id }), enc('LinkJoinedFamily', { linkId, familyId: orphanage })],
      },
      { streamId: `family-${a!.family_id}`, expectedRevision: await rev(`family-${a!.family_id}`), events: [enc('FamilyMemberRemoved', { familyId: a!.family_id, linkId })] },
    ]);
    await svc.services.store.appendToStream(`family-${orphanage}`, [enc('FamilyDeleted', { familyId: orphanage })], { expectedRevision: 1n });
    await settle();
    expect(await familyOf(linkId)).toBe(orphanage);
    const report = await ok('POST', '/product-families/organize');
    expect(report.attached).toBe(1);
    expect(await familyOf(linkId)).toBe(a!.family_id);
  });

  it('links of several groups that moved meanwhile leave the append at once: the others are appended once more, not once per moved link', async () => {
    const families = (
      await svc.db.pool.query<{ family_id: string; links: string[] }>(
        `SELECT og.family_id::text, array_agg(og.id::text ORDER BY og.id) AS links FROM origin_goods og JOIN families f ON f.id = og.family_id
          WHERE NOT f.locked AND f.auto_managed GROUP BY og.family_id HAVING count(*) >= 3 ORDER BY og.family_id LIMIT 4`,
      )
    ).rows;
    expect(families).toHaveLength(4);
    // One link out of each family: organisation brings each back, a group per family, in one append.
    const leaving = families.map((f) => f.links[1]!);
    for (const [i, f] of families.entries()) await ok('DELETE', `/product-families/${f.family_id}/members/${leaving[i]}`);
    await settle();
    const meta = eventMetadata('system:sync', 'SyncOriginGoods');
    const rewrite = async (linkId: string) => {
      const mirrored = (await streamTypes(`link-${linkId}`)).find((e) => e.type === 'LinkMirrored')!.data;
      const rev = await svc.services.store.streamRevision(`link-${linkId}`);
      await svc.services.store.appendToStream(`link-${linkId}`, [svc.services.registry.encode('LinkMirrored', mirrored, meta)], { expectedRevision: rev! });
    };
    // As the append reaches the store, a sync rewrites three of the links: three groups are stale.
    const [untouched, ...moved] = leaving;
    const hook = beforeWriteTo(svc, { streamId: `link-${moved[0]}`, carrying: ['LinkOrganised'], meanwhile: async () => void (await Promise.all(moved.map(rewrite))) });
    const recorded = recordAppends(svc.services.store);
    let report: any;
    try {
      report = await ok('POST', '/product-families/organize');
    } finally {
      hook.restore();
      recorded.restore();
    }
    expect(hook.taken()).toBe(1);
    expect(report).toMatchObject({ attached: 4, review: [] });
    for (const [i, f] of families.entries()) expect(await familyOf(leaving[i]!)).toBe(f.family_id);
    // The untouched group: in the append that met the three, then in one more.
    expect(recorded.appends.filter((a) => a.includes(`link-${untouched}`))).toHaveLength(2);
  });
});
