/** /categories over real HTTP: CRUD on the tree, icons inherited, living alongside the supplier mirror. */
import { startTestService, type TestService, expectNoFailedProjections } from '../../support/service';
import { eventually } from '../../support/eventually';

type Category = {
  id: string;
  parentId: string | null;
  name: string;
  icon: string | null;
  effectiveIcon: string | null;
  sortOrder: number;
  level: number;
  source: string;
  revision: string;
};

describe('administrators manage categories', () => {
  let svc: TestService;
  const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => svc.request(method, path, body, headers);
  const create = async (body: Record<string, unknown>) => {
    const r = await api('POST', '/categories', body);
    expect(r.status).toBe(201);
    return r.body as Category;
  };

  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(async () => {
    await expectNoFailedProjections(svc);
    await svc.close();
  });

  it('a created tree is in the very next read, with levels and inherited icons', async () => {
    const top = await create({ name: '服装', icon: 'https://img.example.com/clothes.png' });
    expect(top).toEqual({
      id: expect.stringMatching(/^\d+$/),
      parentId: null,
      name: '服装',
      icon: 'https://img.example.com/clothes.png',
      effectiveIcon: 'https://img.example.com/clothes.png',
      sortOrder: 0,
      level: 1,
      source: 'admin',
      revision: '0',
    });
    const middle = await create({ name: '上衣', parentId: top.id, icon: '', sortOrder: 2 });
    expect(middle).toMatchObject({ parentId: top.id, icon: null, effectiveIcon: 'https://img.example.com/clothes.png', level: 2, sortOrder: 2 });
    const style = await create({ name: 'T恤', parentId: middle.id });
    expect(style).toMatchObject({ level: 3, effectiveIcon: 'https://img.example.com/clothes.png' });
    expect((await api('GET', `/categories/${style.id}`)).body).toEqual(style);

    const children = await api('GET', `/categories?parentId=${top.id}`);
    expect(children.body).toEqual({ items: [middle], total: 1, page: 1, pageSize: 50 });
    expect((await api('GET', '/categories?parentId=root')).body.items.map((c: Category) => c.id)).toEqual([top.id]);
    expect((await api('GET', '/categories')).body.total).toBe(3);
  });

  it('update renames, re-icons, re-sorts and moves; the tree follows', async () => {
    const a = await create({ name: 'A', icon: 'https://img.example.com/a.png' });
    const b = await create({ name: 'B', icon: 'https://img.example.com/b.png' });
    const child = await create({ name: 'child', parentId: a.id });
    expect(child.effectiveIcon).toBe('https://img.example.com/a.png');
    const moved = await api('PATCH', `/categories/${child.id}`, { parentId: b.id, name: ' child  moved ', sortOrder: 7 });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ parentId: b.id, name: 'child moved', sortOrder: 7, effectiveIcon: 'https://img.example.com/b.png', level: 2, revision: '1' });
    const own = await api('PATCH', `/categories/${child.id}`, { icon: 'https://img.example.com/own.png' });
    expect(own.body).toMatchObject({ icon: 'https://img.example.com/own.png', effectiveIcon: 'https://img.example.com/own.png' });
    const top = await api('PATCH', `/categories/${child.id}`, { parentId: null });
    expect(top.body).toMatchObject({ parentId: null, level: 1 });
  });

  it('a move under itself or its own descendant is 400 CATEGORY.PARENT_CYCLE; an unknown parent is 400', async () => {
    const a = await create({ name: 'cycle A' });
    const b = await create({ name: 'cycle B', parentId: a.id });
    const c = await create({ name: 'cycle C', parentId: b.id });
    for (const parentId of [a.id, c.id]) {
      const r = await api('PATCH', `/categories/${a.id}`, { parentId });
      expect([parentId, r.status, r.body.error.code]).toEqual([parentId, 400, 'CATEGORY.PARENT_CYCLE']);
    }
    const unknown = await api('POST', '/categories', { name: 'orphan', parentId: '1125899906842628999' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 'UNKNOWN_REFERENCE', details: { field: 'parentId', missing: ['1125899906842628999'] } });
  });

  it('a category with children cannot be deleted (409); a leaf can, and is gone from reads', async () => {
    const parent = await create({ name: 'parent' });
    const leaf = await create({ name: 'leaf', parentId: parent.id });
    const refused = await api('DELETE', `/categories/${parent.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('CATEGORY.HAS_CHILDREN');
    expect((await api('DELETE', `/categories/${leaf.id}`)).status).toBe(204);
    expect((await api('GET', `/categories/${leaf.id}`)).status).toBe(404);
    expect((await api('DELETE', `/categories/${parent.id}`)).status).toBe(204);
    expect((await api('GET', `/categories?parentId=${parent.id}`)).body.total).toBe(0);
    // A deleted category cannot be a parent.
    expect((await api('POST', '/categories', { name: 'late', parentId: parent.id })).body.error.code).toBe('UNKNOWN_REFERENCE');
  });

  it('mirrored supplier categories take admin edits; a later sync of the unchanged supplier keeps them and the admin-made ones', async () => {
    const mine = await create({ name: 'mine' });
    const sync = async () => {
      const started = await api('POST', '/sync/categories');
      expect(started.status).toBe(202);
      return eventually(async () => {
        const run = await api('GET', `/sync/runs/${started.body.runId}`);
        return run.body.state !== 'running' ? run.body : null;
      }, 60_000);
    };
    expect((await sync()).state).toBe('succeeded');
    const mirrored = ((await api('GET', '/categories?pageSize=1000')).body.items as Category[]).filter((c) => c.source === 'supplier');
    expect(mirrored.length).toBeGreaterThan(0);
    const target = mirrored.find((c) => c.parentId !== null)!;
    const edited = await api('PATCH', `/categories/${target.id}`, { name: 'renamed by admin', sortOrder: 999 });
    expect(edited.status).toBe(200);
    const under = await create({ name: 'under a supplier category', parentId: target.id });

    const again = await sync();
    expect(again.state).toBe('succeeded');
    expect(again.counts).toMatchObject({ changed: 0, delisted: 0 });
    expect((await api('GET', `/categories/${target.id}`)).body).toMatchObject({ name: 'renamed by admin', sortOrder: 999 });
    expect((await api('GET', `/categories/${mine.id}`)).status).toBe(200);
    expect((await api('GET', `/categories/${under.id}`)).body).toMatchObject({ parentId: target.id, level: target.level + 1 });
  });

  describe("PATCH /categories/sort: one parent's full new order in one request", () => {
    const children = async (parentId: string) => ((await api('GET', `/categories?parentId=${parentId}`)).body.items as Category[]).map((c) => c.id);
    const treeOrder = async () => (await svc.request('GET', '/public/tree-order')).body as { categories: Record<string, string[]> };

    it("saves the order as one CategoriesReordered on the parent's order stream; lists and /public/tree-order follow at once", async () => {
      const parent = await create({ name: 'sorted parent' });
      const [a, b, c] = [await create({ name: 'a', parentId: parent.id }), await create({ name: 'b', parentId: parent.id }), await create({ name: 'c', parentId: parent.id })];
      expect(await children(parent.id)).toEqual([a.id, b.id, c.id]);
      const before = (await treeOrder()).categories;
      const r = await api('PATCH', '/categories/sort', { parentId: parent.id, ids: [c.id, a.id, b.id] });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ parentId: parent.id, ids: [c.id, a.id, b.id] });
      expect(await children(parent.id)).toEqual([c.id, a.id, b.id]);
      expect((await api('GET', `/categories/${a.id}`)).body.sortOrder).toBe(1);
      const events = await svc.db.pool.query(`SELECT stream_id, data FROM es_events WHERE type = 'CategoriesReordered'`);
      expect(events.rows).toEqual([{ stream_id: `category-order-${parent.id}`, data: { parentId: parent.id, categoryIds: [c.id, a.id, b.id] } }]);
      // the public tree order (through the cache) shows it in the very next read, other parents untouched
      const after = (await treeOrder()).categories;
      expect(before[parent.id]).toEqual([a.id, b.id, c.id]);
      expect(after[parent.id]).toEqual([c.id, a.id, b.id]);
      for (const [k, v] of Object.entries(before)) if (k !== parent.id) expect(after[k]).toEqual(v);
      // the same order again appends nothing
      expect((await api('PATCH', '/categories/sort', { parentId: parent.id, ids: [c.id, a.id, b.id] })).status).toBe(200);
      expect((await svc.db.pool.query(`SELECT count(*)::int AS n FROM es_events WHERE type = 'CategoriesReordered'`)).rows[0].n).toBe(1);
    });

    it('the top level is parentId null', async () => {
      const roots = await children('root');
      expect(roots.length).toBeGreaterThan(1);
      const reversed = [...roots].reverse();
      expect((await api('PATCH', '/categories/sort', { parentId: null, ids: reversed })).status).toBe(200);
      expect(await children('root')).toEqual(reversed);
    });

    it("a single sortOrder edit after a reorder lands, even back to the value the category's own stream last recorded", async () => {
      const parent = await create({ name: 'edit after reorder' });
      const a = await create({ name: 'a', parentId: parent.id }); // its stream records sortOrder 0
      const b = await create({ name: 'b', parentId: parent.id });
      expect((await api('PATCH', '/categories/sort', { parentId: parent.id, ids: [b.id, a.id] })).status).toBe(200);
      expect((await api('GET', `/categories/${a.id}`)).body.sortOrder).toBe(1);
      const back = await api('PATCH', `/categories/${a.id}`, { sortOrder: 0 });
      expect(back.status).toBe(200);
      expect(back.body.sortOrder).toBe(0);
      expect((await api('GET', `/categories/${a.id}`)).body.sortOrder).toBe(0);
    });

    it("an order that is not exactly the parent's live children is 400 CATEGORIES.NOT_A_PERMUTATION and changes nothing; an unknown parent is 404", async () => {
      const parent = await create({ name: 'strict parent' });
      const [a, b] = [await create({ name: 'x', parentId: parent.id }), await create({ name: 'y', parentId: parent.id })];
      const elsewhere = await create({ name: 'elsewhere' });
      for (const [ids, details] of [
        [[a.id], { missing: [b.id], unknown: [], duplicated: [] }],
        [[a.id, b.id, elsewhere.id], { missing: [], unknown: [elsewhere.id], duplicated: [] }],
        [[b.id, a.id, b.id], { missing: [], unknown: [], duplicated: [b.id] }],
      ] as const) {
        const r = await api('PATCH', '/categories/sort', { parentId: parent.id, ids });
        expect(r.status).toBe(400);
        expect(r.body.error).toMatchObject({ code: 'CATEGORIES.NOT_A_PERMUTATION', details });
      }
      // a deleted child no longer counts
      const c = await create({ name: 'z', parentId: parent.id });
      expect((await api('DELETE', `/categories/${c.id}`)).status).toBe(204);
      expect((await api('PATCH', '/categories/sort', { parentId: parent.id, ids: [b.id, a.id] })).status).toBe(200);
      expect(await children(parent.id)).toEqual([b.id, a.id]);

      const unknown = await api('PATCH', '/categories/sort', { parentId: '1125899906842628997', ids: [] });
      // The parent is a reference of the body, not the path's resource.
      expect([unknown.status, unknown.body.error.code, unknown.body.error.details]).toEqual([400, 'UNKNOWN_REFERENCE', { field: 'parentId', missing: ['1125899906842628997'] }]);
      for (const body of [{ ids: [a.id] }, { parentId: parent.id }, { parentId: 'top', ids: [] }, { parentId: parent.id, ids: [a.id], extra: 1 }]) {
        expect((await api('PATCH', '/categories/sort', body)).status).toBe(400);
      }
    });
  });

  it('unknown ids are 404 CATEGORY.NOT_FOUND; malformed ids are 400; bodies are strict; pageSize 1001 is 400; stale If-Match is 409', async () => {
    const unknown = '1125899906842628998';
    for (const [method, body] of [['GET'], ['PATCH', { name: 'x' }], ['DELETE']] as const) {
      const r = await api(method, `/categories/${unknown}`, body);
      expect([method, r.status, r.body.error.code]).toEqual([method, 404, 'CATEGORY.NOT_FOUND']);
      const bad = await api(method, '/categories/0x10', body);
      expect([method, bad.status, bad.body.error.code]).toEqual([method, 400, 'INVALID_ID']);
    }
    for (const body of [{}, { name: 'x', level: 1 }, { name: 'x', parentId: 'abc' }, { name: 'x', sortOrder: '1' }]) {
      expect((await api('POST', '/categories', body)).status).toBe(400);
    }
    expect((await api('GET', '/categories?pageSize=1001')).status).toBe(400);
    expect((await api('GET', '/categories?parentId=top')).status).toBe(400);
    const c = await create({ name: 'rev' });
    await api('PATCH', `/categories/${c.id}`, { name: 'rev 2' });
    const stale = await api('PATCH', `/categories/${c.id}`, { name: 'rev 3' }, { 'if-match': '0' });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('EVENT_STORE.WRONG_REVISION');
  });
});
