/**
 * References that synchronisation, organisation and administrators' writes add stay valid
 * (docs/api.md, Usage): a delete of a category, country or tag racing a listing page that files a
 * link under it, a categories pass that files a subcategory under it, an organisation chunk that
 * parses a link to it or derives it, an administrator's edit of a link's tags that names it, or a
 * good that copies it from its link, either counts that use (409) or leaves nothing naming it. The
 * race is made deterministic at the event store: the write is stepped into just before its append,
 * the delete is let run until it has counted the uses and is about to append its own event (or until
 * it cannot, because the write holds the id's lock shared), then the write appends and the delete
 * goes on.
 */
import type { RunningSimulator } from '../../../src/sync/simulator';
import { referenceLock, type ReferenceKind } from '../../../src/catalog/references';
import { sessionLockHeld } from '../../../src/platform/locks';
import { adminApi, startOrganisedCatalog } from '../../support/admin-api';
import { beforeAppendTo, holdAppendTo } from '../../support/before-append';
import type { TestService } from '../../support/service';

jest.setTimeout(180_000);

describe('deletes racing synchronisation and organisation', () => {
  let sim: RunningSimulator;
  let svc: TestService;
  const { api, ok, sync } = adminApi(() => svc);
  const query = async <T = any>(sql: string, params: unknown[] = []) => (await svc.db.pool.query(sql, params)).rows as T[];
  /** The log position of the first event of this type on the stream (null: none). */
  const seqOf = async (streamId: string, type: string) =>
    ((await query<{ seq: string | null }>(`SELECT min(seq)::text AS seq FROM es_events WHERE stream_id = $1 AND type = $2`, [streamId, type]))[0]!.seq ?? null) as string | null;
  /** Supplier categories without subcategories that nothing uses yet. */
  const unusedCategories = async () =>
    (
      await query<{ id: string }>(
        `SELECT c.id::text FROM categories c
          WHERE NOT c.removed AND c.mirror_hash IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM categories k WHERE k.parent_id = c.id AND NOT k.removed)
            AND NOT EXISTS (SELECT 1 FROM origin_goods og WHERE og.category_id = c.id)
            AND NOT EXISTS (SELECT 1 FROM goods g WHERE g.category_id = c.id)
          ORDER BY c.id`,
      )
    ).map((r) => r.id);

  /**
   * Runs `write` (a synchronisation, an organisation, an administrator's request) and, just before
   * its append to `writes` (one carrying `carrying`), the delete of `kind` `id`: the write waits
   * until the delete has counted and is held before appending `deletes`, or until the id's lock is
   * seen held shared, by the write (the delete cannot count until the write has appended). Answers
   * the delete's answer and what `write` answered.
   */
  async function race<W>(o: {
    write: () => Promise<W>;
    writes: { streamId: string; carrying: string[] };
    /** done first, once the write is about to append */
    first?: () => Promise<unknown>;
    kind: ReferenceKind;
    id: string;
    path: string;
    deletes: { streamId: string; carrying: string[] };
  }): Promise<{ written: W; deleted: { status: number; body: any } }> {
    const held = holdAppendTo(svc.services.store, o.deletes.streamId, o.deletes.carrying);
    const deleting: { answer?: Promise<{ status: number; body: any }> } = {};
    const hook = beforeAppendTo(svc.services.store, {
      ...o.writes,
      meanwhile: async () => {
        await o.first?.();
        deleting.answer = api('DELETE', o.path);
        let settled = false;
        const blocked = (async () => {
          while (!settled && !(await sessionLockHeld(svc.db.pool, referenceLock(o.kind, o.id), { shared: true }))) await new Promise((r) => setTimeout(r, 20));
        })();
        await Promise.race([held.reached, blocked]);
        settled = true;
      },
    });
    let written: W;
    try {
      written = await o.write();
    } finally {
      hook.restore();
      held.release();
      held.restore();
    }
    expect(hook.taken()).toBe(1);
    return { written, deleted: await deleting.answer! };
  }

  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ sim, svc, close } = await startOrganisedCatalog({ links: 60, seed: 7 }));
  });
  afterAll(() => close());

  it('a category delete racing a listing page that files a new link under it: the delete counts the link, or the link is not filed under it', async () => {
    const [categoryId] = await unusedCategories();
    const linkId = sim.catalog.addLink({ name: '美国（包邮）竞争短袖T恤 RC100 直喷', categoryId: categoryId!, price: '30.00' }).id;
    const { written, deleted } = await race({
      write: () => sync('/sync/origin-goods'),
      writes: { streamId: `link-${linkId}`, carrying: ['LinkMirrored'] },
      kind: 'category',
      id: categoryId!,
      path: `/categories/${categoryId}`,
      deletes: { streamId: `category-${categoryId}`, carrying: ['CategoryDeleted'] },
    });
    expect(written.state).toBe('succeeded');
    const filed = await query(`SELECT og.id::text FROM origin_goods og JOIN categories c ON c.id = og.category_id WHERE c.removed AND og.id = $1`, [linkId]);
    expect(filed).toEqual([]);
    if (deleted.status === 204) {
      expect(written.errors).toContainEqual({ item: linkId, message: expect.stringMatching(new RegExp(`category ${categoryId}`)) });
    } else {
      expect([deleted.status, deleted.body.error.code, deleted.body.error.details.counts.links]).toEqual([409, 'CATEGORY.IN_USE', 1]);
      expect((await query(`SELECT category_id::text AS c FROM origin_goods WHERE id = $1`, [linkId]))[0].c).toBe(categoryId);
    }
  });

  it('a listing page after a category’s delete does not file a link under it: the run says so; once a categories pass lists it again, the next page files it', async () => {
    const [categoryId] = await unusedCategories();
    expect((await api('DELETE', `/categories/${categoryId}`)).status).toBe(204);
    const linkId = sim.catalog.addLink({ name: '美国（包邮）竞争长袖T恤 RC110 直喷', categoryId: categoryId!, price: '31.00' }).id;
    const run = await sync('/sync/origin-goods');
    expect(run.state).toBe('succeeded');
    expect(run.counts.failed).toBeGreaterThanOrEqual(1);
    expect(run.errors).toContainEqual({ item: linkId, message: expect.stringMatching(new RegExp(`category ${categoryId}`)) });
    expect(await query(`SELECT id FROM origin_goods WHERE id = $1`, [linkId])).toEqual([]);

    // The supplier still lists the category: the next categories pass brings it back, and the link follows.
    expect((await sync('/sync/categories')).state).toBe('succeeded');
    expect((await query(`SELECT removed FROM categories WHERE id = $1`, [categoryId]))[0].removed).toBe(false);
    const again = await sync('/sync/origin-goods');
    expect(again.errors.filter((e: { item?: string }) => e.item === linkId)).toEqual([]);
    expect((await query(`SELECT category_id::text AS c FROM origin_goods WHERE id = $1`, [linkId]))[0].c).toBe(categoryId);
  });

  /**
   * A new link named `name`, synchronised, then an organisation whose chunk appending its parse and
   * tags to it (its LinkOrganised) races the delete of the country or tag `id`: the delete counts the
   * link (409), or comes first in the log. Answers the delete's status and the link.
   */
  async function organiseRacingDelete(kind: 'country' | 'tag', id: string, name: string) {
    const carrying = 'LinkOrganised';
    const linkId = sim.catalog.addLink({ name, categoryId: sim.catalog.links()[0]!.categoryId, price: '35.00' }).id;
    expect((await sync('/sync/origin-goods')).counts).toMatchObject({ created: 1 });
    const [path, deletedType, inUse] = kind === 'country' ? ['countries', 'CountryDeleted', 'COUNTRY.IN_USE'] : ['tags', 'TagDeleted', 'TAG.IN_USE'];
    const { deleted } = await race({
      write: () => ok('POST', '/product-families/organize'),
      writes: { streamId: `link-${linkId}`, carrying: [carrying] },
      kind,
      id,
      path: `/${path}/${id}`,
      deletes: { streamId: `${kind}-${id}`, carrying: [deletedType] },
    });
    if (deleted.status === 204) expect(BigInt((await seqOf(`link-${linkId}`, carrying))!) > BigInt((await seqOf(`${kind}-${id}`, deletedType))!)).toBe(true);
    else expect([deleted.status, deleted.body.error.code, deleted.body.error.details.counts.links]).toEqual([409, inUse, 1]);
    return { status: deleted.status, linkId };
  }

  it('a country delete racing the organisation chunk that parses a link to it: the delete counts the link, or comes before it', async () => {
    const country = await ok('POST', '/countries', { name: '竞争国', code: 'RQ' });
    const { linkId } = await organiseRacingDelete('country', country.id, '竞争国（包邮）竞争卫衣 RC200 直喷');
    // Deleted first or not, the link is parsed to the name (none live has it after a delete).
    expect((await query(`SELECT parsed_country AS c FROM origin_goods WHERE id = $1`, [linkId]))[0].c).toBe('竞争国');
  });

  it('a tag delete racing the organisation chunk that derives it for a link: the delete counts the link, or the value keeps a live tag', async () => {
    const group = (await query<{ id: string }>(`SELECT id::text FROM tag_groups WHERE dimension = 'logistics' AND NOT deleted`))[0]!;
    const tag = await ok('POST', '/tags', { name: '竞争物流', groupId: group.id });
    const { status, linkId } = await organiseRacingDelete('tag', tag.id, '美国（竞争物流）竞争短裤 RC300 直喷');
    expect((await query(`SELECT tags -> 'logistics' AS l FROM origin_goods WHERE id = $1`, [linkId]))[0].l).toEqual(['竞争物流']);
    const live = await query<{ id: string }>(
      `SELECT t.id::text FROM tags t JOIN tag_groups g ON g.id = t.group_id WHERE NOT t.deleted AND NOT g.deleted AND g.dimension = 'logistics' AND t.name = '竞争物流'`,
    );
    // Deleted first, the value the link carries got a tag of its own again.
    expect(live.map((t) => t.id === tag.id)).toEqual([status !== 204]);
  });

  /** A live tag of this dimension's group, created by the test. */
  const newTag = async (dimension: string, name: string): Promise<{ id: string }> => {
    const group = (await query<{ id: string }>(`SELECT id::text FROM tag_groups WHERE dimension = $1 AND NOT deleted`, [dimension]))[0]!;
    return ok('POST', '/tags', { name, groupId: group.id });
  };
  /** The live tags of a dimension of this name. */
  const liveTags = async (dimension: string, name: string) =>
    (
      await query<{ id: string }>(
        `SELECT t.id::text FROM tags t JOIN tag_groups g ON g.id = t.group_id WHERE NOT t.deleted AND NOT g.deleted AND g.dimension = $1 AND t.name = $2`,
        [dimension, name],
      )
    ).map((t) => t.id);
  const linkTags = async (linkId: string, dimension: string) => (await query(`SELECT tags -> $2 AS v FROM origin_goods WHERE id = $1`, [linkId, dimension]))[0].v;

  it('a tag delete racing an administrator’s edit of a link’s tags that chooses it: the delete counts the link, or the edit is refused', async () => {
    const tag = await newTag('craft', '竞争工艺');
    const linkId = sim.catalog.links()[1]!.id;
    const { written, deleted } = await race({
      write: () => api('PUT', `/origin-goods/${linkId}/tags`, { tagIds: [tag.id] }),
      writes: { streamId: `link-${linkId}`, carrying: ['LinkTagsTakenOver'] },
      kind: 'tag',
      id: tag.id,
      path: `/tags/${tag.id}`,
      deletes: { streamId: `tag-${tag.id}`, carrying: ['TagDeleted'] },
    });
    if (deleted.status === 204) {
      expect(written.status).toBe(400);
      expect(await linkTags(linkId, 'craft')).not.toContain('竞争工艺');
    } else {
      expect([deleted.status, deleted.body.error.code, deleted.body.error.details.counts.links]).toEqual([409, 'TAG.IN_USE', 1]);
      expect([written.status, await linkTags(linkId, 'craft')]).toEqual([200, ['竞争工艺']]);
    }
  });

  it('a tag delete racing the restore of a link’s derived tags that names it: the delete counts the link, or the value keeps a live tag', async () => {
    const linkId = sim.catalog.addLink({ name: '美国（竞争快递）竞争背心 RC400 直喷', categoryId: sim.catalog.links()[0]!.categoryId, price: '36.00' }).id;
    expect((await sync('/sync/origin-goods')).counts).toMatchObject({ created: 1 });
    await ok('POST', '/product-families/organize');
    const [derived] = await liveTags('logistics', '竞争快递');
    // Taken over with another logistics tag: the derived value leaves the link, and nothing uses its tag.
    const other = await newTag('logistics', '竞争慢递');
    await ok('PUT', `/origin-goods/${linkId}/tags`, { tagIds: [other.id] });
    expect((await ok('GET', `/tags/${derived}/usage`)).counts.links).toBe(0);
    const { written, deleted } = await race({
      write: () => api('POST', `/origin-goods/${linkId}/tags/restore-auto`),
      writes: { streamId: `link-${linkId}`, carrying: ['LinkTagsRestored'] },
      kind: 'tag',
      id: derived!,
      path: `/tags/${derived}`,
      deletes: { streamId: `tag-${derived}`, carrying: ['TagDeleted'] },
    });
    expect([written.status, await linkTags(linkId, 'logistics')]).toEqual([200, ['竞争快递']]);
    const live = await liveTags('logistics', '竞争快递');
    // Deleted first, the value the link carries got a tag of its own again.
    if (deleted.status === 204) expect([live.length, live.includes(derived!)]).toEqual([1, false]);
    else {
      expect([deleted.status, deleted.body.error.code, deleted.body.error.details.counts.links]).toEqual([409, 'TAG.IN_USE', 1]);
      expect(live).toEqual([derived]);
    }
  });

  it('a tag delete racing a good made from a link that carried it: the delete counts the good, or the good does not carry it', async () => {
    const [tag, other] = [await newTag('craft', '竞争印法'), await newTag('craft', '竞争印法乙')];
    const linkId = sim.catalog.addLink({ name: '美国（包邮）竞争卫裤 RC500 直喷', categoryId: sim.catalog.links()[0]!.categoryId, price: '37.00' }).id;
    expect((await sync('/sync/origin-goods')).counts).toMatchObject({ created: 1 });
    await ok('PUT', `/origin-goods/${linkId}/tags`, { tagIds: [tag.id] });
    const { written, deleted } = await race({
      write: () => api('POST', '/goods', { originGoodId: linkId }),
      writes: { streamId: `link-${linkId}`, carrying: ['LinkGoodAssigned'] },
      // The good has read the link with the tag; the link drops it, so only the good would still name it.
      first: () => ok('PUT', `/origin-goods/${linkId}/tags`, { tagIds: [other.id] }),
      kind: 'tag',
      id: tag.id,
      path: `/tags/${tag.id}`,
      deletes: { streamId: `tag-${tag.id}`, carrying: ['TagDeleted'] },
    });
    expect([201, 202]).toContain(written.status);
    const carried = (await query<{ t: string[] }>(`SELECT tag_ids::text[] AS t FROM goods WHERE id = $1`, [written.body.id]))[0]!.t.includes(tag.id);
    if (deleted.status === 204) expect(carried).toBe(false);
    else {
      expect([deleted.status, deleted.body.error.code, deleted.body.error.details.counts.goods]).toEqual([409, 'TAG.IN_USE', 1]);
      expect(carried).toBe(true);
    }
  });

  /** The live category `id` is filed under, and whether that parent is live. */
  const parentOf = async (id: string) =>
    (
      await query<{ parent: string | null; live: boolean }>(
        `SELECT k.parent_id::text AS parent, NOT p.removed AS live FROM categories k LEFT JOIN categories p ON p.id = k.parent_id WHERE k.id = $1 AND NOT k.removed`,
        [id],
      )
    )[0];

  it('a category delete racing the categories pass that files a new subcategory under it: the delete counts the child, or the child is not filed under it', async () => {
    const parent = sim.catalog.addCategory({ parentId: null, name: '竞争父类', sort: 900 });
    expect((await sync('/sync/categories')).state).toBe('succeeded');
    const child = sim.catalog.addCategory({ parentId: parent.id, name: '竞争子类', sort: 901 });
    const { written, deleted } = await race({
      write: () => sync('/sync/categories'),
      writes: { streamId: `category-${child.id}`, carrying: ['CategoryMirrored'] },
      kind: 'category',
      id: parent.id,
      path: `/categories/${parent.id}`,
      deletes: { streamId: `category-${parent.id}`, carrying: ['CategoryDeleted'] },
    });
    expect(written.state).toBe('succeeded');
    if (deleted.status === 204) {
      expect(written.errors).toContainEqual({ item: child.id, message: expect.stringMatching(new RegExp(`parent category ${parent.id}`)) });
      expect(await parentOf(child.id)).toBeUndefined();
    } else {
      expect([deleted.status, deleted.body.error.code, deleted.body.error.details.childCount]).toEqual([409, 'CATEGORY.HAS_CHILDREN', 1]);
      expect(await parentOf(child.id)).toEqual({ parent: parent.id, live: true });
    }
  });

  it('a categories pass after a parent’s delete does not file a subcategory under it: the run says so; the pass that brings the parent back files it', async () => {
    const parent = sim.catalog.addCategory({ parentId: null, name: '已删父类', sort: 910 });
    expect((await sync('/sync/categories')).state).toBe('succeeded');
    // The supplier stops listing it, so the next pass does not bring it back: the child alone is listed.
    sim.catalog.removeCategory(parent.id);
    expect((await api('DELETE', `/categories/${parent.id}`)).status).toBe(204);
    const child = sim.catalog.addCategory({ parentId: parent.id, name: '已删子类', sort: 911 });
    const run = await sync('/sync/categories');
    expect(run.state).toBe('succeeded');
    expect(run.counts.failed).toBeGreaterThanOrEqual(1);
    expect(run.errors).toContainEqual({ item: child.id, message: expect.stringMatching(new RegExp(`parent category ${parent.id}`)) });
    expect(await parentOf(child.id)).toBeUndefined();

    // The supplier lists the parent again: one pass brings it back and files the child under it.
    sim.catalog.restoreCategory(parent.id);
    const again = await sync('/sync/categories');
    expect(again.errors.filter((e: { item?: string }) => e.item === child.id)).toEqual([]);
    expect(await parentOf(child.id)).toEqual({ parent: parent.id, live: true });
  });
});
