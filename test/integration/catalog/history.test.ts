import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { startSimulator, type RunningSimulator } from '../../../src/sync/simulator';
import { startTestService, type TestService, expectNoFailedProjections } from '../../support/service';
import { eventually } from '../../support/eventually';
import type { HistoryItem } from '../../../src/contract/history';

const BIN = path.resolve(__dirname, '../../../bin/catalog.js');

/** The answer's item, with its data and changes open for the assertions to read. */
type Item = Omit<HistoryItem, 'data' | 'changes'> & { data: Record<string, unknown>; changes: Record<string, any> | null };
type Cell = { size: string; color: string; printCount: string; craft: string; logistics: string; price: string };

/**
 * The audit history against the real service: a family synchronised from the simulator and
 * organised, a good made from one of its links, then a price change through a re-sync with a changed
 * supplier, a price override, a tag takeover and its restore, a merged secondary origin and a member
 * leaving, each at a known moment.
 */
describe('history of families, goods and links (what the public saw, when, and who changed it)', () => {
  let sim: RunningSimulator;
  let svc: TestService;
  let fid: string;
  let goodId: string;
  let cheapLink: string;
  let leaving: string;
  let secondary: string;
  const moments: Record<string, string> = {};
  const sync = async (p: string) => {
    const started = await svc.request('POST', p);
    return eventually(async () => {
      const r = await svc.request('GET', `/sync/runs/${started.body.runId}`);
      return r.body.state !== 'running' ? r.body : null;
    }, 60_000);
  };
  /** A moment strictly between the events before and after it. */
  const mark = async (name: string) => {
    await new Promise((r) => setTimeout(r, 15));
    moments[name] = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 15));
  };
  const get = async (p: string) => {
    const r = await svc.request('GET', p);
    expect(r.status).toBe(200);
    return r.body;
  };
  const history = async (p: string): Promise<Item[]> => (await get(p)).items;
  const familyOf = async (linkId: string) => (await svc.db.pool.query(`SELECT family_id FROM origin_goods WHERE id = $1`, [linkId])).rows[0].family_id as string;

  beforeAll(async () => {
    sim = await startSimulator({ links: 120, seed: 11 });
    svc = await startTestService({ env: { UPSTREAM_URL: sim.url } });
    for (const p of ['/sync/categories', '/sync/origin-goods', '/sync/details']) expect((await sync(p)).state).toBe('succeeded');
    expect((await svc.request('POST', '/product-families/organize')).status).toBe(200);
    fid = await familyOf('100001');
    const members = (await svc.db.pool.query(`SELECT id FROM origin_goods WHERE family_id = $1 AND NOT delisted ORDER BY id`, [fid])).rows.map((r) => r.id as string);
    expect(members.length).toBeGreaterThanOrEqual(2);
    cheapLink = members[0]!;
    leaving = members.find((m) => m !== cheapLink)!;
    secondary = (await svc.db.pool.query(`SELECT id FROM origin_goods WHERE family_id IS DISTINCT FROM $1 AND detail IS NOT NULL AND NOT delisted ORDER BY id LIMIT 1`, [fid]))
      .rows[0].id;

    await mark('organised');
    const good = await svc.request('POST', '/goods', { originGoodId: cheapLink });
    expect(good.status).toBe(201);
    goodId = good.body.id;
    await mark('goodCreated');

    // The supplier lowers the link's price; the listing and then its detail are synchronised again.
    // The supplier's variant prices follow the list price: 1.00 is below every other member's.
    const family = await get(`/product-families/${fid}`);
    // Before the change every member is dearer than 1.00, so reaching it below shows the new price.
    expect(Number(family.lowestPrice)).toBeGreaterThan(1);
    sim.catalog.changeLink(cheapLink, { price: '1.00' });
    expect((await sync('/sync/origin-goods')).counts.changed).toBe(1);
    expect((await svc.request('POST', `/sync/origin-goods/${cheapLink}/detail`)).status).toBe(200);
    await eventually(async () => (Number((await get(`/product-families/${fid}`)).lowestPrice) < 2 ? true : null), 20_000);
    await mark('repriced');

    const cells = (await get(`/product-families/${fid}`)).priceMatrix.cells as Cell[];
    const { price: _p, ...key } = cells[cells.length - 1]!;
    expect((await svc.request('PUT', `/product-families/${fid}/price-overrides`, { ...key, price: '0.50' })).status).toBe(200);
    await mark('overridden');

    // The administrator takes the link's tags over without one colour, then restores the derived ones.
    const link = await get(`/origin-goods/${cheapLink}`);
    const colours = link.tags.filter((t: { dimension: string }) => t.dimension === 'color');
    expect(colours.length).toBeGreaterThanOrEqual(2);
    const kept = link.tags.filter((t: { id: string }) => t.id !== colours[0].id).map((t: { id: string }) => t.id);
    expect((await svc.request('PUT', `/origin-goods/${cheapLink}/tags`, { tagIds: kept })).status).toBe(200);
    await mark('takenOver');
    expect((await svc.request('POST', `/origin-goods/${cheapLink}/tags/restore-auto`)).status).toBe(200);
    await mark('restored');

    expect((await svc.request('PUT', `/goods/${goodId}/origins`, { secondaryOriginGoodIds: [secondary] })).status).toBe(200);
    await mark('merged');
    expect((await svc.request('DELETE', `/product-families/${fid}/members/${leaving}`)).status).toBe(200);
    await mark('left');
  });
  afterAll(async () => {
    await expectNoFailedProjections(svc);
    await svc.close();
    await sim.close();
  });

  it("lists the family's own events and the link and good events that changed it, each with who, why, correlation id and time", async () => {
    const items = await history(`/product-families/${fid}/history`);
    for (const e of items) {
      expect(e).toMatchObject({
        position: expect.stringMatching(/^\d+\/\d+$/),
        version: expect.stringMatching(/^\d+$/),
        by: expect.any(String),
        why: expect.any(String),
        correlationId: expect.any(String),
      });
      expect(new Date(e.at).toISOString()).toBe(e.at);
    }
    // Oldest first, in log order.
    const at = items.map((e) => e.at);
    expect([...at].sort()).toEqual(at);
    expect(items[0]).toMatchObject({ stream: `family-${fid}`, type: 'FamilyCreated', version: '0', why: 'Organise' });

    const of = (stream: string, type: string) => items.filter((e) => e.stream === stream && e.type === type);
    // The run's one event for the link: parsed, tags derived and joined.
    const joined = of(`link-${cheapLink}`, 'LinkOrganised');
    expect(joined).toHaveLength(1);
    expect(joined[0]!.data).toMatchObject({ linkId: cheapLink, familyId: fid, parsed: expect.any(Object), tags: expect.any(Object) });
    expect(joined[0]!.changes!.members).toEqual({ added: [cheapLink], removed: [] });
    expect(joined[0]!.correlationId).toBe(items[0]!.correlationId); // one organisation run

    const created = of(`good-${goodId}`, 'GoodCreated');
    expect(created).toHaveLength(1);
    expect(created[0]!.changes).toMatchObject({ public: { from: false, to: true }, goods: { added: [goodId] }, representative: { from: null, to: { goodId } } });
    expect(created[0]!.why).toBe('CreateGood');

    // The re-sync: the listing's price (the list price fills the cells of sizes and colours without a
    // variant) and the detail's variant prices, each listed with the cells it moved.
    const mirrored = of(`link-${cheapLink}`, 'LinkMirrored').filter((e) => e.at > moments.goodCreated!);
    expect(mirrored).toHaveLength(1);
    expect(mirrored[0]!.why).toBe('SyncOriginGoods');
    const synced = of(`link-${cheapLink}`, 'LinkDetailSynced').filter((e) => e.at > moments.goodCreated!);
    expect(synced).toHaveLength(1);
    expect(synced[0]!.why).toBe('SyncDetails');
    expect(synced[0]!.by).toBe(created[0]!.by); // asked for by the administrator
    expect(synced[0]!.changes!.cells.changed.length).toBeGreaterThan(0);
    expect(synced[0]!.changes!.other).toContain('variants');
    const lowest = [...mirrored, ...synced].map((e) => e.changes!.lowestPrice).filter(Boolean);
    expect(lowest).toHaveLength(1);
    expect(lowest[0].to).toBe('1.00');

    const override = of(`family-${fid}`, 'FamilyPriceOverrideSet');
    expect(override).toHaveLength(1);
    expect(override[0]!.changes!.cells.changed).toEqual([expect.objectContaining({ to: '0.50' })]);
    expect(override[0]!.changes!.lowestPrice).toMatchObject({ to: '0.50' });
    expect(override[0]!.by).toBe(created[0]!.by); // the administrator

    const takenOver = of(`link-${cheapLink}`, 'LinkTagsTakenOver');
    expect(takenOver).toHaveLength(1);
    expect(takenOver[0]!.changes!.cells.removed.length).toBeGreaterThan(0);
    const restored = of(`link-${cheapLink}`, 'LinkTagsRestored');
    expect(restored).toHaveLength(1);
    expect(restored[0]!.changes!.cells.added).toEqual(
      expect.arrayContaining(takenOver[0]!.changes!.cells.removed.map((c: Cell) => expect.objectContaining({ size: c.size, color: c.color }))),
    );

    const origins = of(`good-${goodId}`, 'GoodOriginsSet');
    expect(origins).toHaveLength(1);
    expect(origins[0]!.changes!.other).toContain('mediaByColor');

    const left = of(`link-${leaving}`, 'LinkLeftFamily');
    expect(left).toHaveLength(1);
    expect(left[0]!.changes!.members).toEqual({ added: [], removed: [leaving] });
    expect(of(`family-${fid}`, 'FamilyMemberRemoved')).toHaveLength(1);

    // Events of other streams are listed for what they changed, or because a person's own command
    // made them (here: the good's claim on its link, which moves nothing the public sees).
    expect(items.filter((e) => e.stream.startsWith('link-') && !e.changes).map((e) => [e.type, e.why])).toEqual([['LinkGoodAssigned', 'CreateGood']]);
    // Paging keeps the order and the total.
    const page2 = await get(`/product-families/${fid}/history?page=2&pageSize=3`);
    expect(page2).toMatchObject({ total: items.length, page: 2, pageSize: 3 });
    expect(page2.items).toEqual(items.slice(3, 6));
  });

  it('?at= gives the family as the storefront showed it then, replayed by the code the read model uses', async () => {
    const then = async (name: string) => (await get(`/product-families/${fid}/history?at=${moments[name]}`)).family;
    const organised = await then('organised');
    expect(organised).toMatchObject({ id: fid, public: false, goodCount: 0, representative: null });
    const withGood = await then('goodCreated');
    expect(withGood).toMatchObject({ public: true, goodCount: 1, representativeGoodId: goodId, representative: { goodId, name: expect.any(String) } });
    expect(withGood.lowestPrice).toBe(organised.lowestPrice);
    const repriced = await then('repriced');
    expect(Number(repriced.lowestPrice)).toBeLessThan(Number(withGood.lowestPrice));
    expect((await then('overridden')).lowestPrice).toBe('0.50');
    expect((await then('takenOver')).priceMatrix.cells.length).toBeLessThan(repriced.priceMatrix.cells.length);
    expect((await then('restored')).priceMatrix.cells.length).toBe(repriced.priceMatrix.cells.length);
    // The merged secondary origin's media joined the family's media.
    const urls = (f: { mediaByColor: Record<string, { url: string }[]> }) =>
      Object.values(f.mediaByColor)
        .flat()
        .map((m) => m.url);
    const secondaryUrls = (await get(`/origin-goods/${secondary}`)).detail.media.map((m: { url: string }) => m.url);
    expect(urls(await then('restored'))).not.toEqual(expect.arrayContaining(secondaryUrls));
    expect(urls(await then('merged'))).toEqual(expect.arrayContaining(secondaryUrls));
    expect((await then('merged')).members.map((m: { id: string }) => m.id)).toContain(leaving);
    expect((await then('left')).members.map((m: { id: string }) => m.id)).not.toContain(leaving);

    // Now, the replay equals the read model field for field.
    const now = await then('left');
    const current = await get(`/product-families/${fid}`);
    for (const k of [
      'name',
      'memberCount',
      'goodCount',
      'representativeGoodId',
      'lowestPrice',
      'priceMatrix',
      'invalidOverrides',
      'conflicts',
      'variants',
      'sizeChart',
      'packagingSpecs',
      'options',
      'mediaByColor',
      'overrides',
      'customMembers',
    ]) {
      expect([k, now[k]]).toEqual([k, current[k]]);
    }
    expect(now.members).toEqual(current.members);

    expect((await svc.request('GET', `/product-families/${fid}/history?at=2000-01-01T00:00:00Z`)).status).toBe(404);
  });

  it('replayed to now, every family equals its read model row', async () => {
    const now = new Date().toISOString();
    const families = (await get('/product-families?pageSize=1000')).items as { id: string }[];
    expect(families.length).toBeGreaterThan(5);
    for (const { id } of families) {
      const replayed = (await get(`/product-families/${id}/history?at=${now}`)).family;
      const current = await get(`/product-families/${id}`);
      for (const k of [
        'name',
        'locked',
        'members',
        'memberCount',
        'goodCount',
        'representativeGoodId',
        'lowestPrice',
        'priceMatrix',
        'conflicts',
        'variants',
        'sizeChart',
        'packagingSpecs',
        'options',
        'mediaByColor',
      ]) {
        expect([id, k, replayed[k]]).toEqual([id, k, current[k]]);
      }
    }
  });

  it('?from=&to= says what changed between two moments: members, cells, lowest price, representative', async () => {
    const between = async (from: string, to: string) => get(`/product-families/${fid}/history?from=${moments[from]}&to=${moments[to]}`);
    const priced = await between('goodCreated', 'repriced');
    expect(priced.changes.cells.changed.length).toBeGreaterThan(0);
    expect(Number(priced.changes.lowestPrice.to)).toBeLessThan(Number(priced.changes.lowestPrice.from));
    expect(priced.changes.members).toBeUndefined();
    expect(priced.items.map((e: Item) => e.type)).toEqual(expect.arrayContaining(['LinkDetailSynced']));
    expect(priced.items.every((e: Item) => e.at > moments.goodCreated! && e.at <= moments.repriced!)).toBe(true);

    const published = await between('organised', 'goodCreated');
    expect(published.changes).toMatchObject({ public: { from: false, to: true }, representative: { from: null, to: { goodId } } });

    const left = await between('merged', 'left');
    expect(left.changes.members).toEqual({ added: [], removed: [leaving] });

    // Taken over and restored: the two moments around both show no change at all.
    expect((await between('overridden', 'restored')).changes).toBeNull();
    expect((await between('overridden', 'restored')).items.map((e: Item) => e.type)).toEqual(['LinkTagsTakenOver', 'LinkTagsRestored']);
  });

  it('a good and a link have the same history: own events, what changed them, ?at and ?from/?to', async () => {
    const good = await history(`/goods/${goodId}/history`);
    expect(good[0]).toMatchObject({ stream: `good-${goodId}`, type: 'GoodCreated', why: 'CreateGood' });
    expect(good[0]!.changes).toMatchObject({ existed: { from: false, to: true }, familyId: { from: null, to: fid }, public: { from: null, to: true } });
    const relisted = good.find((e) => e.type === 'LinkMirrored' && e.at > moments.goodCreated!)!;
    expect(relisted.changes).toMatchObject({ originPrice: { to: '1.00' }, familyLowestPrice: { to: '1.00' } });
    const repriced = good.find((e) => e.type === 'LinkDetailSynced' && e.at > moments.goodCreated!)!;
    expect(repriced.changes!.originVariants.priceChanged.length).toBeGreaterThan(0);
    expect(good.map((e) => e.type)).toContain('GoodOriginsSet');
    const goodThen = (await get(`/goods/${goodId}/history?at=${moments.goodCreated}`)).good;
    expect(goodThen).toMatchObject({ id: goodId, familyId: fid, representative: true, public: true, originGoodId: cheapLink, secondaryOriginGoodIds: [] });
    expect((await get(`/goods/${goodId}/history?at=${moments.merged}`)).good.secondaryOriginGoodIds).toEqual([secondary]);
    expect((await svc.request('GET', `/goods/${goodId}/history?at=${moments.organised}`)).status).toBe(404);
    const goodDiff = await get(`/goods/${goodId}/history?from=${moments.goodCreated}&to=${moments.repriced}`);
    expect(goodDiff.changes.originPrice.to).not.toBe(goodDiff.changes.originPrice.from);

    const link = await history(`/origin-goods/${cheapLink}/history`);
    expect(link.every((e) => e.stream === `link-${cheapLink}`)).toBe(true);
    expect(link.map((e) => e.version)).toEqual(link.map((_, i) => String(i))); // all its own events
    expect(link[0]).toMatchObject({ type: 'LinkMirrored', why: 'SyncOriginGoods' });
    const detail = link.filter((e) => e.type === 'LinkDetailSynced').pop()!;
    expect(detail.changes!.variants.priceChanged.length).toBeGreaterThan(0);
    const linkDiff = await get(`/origin-goods/${cheapLink}/history?from=${moments.goodCreated}&to=${moments.restored}`);
    expect(linkDiff.changes.price).toBeDefined();
    expect(linkDiff.changes.tags).toBeUndefined(); // taken over and restored: the same tags again
    expect(linkDiff.changes.goodId).toBeUndefined();
    const linkThen = (await get(`/origin-goods/${cheapLink}/history?at=${moments.takenOver}`)).originGood;
    expect(linkThen).toMatchObject({ id: cheapLink, tagsManual: true, familyId: fid, goodId });
    expect((await get(`/origin-goods/${leaving}/history?at=${moments.left}`)).originGood.familyId).toBeNull();
  });

  it('bad queries are 400 with a code, unknown subjects 404, and nothing is written', async () => {
    const before = (await svc.db.pool.query(`SELECT count(*)::int AS n FROM es_events`)).rows[0].n;
    for (const q of [
      `at=${moments.left}&from=${moments.organised}&to=${moments.left}`,
      `from=${moments.organised}`,
      `to=${moments.left}`,
      'at=yesterday',
      'at=2026-01-01',
      'page=0',
      'pageSize=1001',
      `from=${moments.left}&to=${moments.organised}`,
      `at=${moments.left}&page=2`,
      'since=2026-01-01T00:00:00Z',
    ]) {
      const r = await svc.request('GET', `/product-families/${fid}/history?${q}`);
      expect([q, r.status]).toEqual([q, 400]);
      expect(r.body.error.code).toEqual(expect.any(String));
    }
    for (const p of ['/product-families/1/history', '/goods/1/history', '/origin-goods/1/history']) expect((await svc.request('GET', p)).status).toBe(404);
    expect((await svc.request('GET', '/goods/abc/history')).status).toBe(400);
    expect((await svc.request('GET', `/goods/${goodId}/history`, undefined, {}, { anonymous: true })).status).toBe(401);
    expect((await svc.db.pool.query(`SELECT count(*)::int AS n FROM es_events`)).rows[0].n).toBe(before);
  });

  it('catalog history prints the same history from the command line, as a table or JSON', async () => {
    const catalog = async (args: string[]) => {
      try {
        const r = await promisify(execFile)(process.execPath, [BIN, ...args], {
          env: { PATH: process.env.PATH!, LOG_LEVEL: 'warn', DATABASE_URL: svc.db.url, JWT_SECRET: 'test-secret-that-is-at-least-32-characters-long' },
          timeout: 60_000,
        });
        return { code: 0, stdout: r.stdout, stderr: r.stderr };
      } catch (e) {
        const err = e as { code: number; stdout: string; stderr: string };
        return { code: err.code, stdout: err.stdout, stderr: err.stderr };
      }
    };
    const table = await catalog(['history', 'family', fid]);
    expect(table.code).toBe(0);
    const lines = table.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^at\s+stream\s+type\s+by\s+why\s+correlation\s+changes$/);
    expect(lines).toHaveLength((await history(`/product-families/${fid}/history`)).length + 1);
    expect(table.stdout).toMatch(new RegExp(`link-${leaving}@\\d+\\s+LinkLeftFamily .*members -${leaving}`));
    expect(table.stdout).toMatch(/FamilyPriceOverrideSet .*lowestPrice \S+ -> 0\.50/);

    const diff = await catalog(['history', 'family', fid, '--from', moments.merged!, '--to', moments.left!, '--json']);
    expect(diff.code).toBe(0);
    expect(JSON.parse(diff.stdout)).toEqual(await get(`/product-families/${fid}/history?from=${moments.merged}&to=${moments.left}`));

    const at = await catalog(['history', 'link', cheapLink, '--at', moments.takenOver!]);
    expect(at.code).toBe(0);
    expect(at.stdout).toMatch(/tagsManual\s+true/);

    const missing = await catalog(['history', 'good', '1']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/GOOD.NOT_FOUND/);
    const bad = await catalog(['history', 'family', fid, '--at', 'yesterday']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/VALIDATION_FAILED/);
    expect((await catalog(['history', 'shelf', fid])).code).toBe(2);
  }, 120_000);
  it('an administrator’s takeover on a member link that moves no cell is still listed in the family’s history, with changes null', async () => {
    const cellsOf = async () => ((await get(`/product-families/${fid}`)).priceMatrix.cells as Cell[]).map((c) => JSON.stringify(c)).sort();
    const before = await cellsOf();
    const link = await get(`/origin-goods/${cheapLink}`);
    // The link's own tags, taken over as they are: from now on it is organised by hand; nothing public moves.
    const r = await svc.request('PUT', `/origin-goods/${cheapLink}/tags`, { tagIds: link.tags.map((t: { id: string }) => t.id) });
    expect(r.status).toBe(200);
    expect(await cellsOf()).toEqual(before);
    const me = (await svc.db.pool.query(`SELECT id::text FROM users ORDER BY id LIMIT 1`)).rows[0].id as string;
    const items = await history(`/product-families/${fid}/history`);
    const takeovers = items.filter((e) => e.stream === `link-${cheapLink}` && e.type === 'LinkTagsTakenOver');
    expect(takeovers.at(-1)).toMatchObject({ by: me, why: 'UpdateLinkTags', changes: null });
    // The service's own events and its runs' that moved nothing stay out: every listed event of
    // another stream either changed something or was a person's own command.
    for (const e of items)
      if (e.stream !== `family-${fid}` && e.changes === null) expect([e.type, e.by, e.why]).toEqual([e.type, me, expect.not.stringMatching(/^(Sync|Organise)/)]);
  });
});
