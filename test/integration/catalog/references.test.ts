/**
 * References stay valid (docs/api.md, Usage): a country, category or tag that goods or links use is
 * not deleted (409 with the counts), a deleted good leaves the positions and families that list it in
 * the same command, and a usage endpoint gives the same counts beforehand. Over real HTTP, against
 * the supplier simulator for the links.
 */
import { startSimulator, type RunningSimulator } from '../../../src/sync/simulator';
import { eventually } from '../../support/eventually';
import { expectNoFailedProjections, startTestService, type TestService } from '../../support/service';

describe('deleting what is still referenced', () => {
  let sim: RunningSimulator;
  let svc: TestService;
  const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => svc.request(method, path, body, headers);
  const events = async () => Number((await svc.db.pool.query(`SELECT count(*) AS n FROM es_events`)).rows[0].n);
  const ok = async <T = any>(method: string, path: string, body?: unknown): Promise<T> => {
    const r = await api(method, path, body);
    if (r.status >= 300) throw new Error(`${method} ${path} → ${r.status} ${JSON.stringify(r.body)}`);
    return r.body as T;
  };
  const sync = async (path: string) => {
    const started = await api('POST', path);
    return eventually(async () => {
      const r = await api('GET', `/sync/runs/${started.body.runId}`);
      return r.body.state !== 'running' ? r.body : null;
    }, 60_000);
  };

  beforeAll(async () => {
    sim = await startSimulator({ links: 120, seed: 5 });
    svc = await startTestService({ env: { UPSTREAM_URL: sim.url } });
    for (const p of ['/sync/categories', '/sync/origin-goods', '/sync/details']) expect((await sync(p)).state).toBe('succeeded');
    expect((await api('POST', '/product-families/organize')).status).toBe(200);
  });
  afterAll(async () => {
    await expectNoFailedProjections(svc);
    await svc.close();
    await sim.close();
  });

  it('a country, category and tag a good uses: usage counts it, the delete is 409 IN_USE with the same counts and appends nothing; once unused, 204', async () => {
    const country = await ok('POST', '/countries', { name: '测试国', code: 'TQ' });
    const category = await ok('POST', '/categories', { name: '测试类目', parentId: null });
    const group = await ok('POST', '/tag-groups', { name: '测试标签组' });
    const tag = await ok('POST', '/tags', { name: '测试标签', groupId: group.id });
    const good = await ok('POST', '/goods', { name: '引用 G5000', countryId: country.id, categoryId: category.id, tagIds: [tag.id] });

    for (const [path, code, counts] of [
      [`/countries/${country.id}`, 'COUNTRY.IN_USE', { goods: 1, links: 0, families: 0 }],
      [`/categories/${category.id}`, 'CATEGORY.IN_USE', { children: 0, goods: 1, links: 0, families: 0 }],
      [`/tags/${tag.id}`, 'TAG.IN_USE', { goods: 1, links: 0, families: 0 }],
    ] as const) {
      const usage = await ok('GET', `${path}/usage`);
      expect([path, usage]).toEqual([path, { counts, blockedBy: ['goods'] }]);
      const before = await events();
      const del = await api('DELETE', path);
      expect([path, del.status, del.body.error?.code]).toEqual([path, 409, code]);
      expect(del.body.error.details).toEqual(usage);
      expect(del.body.error.message).toMatch(/used by 1 goods/);
      expect(await events()).toBe(before);
    }
    expect((await ok('GET', `/tag-groups/${group.id}/usage`)).counts).toEqual({ tags: 1, goods: 1, links: 0, families: 0 });

    await ok('PATCH', `/goods/${good.id}`, { countryId: null, categoryId: null, tagIds: [] });
    for (const path of [`/countries/${country.id}`, `/categories/${category.id}`, `/tags/${tag.id}`]) {
      expect((await ok('GET', `${path}/usage`)).blockedBy).toEqual([]);
      expect([path, (await api('DELETE', path)).status]).toEqual([path, 204]);
    }
    expect((await api('GET', `/tags/${tag.id}/usage`)).status).toBe(404);
  });

  it('a supplier category links are filed under, and a dimension tag links carry, are refused with the links counted', async () => {
    const used = (await svc.db.pool.query(`SELECT category_id::text AS id, count(*)::int AS n FROM origin_goods GROUP BY category_id ORDER BY n DESC LIMIT 1`)).rows[0];
    const usage = await ok('GET', `/categories/${used.id}/usage`);
    expect(usage.counts.links).toBe(used.n);
    expect(usage.blockedBy).toContain('links');
    expect((await api('DELETE', `/categories/${used.id}`)).body.error.code).toBe('CATEGORY.IN_USE');

    // A logistics tag organisation derived: the links that carry it count, by its name in its dimension.
    const tag = (
      await svc.db.pool.query(
        `SELECT t.id::text AS id, t.name FROM tags t JOIN tag_groups g ON g.id = t.group_id WHERE g.dimension = 'logistics' AND NOT t.deleted ORDER BY t.id LIMIT 1`,
      )
    ).rows[0];
    const carrying = Number((await svc.db.pool.query(`SELECT count(*) AS n FROM origin_goods WHERE tags -> 'logistics' ? $1`, [tag.name])).rows[0].n);
    expect(carrying).toBeGreaterThan(0);
    const tagUsage = await ok('GET', `/tags/${tag.id}/usage`);
    expect(tagUsage).toEqual({ counts: { goods: 0, links: carrying, families: 0 }, blockedBy: ['links'] });
    const del = await api('DELETE', `/tags/${tag.id}`);
    expect([del.status, del.body.error.code]).toEqual([409, 'TAG.IN_USE']);
  });

  it('a deleted good leaves every position and family that lists it, in one append, and its link can make a new good', async () => {
    const linkId = (await svc.db.pool.query(`SELECT id::text FROM origin_goods WHERE family_id IS NOT NULL ORDER BY id LIMIT 1`)).rows[0].id;
    const fromLink = await ok('POST', '/goods', { originGoodId: linkId });
    const custom = await ok('POST', '/goods', { name: '定制 TB01' });
    const family = await ok('POST', '/product-families', { name: '定制系列' });
    await ok('POST', `/product-families/${family.id}/custom-members`, {
      goodId: custom.id,
      tags: { size: ['M'], color: ['白色'], printCount: ['单面印花'], craft: ['烫画'], logistics: ['包邮'] },
      price: '19.90',
    });
    const home = await ok('POST', '/positions', { name: '首页', goodIds: [fromLink.id, custom.id] });
    const other = await ok('POST', '/positions', { name: '热卖', goodIds: [custom.id] });

    expect(await ok('GET', `/goods/${custom.id}/usage`)).toEqual({ counts: { positions: 2, customMemberOf: 1, familyGoods: 1 }, blockedBy: [] });
    expect((await api('DELETE', `/goods/${custom.id}`)).status).toBe(204);
    // One append: the good's, both positions' and the family's events carry one transaction id.
    const appended = await svc.db.pool.query<{ stream_id: string; tx_id: string }>(
      `SELECT stream_id, tx_id::text FROM es_events WHERE metadata->>'why' = 'DeleteGood' ORDER BY seq`,
    );
    expect(new Set(appended.rows.map((r) => r.tx_id)).size).toBe(1);
    expect(appended.rows.map((r) => r.stream_id).sort()).toEqual([`family-${family.id}`, `good-${custom.id}`, `position-${home.id}`, `position-${other.id}`].sort());
    expect((await ok('GET', `/positions/${home.id}`)).goodIds).toEqual([fromLink.id]);
    expect((await ok('GET', `/positions/${other.id}`)).goodIds).toEqual([]);
    expect((await ok('GET', `/product-families/${family.id}`)).customMembers).toEqual([]);
    const dangling = await svc.db.pool.query(
      `SELECT 'position' AS k FROM position_goods WHERE good_id = $1 UNION ALL SELECT 'custom' FROM family_custom_members WHERE good_id = $1`,
      [custom.id],
    );
    expect(dangling.rows).toEqual([]);

    expect((await api('DELETE', `/goods/${fromLink.id}`)).status).toBe(204);
    expect((await ok('GET', `/positions/${home.id}`)).goodIds).toEqual([]);
    expect((await api('POST', '/goods', { originGoodId: linkId })).status).toBe(201);
  });

  it('a write naming a category never lands after its delete: racing a good’s move into it with the delete leaves no dangling id', async () => {
    for (let round = 0; round < 6; round++) {
      const category = await ok('POST', '/categories', { name: `竞争类目 ${round}`, parentId: null });
      const good = await ok('POST', '/goods', { name: `竞争 G${5000 + round}` });
      const [patch, del] = await Promise.all([api('PATCH', `/goods/${good.id}`, { categoryId: category.id }), api('DELETE', `/categories/${category.id}`)]);
      const row = (
        await svc.db.pool.query(`SELECT g.category_id::text AS c, cat.removed FROM goods g LEFT JOIN categories cat ON cat.id = g.category_id WHERE g.id = $1`, [good.id])
      ).rows[0];
      // Either the move won (the delete then found the good: 409) or the delete did (the move then named nothing: 400).
      if (del.status === 204) {
        expect([round, patch.status, patch.body.error?.code, row.c]).toEqual([round, 400, 'UNKNOWN_REFERENCE', null]);
      } else {
        expect([round, patch.status, del.status, del.body.error.code, row.c, row.removed]).toEqual([round, 200, 409, 'CATEGORY.IN_USE', category.id, false]);
      }
    }
  });

  it('usage of a family counts what refuses its delete', async () => {
    const linkId = (await svc.db.pool.query(`SELECT id::text, family_id::text FROM origin_goods WHERE family_id IS NOT NULL ORDER BY id DESC LIMIT 1`)).rows[0];
    const usage = await ok('GET', `/product-families/${linkId.family_id}/usage`);
    expect(usage.counts.members).toBeGreaterThan(0);
    expect(usage.blockedBy).toContain('members');
    expect((await api('GET', '/product-families/1125899906842627999/usage')).status).toBe(404);
  });
});
