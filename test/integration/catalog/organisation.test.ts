import { startSimulator, type RunningSimulator } from '../../../src/sync/simulator';
import { startTestService, type TestService, expectNoFailedProjections } from '../../support/service';
import { eventually } from '../../support/eventually';

describe('organisation and families over HTTP (simulator → sync → organise → overrides)', () => {
  let sim: RunningSimulator;
  let svc: TestService;
  const events = async () => Number((await svc.db.pool.query(`SELECT count(*) AS n FROM es_events`)).rows[0].n);
  const sync = async (path: string, body?: unknown) => {
    const started = await svc.request('POST', path, body);
    return eventually(async () => {
      const r = await svc.request('GET', `/sync/runs/${started.body.runId}`);
      return r.body.state !== 'running' ? r.body : null;
    }, 60_000);
  };
  const familyOf = async (linkId: string) => (await svc.db.pool.query(`SELECT family_id FROM origin_goods WHERE id = $1`, [linkId])).rows[0].family_id as string | null;

  beforeAll(async () => {
    sim = await startSimulator({ links: 300, seed: 11 });
    svc = await startTestService({ env: { UPSTREAM_URL: sim.url } });
    for (const p of ['/sync/categories', '/sync/origin-goods', '/sync/details']) expect((await sync(p)).state).toBe('succeeded');
  });
  afterAll(async () => {
    await expectNoFailedProjections(svc);
    await svc.close();
    await sim.close();
  });

  it('organise parses, derives, groups and reports; a second run changes nothing', async () => {
    const r = await svc.request('POST', '/product-families/organize');
    expect(r.status).toBe(200);
    const report = r.body;
    const links = sim.catalog.links();
    expect(report.parsed + report.unparseable.length).toBe(links.length);
    expect(report.unparseable.length).toBeGreaterThan(0);
    expect(report.unparseable).toContainEqual({ id: expect.any(String), name: expect.not.stringMatching(/^.+（.+）/), problem: expect.objectContaining({ part: 'logistics' }) });
    expect(report.created).toBeGreaterThan(0);
    expect(report.derived).toBe(report.parsed);

    // docs/domain.md's example link: parsed columns and derived tags.
    const example = (await svc.request('GET', '/origin-goods/100001')).body;
    const row = (await svc.db.pool.query(`SELECT parsed_country, parsed_logistics, parsed_product_name, parsed_sku, tags FROM origin_goods WHERE id = 100001`)).rows[0];
    expect(row).toMatchObject({ parsed_country: '美国', parsed_logistics: '包邮', parsed_product_name: '纯棉短袖T恤', parsed_sku: 'G5000' });
    expect(row.tags).toMatchObject({ craft: ['直喷'], printCount: ['双面印花'], logistics: ['包邮'] });
    expect(example.id).toBe('100001');

    // Links of one product (same country + name + SKU, any logistics) share one family.
    const keys = await svc.db.pool.query(`SELECT family_name_key, count(DISTINCT family_id) AS families FROM origin_goods WHERE family_name_key IS NOT NULL GROUP BY 1`);
    expect(keys.rows.every((k) => Number(k.families) === 1)).toBe(true);
    const unparsedGrouped = await svc.db.pool.query(`SELECT count(*)::int AS n FROM origin_goods WHERE parsed_country IS NULL AND family_id IS NOT NULL`);
    expect(unparsedGrouped.rows[0].n).toBe(0);

    const before = await events();
    const again = (await svc.request('POST', '/product-families/organize')).body;
    expect(again).toMatchObject({ parsed: 0, derived: 0, attached: 0, created: 0, merged: 0, unchanged: links.length });
    expect(await events()).toBe(before);
  });

  it('a run with nothing to do skips links by their stamps, and still sees a changed input or output of any of them', async () => {
    const stamped = Number((await svc.db.pool.query(`SELECT count(*) AS n FROM link_plan_stamps`)).rows[0].n);
    const parseable = Number((await svc.db.pool.query(`SELECT count(*) AS n FROM origin_goods WHERE parsed_country IS NOT NULL`)).rows[0].n);
    expect(stamped).toBe(parseable);
    const row = async (id: string) => (await svc.db.pool.query(`SELECT tags, detail FROM origin_goods WHERE id = $1`, [id])).rows[0];
    // Two links far from the ones the later tests use.
    const [a, b] = (
      await svc.db.pool.query<{ id: string }>(
        `SELECT id FROM origin_goods WHERE parsed_country IS NOT NULL AND family_id IS NOT NULL AND NOT tags_manual AND detail IS NOT NULL ORDER BY id DESC LIMIT 2`,
      )
    ).rows.map((r) => r.id) as [string, string];
    const before = { a: await row(a), b: await row(b) };

    // An input changed by hand (a new colour in a's detail), and an output (b's tags): both planned again.
    await svc.db.pool.query(
      `UPDATE origin_goods SET detail = jsonb_set(detail, '{variants}', detail->'variants' || '[{"sku":"NEW","size":"M","color":"试验色","price":"99","stock":1}]') WHERE id = $1`,
      [a],
    );
    await svc.db.pool.query(`UPDATE origin_goods SET tags = jsonb_set(tags, '{craft}', '["试验工艺"]') WHERE id = $1`, [b]);
    expect((await svc.request('POST', '/product-families/organize')).body).toMatchObject({ parsed: 0, derived: 2, repaired: 0 });
    expect((await row(a)).tags.color).toEqual([...before.a.tags.color, '试验色']);
    expect((await row(b)).tags).toEqual(before.b.tags);
    expect((await svc.request('POST', '/product-families/organize')).body).toMatchObject({ parsed: 0, derived: 0 });

    // a's detail as the events have it again: its tags follow.
    await svc.db.pool.query(`UPDATE origin_goods SET detail = $2 WHERE id = $1`, [a, before.a.detail]);
    expect((await svc.request('POST', '/product-families/organize')).body).toMatchObject({ parsed: 0, derived: 1 });
    expect((await row(a)).tags).toEqual(before.a.tags);
  });

  it('each family row holds its matrix, unions and lowest price', async () => {
    const fid = (await familyOf('100001'))!;
    const f = (await svc.request('GET', `/product-families/${fid}`)).body;
    expect(f.memberCount).toBeGreaterThan(0);
    expect(f.priceMatrix.cells.length).toBeGreaterThan(0);
    expect(f.priceMatrix.crafts).toContain('直喷');
    expect(f.lowestPrice).toBe(f.priceMatrix.cells.map((c: { price: string }) => c.price).sort((a: string, b: string) => Number(a) - Number(b))[0]);
    expect(f.variants.length).toBeGreaterThan(0);
    const urls = Object.values(f.mediaByColor as Record<string, { url: string }[]>)
      .flat()
      .map((m) => m.url);
    expect(new Set(urls).size).toBe(urls.length);
  });

  it('a price override replaces a cell; a key outside the matrix is 400; history and ?at= show the change', async () => {
    const fid = (await familyOf('100001'))!;
    const f = (await svc.request('GET', `/product-families/${fid}`)).body;
    const cell = f.priceMatrix.cells[0];
    const beforeOverride = new Date();
    await new Promise((r) => setTimeout(r, 20));
    const put = await svc.request('PUT', `/product-families/${fid}/price-overrides`, { ...cell, price: '1.50' });
    expect(put.status).toBe(200);
    expect(put.body.priceMatrix.cells[0].price).toBe('1.50');
    expect(put.body.lowestPrice).toBe('1.50');
    const bad = await svc.request('PUT', `/product-families/${fid}/price-overrides`, { ...cell, craft: '刺绣', price: '2.00' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('FAMILY.OVERRIDE_KEY_INVALID');

    const history = (await svc.request('GET', `/product-families/${fid}/history`)).body.items;
    expect(history[0]).toMatchObject({ type: 'FamilyCreated', version: '0', why: 'Organise' });
    expect(history[history.length - 1]).toMatchObject({ type: 'FamilyPriceOverrideSet', why: 'SetPriceOverride', data: { price: '1.50' } });
    const then = (await svc.request('GET', `/product-families/${fid}/history?at=${beforeOverride.toISOString()}`)).body;
    expect(then.family.overrides).toEqual([]);
    expect(then.family.priceMatrix.cells[0].price).toBe(cell.price);
    expect(then.family.priceMatrix.cells).toEqual(f.priceMatrix.cells);

    const removed = await svc.request('DELETE', `/product-families/${fid}/price-overrides`, cell);
    expect(removed.body.priceMatrix.cells[0].price).toBe(cell.price);
  });

  it('a detail change of a family member makes its family recompute', async () => {
    const fid = (await familyOf('100001'))!;
    const before = (await svc.request('GET', `/product-families/${fid}`)).body;
    const link = sim.catalog.link('100001')!;
    sim.catalog.changeLink('100001', { price: '1.11' });
    // The detail's variant prices follow the link price in the simulator; re-sync detail and listing.
    expect((await sync('/sync/origin-goods')).counts.changed).toBe(1);
    await svc.request('POST', '/sync/origin-goods/100001/detail');
    const after = (await svc.request('GET', `/product-families/${fid}`)).body;
    expect(after).not.toEqual(before);
    expect(link.id).toBe('100001');
  });

  it('members: a link moves between families; locked families are left alone by organisation', async () => {
    const created = await svc.request('POST', '/product-families', { name: '手工家族' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ autoManaged: false, locked: true, memberCount: 0 });
    const fid = created.body.id;
    const from = (await familyOf('100002'))!;
    const moved = await svc.request('POST', `/product-families/${fid}/members`, { originGoodId: '100002' });
    expect(moved.status).toBe(201);
    expect(moved.body.memberCount).toBe(1);
    expect(await familyOf('100002')).toBe(fid);
    const history = (await svc.request('GET', `/product-families/${from}/history`)).body.items;
    expect(history[history.length - 1]).toMatchObject({ type: 'FamilyMemberRemoved', data: { linkId: '100002' } });
    // Organisation never touches it: the link stays where the administrator put it.
    await svc.request('POST', '/product-families/organize');
    expect(await familyOf('100002')).toBe(fid);
    expect((await svc.request('DELETE', `/product-families/${fid}`)).status).toBe(409);
    expect((await svc.request('DELETE', `/product-families/${fid}/members/100002`)).status).toBe(200);
    expect((await svc.request('DELETE', `/product-families/${fid}`)).status).toBe(204);
    expect((await svc.request('GET', `/product-families/${fid}`)).status).toBe(404);
    expect((await svc.request('GET', `/product-families/abc`)).status).toBe(400);
  });

  it('goods from links: normalised names, attribution to the link’s family, representative by priority', async () => {
    const fid = (await familyOf('100001'))!;
    const members = (await svc.db.pool.query(`SELECT id FROM origin_goods WHERE family_id = $1 ORDER BY id`, [fid])).rows.map((r) => r.id as string);
    const batch = await svc.request('POST', '/goods/batch', { originGoodIds: members });
    expect(batch.status).toBe(201);
    expect(batch.body.created).toHaveLength(members.length);
    const again = await svc.request('POST', '/goods/batch', { originGoodIds: [members[0]] });
    expect(again.body.skipped).toEqual([expect.objectContaining({ originGoodId: members[0], code: 'GOOD.EXISTS_FOR_LINK' })]);

    const good = (await svc.request('GET', `/goods/${batch.body.created[0]}`)).body;
    expect(good).toMatchObject({ name: '纯棉短袖T恤 G5000', familyId: fid, originGoodId: '100001', originGood: { family: { id: fid, memberCount: members.length } } });

    const family = (await svc.request('GET', `/product-families/${fid}`)).body;
    expect(family.goodCount).toBe(members.length);
    // Same priority: the newest, and among goods created in the same instant (one batch) the lowest id.
    const created = await Promise.all(batch.body.created.map(async (id: string) => (await svc.request('GET', `/goods/${id}`)).body as { id: string; createdAt: string }));
    const newest = created.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || (BigInt(a.id) < BigInt(b.id) ? -1 : 1))[0]!;
    expect(family.representativeGoodId).toBe(newest.id);
    const first = batch.body.created[0];
    const promoted = batch.body.created.find((id: string) => id !== newest.id);
    const patched = await svc.request('PATCH', `/goods/${promoted}`, { goodPriority: 10, name: 'G5000 纯棉短袖T恤' });
    expect(patched.body).toMatchObject({ goodPriority: 10, name: '纯棉短袖T恤 G5000' });
    expect((await svc.request('GET', `/product-families/${fid}`)).body.representativeGoodId).toBe(promoted);

    const list = await svc.request('GET', `/goods?familyId=${fid}&pageSize=1000`);
    expect(list.body).toMatchObject({ total: members.length, page: 1, pageSize: 1000 });
    expect(list.body.items[0].originGood.family.memberCount).toBe(members.length);
    expect((await svc.request('GET', '/goods?pageSize=1001')).status).toBe(400);

    // a link names the good made from it; one without a good says null
    expect((await svc.request('GET', `/origin-goods/${members[0]}`)).body.good).toEqual({ id: first, name: '纯棉短袖T恤 G5000' });
    const linked = (await svc.request('GET', `/origin-goods?familyId=${fid}&pageSize=1000`)).body.items as { id: string; good: { id: string } | null }[];
    expect(linked.map((l) => l.good?.id)).toEqual(members.map((m) => batch.body.created[members.indexOf(m)]));
    const bare = (await svc.db.pool.query(`SELECT id FROM origin_goods og WHERE NOT EXISTS (SELECT 1 FROM goods g WHERE g.origin_good_id = og.id) LIMIT 1`)).rows[0].id;
    expect((await svc.request('GET', `/origin-goods/${bare}`)).body.good).toBeNull();

    // ids=…: just those, in one request (a client naming what it shows)
    const two = [batch.body.created[1], batch.body.created[0]];
    const named = (await svc.request('GET', `/goods?ids=${two.join(',')}`)).body;
    expect(named.total).toBe(2);
    expect(named.items.map((g: { id: string }) => g.id).sort()).toEqual([...two].sort());
    const links = (await svc.request('GET', `/origin-goods?ids=${members[0]},${bare}`)).body;
    expect(links.items.map((l: { id: string }) => l.id).sort()).toEqual([members[0], bare].sort());
    expect(links.items[0]).not.toHaveProperty('detail'); // the bulk of a row is only in the single read
    expect((await svc.request('GET', `/origin-goods/${members[0]}`)).body).toHaveProperty('detail');
    for (const q of ['ids=1,x', `ids=${Array.from({ length: 1001 }, (_, i) => i + 1).join(',')}`]) {
      expect((await svc.request('GET', `/goods?${q}`)).status).toBe(400);
      expect((await svc.request('GET', `/origin-goods?${q}`)).status).toBe(400);
    }
  });

  it('a custom good as a custom member adds its cells; merged secondary origins add media', async () => {
    const fid = (await familyOf('100001'))!;
    const custom = await svc.request('POST', '/goods', { name: '定制款 (Gildan 5000) G5000', goodPriority: 0 });
    expect(custom.status).toBe(201);
    expect(custom.body).toMatchObject({ name: '定制款 G5000', originGoodId: null, familyId: null });
    // custom=true lists goods without a primary link only, custom=false the others
    const customOnly = (await svc.request('GET', '/goods?custom=true&pageSize=1000')).body;
    expect(customOnly.items.map((g: { id: string }) => g.id)).toContain(custom.body.id);
    expect(customOnly.items.every((g: { originGoodId: string | null }) => g.originGoodId === null)).toBe(true);
    const fromLinks = (await svc.request('GET', '/goods?custom=false&pageSize=1000')).body;
    expect(fromLinks.total).toBeGreaterThan(0);
    expect(fromLinks.items.every((g: { originGoodId: string | null }) => g.originGoodId !== null)).toBe(true);
    expect(customOnly.total + fromLinks.total).toBe((await svc.request('GET', '/goods?pageSize=1')).body.total);
    expect((await svc.request('GET', '/goods?custom=yes')).status).toBe(400);
    const tags = { size: ['XXL'], color: ['金色'], printCount: ['单面印花'], craft: ['刺绣'], logistics: ['包邮'] };
    const added = await svc.request('POST', `/product-families/${fid}/custom-members`, { goodId: custom.body.id, tags, price: '99.9' });
    expect(added.status).toBe(201);
    expect(added.body.priceMatrix.crafts).toContain('刺绣');
    expect(added.body.priceMatrix.cells).toContainEqual({ size: 'XXL', color: '金色', printCount: '单面印花', craft: '刺绣', logistics: '包邮', price: '99.90' });
    expect((await svc.request('GET', `/goods/${custom.body.id}`)).body.familyId).toBe(fid);

    const other = (await svc.db.pool.query(`SELECT id FROM origin_goods WHERE family_id IS DISTINCT FROM $1 AND detail IS NOT NULL AND NOT delisted LIMIT 1`, [fid])).rows[0].id;
    const good = (await svc.db.pool.query(`SELECT id FROM goods WHERE family_id = $1 AND origin_good_id IS NOT NULL LIMIT 1`, [fid])).rows[0].id;
    const before = (await svc.request('GET', `/product-families/${fid}`)).body.mediaByColor;
    const merged = await svc.request('PUT', `/goods/${good}/origins`, { secondaryOriginGoodIds: [other] });
    expect(merged.body.secondaryOriginGoodIds).toEqual([other]);
    const after = (await svc.request('GET', `/product-families/${fid}`)).body.mediaByColor;
    const count = (m: Record<string, unknown[]>) => Object.values(m).flat().length;
    expect(count(after)).toBeGreaterThan(count(before));
    expect((await svc.request('PUT', `/goods/${good}/origins`, { secondaryOriginGoodIds: ['123456789'] })).status).toBe(400);
  });

  it('organisation made a tag for every derived value, in its dimension’s group', async () => {
    const og = (await svc.request('GET', '/origin-goods/100001')).body;
    expect(og.tags).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: '直喷', dimension: 'craft' }),
        expect.objectContaining({ name: '双面印花', dimension: 'printCount' }),
        expect.objectContaining({ name: '包邮', dimension: 'logistics' }),
      ]),
    );
    expect(og.parsed).toEqual({ country: '美国', logistics: '包邮', productName: '纯棉短袖T恤', sku: 'G5000' });
  });

  it('updateTags takes the link over, fills missing dimension groups from the name, and organisation leaves it alone', async () => {
    const og = (await svc.request('GET', '/origin-goods/100001')).body;
    const hot = og.tags.find((t: { dimension: string }) => t.dimension === 'craft');
    // Only a craft given: size, colour, printCount and logistics are filled from the name and detail.
    const put = await svc.request('PUT', '/origin-goods/100001/tags', { tagIds: [hot.id] });
    expect(put.status).toBe(200);
    expect(put.body.tags.filter((t: { dimension: string }) => t.dimension === 'craft')).toEqual([hot]);
    const filledDims = new Set(put.body.filledDimensionTags.map((t: { dimension: string }) => t.dimension));
    expect(filledDims).toEqual(new Set(['size', 'color', 'printCount', 'logistics']));
    expect(put.body.attachedFamilyId).toBeNull(); // already a member
    const after = (await svc.request('GET', '/origin-goods/100001')).body;
    expect(after.tagsManual).toBe(true);

    // Organisation never overwrites manual tags: nothing lands on the link's stream.
    const linkEvents = async () => Number((await svc.db.pool.query(`SELECT count(*) AS n FROM es_events WHERE stream_id = 'link-100001'`)).rows[0].n);
    const before = await linkEvents();
    const report = (await svc.request('POST', '/product-families/organize')).body;
    expect(await linkEvents()).toBe(before);
    expect(report.derived).toBe(0);
    expect((await svc.request('GET', '/origin-goods/100001')).body.tags).toEqual(put.body.tags);

    const restored = await svc.request('POST', '/origin-goods/100001/tags/restore-auto');
    expect(restored.status).toBe(200);
    expect(restored.body.tagsManual).toBe(false);
    expect((await svc.request('PUT', '/origin-goods/100001/tags', { tagIds: ['42'] })).status).toBe(400);
  });

  it('origin goods show their revision; with a stale If-Match a tag write is 409 naming the origin good', async () => {
    const og = await svc.request('GET', '/origin-goods/100002');
    expect(og.headers.get('etag')).toBe(`"${og.body.revision}"`);
    const stale = { 'if-match': `"${Number(og.body.revision) - 1}"` };
    const before = Number((await svc.db.pool.query(`SELECT count(*) AS n FROM es_events`)).rows[0].n);
    for (const [method, path, body] of [
      ['POST', '/origin-goods/100002/tags/restore-auto', undefined],
      ['PUT', '/origin-goods/100002/tags', { tagIds: [] }],
    ] as const) {
      const r = await svc.request(method, path, body, stale);
      expect([path, r.status, r.body.error]).toEqual([
        path,
        409,
        expect.objectContaining({ code: 'EVENT_STORE.WRONG_REVISION', details: expect.objectContaining({ resource: 'origin good 100002' }) }),
      ]);
    }
    expect(Number((await svc.db.pool.query(`SELECT count(*) AS n FROM es_events`)).rows[0].n)).toBe(before);
    expect((await svc.request('POST', '/origin-goods/100002/tags/restore-auto', undefined, { 'if-match': `"${og.body.revision}"` })).status).toBe(200);
  });

  it('updateTags on a link without family attaches it to the matching family', async () => {
    const fid = (await familyOf('100001'))!;
    const key = (await svc.db.pool.query(`SELECT family_name_key FROM families WHERE id = $1`, [fid])).rows[0].family_name_key;
    const sibling = (await svc.db.pool.query(`SELECT id FROM origin_goods WHERE family_id = $1 AND id <> 100001 ORDER BY id LIMIT 1`, [fid])).rows[0]?.id;
    if (!sibling) throw new Error(`family ${fid} (${key}) has one member; the simulator always makes several`);
    await svc.request('DELETE', `/product-families/${fid}/members/${sibling}`);
    expect(await familyOf(sibling)).toBeNull();
    const craft = (await svc.request('GET', `/origin-goods/${sibling}`)).body.tags.find((t: { dimension: string }) => t.dimension === 'craft');
    const put = await svc.request('PUT', `/origin-goods/${sibling}/tags`, { tagIds: craft ? [craft.id] : [] });
    expect(put.body.attachedFamilyId).toBe(fid);
    expect(await familyOf(sibling)).toBe(fid);
  });

  it('trees and lists: goods by country and category with configuration counts; link statistics with secondary references', async () => {
    const tree = (await svc.request('GET', '/goods/tree')).body.items;
    const families = tree.flatMap((c: { categories: { items: { kind: string; configurationCount?: number; goods: unknown[] }[] }[] }) =>
      c.categories.flatMap((g) => g.items.filter((n) => n.kind === 'family')),
    );
    expect(families.length).toBeGreaterThan(0);
    for (const f of families) expect(f.configurationCount).toBe(f.goods.length);

    const stats = (await svc.request('GET', '/origin-goods/tree')).body.items;
    const total = (key: string) => stats.flatMap((c: { categories: Record<string, number>[] }) => c.categories).reduce((a: number, r: Record<string, number>) => a + r[key]!, 0);
    expect(total('links')).toBe(Number((await svc.db.pool.query(`SELECT count(*) AS n FROM origin_goods`)).rows[0].n));
    const secondary = Number((await svc.db.pool.query(`SELECT count(DISTINCT origin_good_id) AS n FROM good_origin_goods`)).rows[0].n);
    expect(secondary).toBeGreaterThan(0);
    expect(total('secondaryReferences')).toBe(secondary);
    expect(total('primaryReferences')).toBe(Number((await svc.db.pool.query(`SELECT count(*) AS n FROM goods WHERE origin_good_id IS NOT NULL`)).rows[0].n));

    const unorganised = await svc.request('GET', '/origin-goods?organised=false&pageSize=5');
    expect(unorganised.body.items.every((l: { parsed: unknown }) => l.parsed === null)).toBe(true);
    expect(unorganised.body.total).toBeGreaterThan(0);
    const fid = (await familyOf('100001'))!;
    const members = await svc.request('GET', `/origin-goods?familyId=${fid}`);
    expect(members.body.items.every((l: { family: { id: string } }) => l.family.id === fid)).toBe(true);
    expect((await svc.request('GET', '/origin-goods?organised=maybe')).status).toBe(400);
  });

  it('rebuilding the catalog projection from zero gives byte-identical rows', async () => {
    const snapshot = async () => {
      const out: Record<string, string> = {};
      for (const t of ['families', 'origin_goods', 'goods', 'family_overrides', 'family_custom_members', 'good_origin_goods', 'family_stamps']) {
        const r = await svc.db.pool.query(`SELECT md5(string_agg(x::text, '|' ORDER BY x::text)) AS h, count(*) AS n FROM ${t} x`);
        out[t] = `${r.rows[0].n}:${r.rows[0].h}`;
      }
      return out;
    };
    const before = await snapshot();
    const status = async () => (await svc.request('GET', '/projections')).body.items.find((p: { name: string }) => p.name === 'catalog');
    const previous = (await status()).lastRebuildAt;
    expect((await svc.request('POST', '/projections/catalog/rebuild')).status).toBe(202);
    await eventually(async () => {
      const st = await status();
      return st.state === 'running' && st.lastRebuildAt !== previous;
    }, 60_000);
    expect(await snapshot()).toEqual(before);
  });

  it('a second organisation while one runs gets 409', async () => {
    const [a, b] = await Promise.all([svc.request('POST', '/product-families/organize'), svc.request('POST', '/product-families/organize')]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
  });
});
