/** Goods (docs/api.md): create, batch create, detail, update, delete, merged origins, admin list and tree. */
import { Router, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import type { Services } from '../../main';
import type { Pool } from '../../platform/db';
import { runCommand } from '../../platform/commands';
import { AppError } from '../../platform/errors';
import { parseWith } from '../../platform/http/errors';
import { colourField, imageField, int32Field, visibleName } from '../../platform/http/fields';
import { expectedRevisionOf, setRevisionTag } from '../../platform/http/revision';
import { parseQuery } from '../../platform/http/validate';
import { goodReferences, requireReferences } from '../references';
import { likePattern } from '../../platform/sql';
import { limitOffset, pageQuery, paged } from '../../platform/http/pagination';
import { idListParam, idSchema, parseId } from '../../platform/ids';
import { linkStream } from '../links/state';
import { actorOf, answerWrite } from '../http';
import { decideDeleteGood, decideSetOrigins, decideUpdateGood } from './decide';
import { createGood, createGoods, linkForGood } from './handle';
import { goodStream, type GoodState } from './state';
import { MAX_TAG_FILTER, PUBLIC_SORTS, type PublicSort } from '../../storefront/requests';
import { RANKS } from '../../storefront/queries';
import type { RouteDoc } from '../../platform/http/openapi';

/** The values the storefront shows follow src/platform/http/fields.ts (docs/http-contract.md). */
const fields = {
  name: visibleName(200),
  description: z.string().max(5000).nullable(),
  image: imageField().nullable(),
  goodPriority: int32Field(),
  tagIds: z.array(idSchema).max(200),
  tagFontColor: colourField().nullable(),
  categoryId: idSchema.nullable(),
  countryId: idSchema.nullable(),
};
const createBody = z.object({ originGoodId: idSchema.optional(), ...fields }).partial().strict();
const updateBody = z.object(fields).partial().strict();
const batchBody = z.union([
  z.object({ originGoodIds: z.array(idSchema).min(1).max(1000) }).strict(),
  z.object({ goods: z.array(createBody).min(1).max(1000) }).strict(),
]);
const originsBody = z.object({ secondaryOriginGoodIds: z.array(idSchema).max(100) }).strict();
const listQuery = pageQuery
  .extend({
    countryId: idSchema.optional(),
    categoryId: idSchema.optional(),
    familyId: idSchema.optional(),
    keyword: z.string().max(100).optional(),
    /** `1,2,3`: goods carrying every one of these tags (the public filter, on the good's own tags) */
    tagIds: idListParam(MAX_TAG_FILTER).optional(),
    /** the public sorts, on goods (docs/api.md, Administrator); without it, by id */
    sort: z.enum(PUBLIC_SORTS).optional(),
    /** true: custom goods only (no primary link); false: goods made from a link only */
    custom: z.enum(['true', 'false']).optional(),
    /** `1,2,3`: these goods only (a client naming the goods it shows, in one request) */
    ids: idListParam(1000).optional(),
  })
  .strict();

/** One select for the detail and the list, so a page of 1000 goods is one query. */
const GOOD_SELECT = `
  SELECT g.id, g.name, g.description, g.image, g.good_priority::float8 AS "goodPriority", g.tag_ids::text[] AS "tagIds",
         g.tag_font_color AS "tagFontColor", g.category_id AS "categoryId", g.country_id AS "countryId", g.family_id AS "familyId",
         g.origin_good_id AS "originGoodId", g.created_at AS "createdAt", g.updated_at AS "updatedAt", g.revision,
         COALESCE((SELECT array_agg(gog.origin_good_id::text ORDER BY gog.position) FROM good_origin_goods gog WHERE gog.good_id = g.id), '{}') AS "secondaryOriginGoodIds",
         CASE WHEN og.id IS NULL THEN NULL ELSE json_build_object(
           'id', og.id::text, 'name', og.name, 'delisted', og.delisted,
           'family', CASE WHEN f.id IS NULL THEN NULL ELSE json_build_object('id', f.id::text, 'memberCount', f.member_count) END
         ) END AS "originGood"
    FROM goods g LEFT JOIN origin_goods og ON og.id = g.origin_good_id LEFT JOIN families f ON f.id = og.family_id`;

/**
 * The admin list's orders: the storefront's sorts (docs/domain.md, Ordering) applied to goods, not
 * families. DEFAULT: country rank, category rank (no rank last), goodPriority highest first, id.
 * A good's price is its link's, or for a custom good the price it was given as a family's custom
 * member (none: last). NEWEST: createdAt, newest first. Each ends on the id, so paging is stable.
 */
const DEFAULT_ORDER = `co.r NULLS LAST, cat.r NULLS LAST, g.good_priority DESC, g.id`;
const GOOD_PRICE = `COALESCE(og.price, (SELECT min(m.price) FROM family_custom_members m WHERE m.good_id = g.id))`;
const ORDER_BY: Record<PublicSort, string> = {
  DEFAULT: DEFAULT_ORDER,
  PRICE_ASC: `${GOOD_PRICE} ASC NULLS LAST, ${DEFAULT_ORDER}`,
  PRICE_DESC: `${GOOD_PRICE} DESC NULLS LAST, ${DEFAULT_ORDER}`,
  NEWEST: `g.created_at DESC, ${DEFAULT_ORDER}`,
};

export async function readGood(pool: Pool, id: string) {
  const r = await pool.query(`${GOOD_SELECT} WHERE g.id = $1`, [id]);
  if (!r.rows[0]) throw AppError.notFound('GOOD.NOT_FOUND', `no good ${id}`);
  return r.rows[0];
}

/**
 * Answers a write with the good as this command's own append left it (docs/http-contract.md,
 * Revisions): the read model's row when it shows exactly that revision; when a later write has
 * already landed, the row with this command's fields over it; when the read model has not caught
 * up within COMMAND_WAIT_MS, 202 with the id and revision.
 */
async function answerGood(s: Services, res: Response, status: 200 | 201, id: string, result: { state: GoodState; revision: bigint | null }) {
  const own = Object.fromEntries(GOOD_OWN.map((k) => [k, result.state[k]]));
  await answerWrite(res, status, id, result.revision, () => readGood(s.pool, id).catch((e) => (e instanceof AppError && e.status === 404 ? null : Promise.reject(e))), own);
}

/** The fields a good's write answers from its own result over a row a later write has moved on. */
const GOOD_OWN = ['name', 'description', 'image', 'goodPriority', 'tagIds', 'tagFontColor', 'categoryId', 'countryId', 'secondaryOriginGoodIds'] as const;

export function goodRoutes(s: Services, guard: RequestHandler): Router {
  const r = Router();

  r.get('/goods', guard, async (req, res) => {
    const q = parseQuery(listQuery, req.query);
    const { limit, offset } = limitOffset(q);
    const where: string[] = [];
    const params: unknown[] = [];
    if (q.countryId) where.push(`g.country_id = $${params.push(q.countryId)}`);
    if (q.familyId) where.push(`g.family_id = $${params.push(q.familyId)}`);
    if (q.categoryId) {
      // any level: the category or one of its descendants
      where.push(`g.category_id IN (WITH RECURSIVE sub AS (SELECT id FROM categories WHERE id = $${params.push(q.categoryId)}
                   UNION ALL SELECT c.id FROM categories c JOIN sub ON c.parent_id = sub.id) SELECT id FROM sub)`);
    }
    if (q.keyword) where.push(`g.name ILIKE $${params.push(likePattern(q.keyword))}`);
    // `@>` lets the GIN index on goods.tag_ids find them.
    if (q.tagIds) where.push(`g.tag_ids @> $${params.push(q.tagIds)}::bigint[]`);
    if (q.custom) where.push(`g.origin_good_id IS ${q.custom === 'true' ? '' : 'NOT '}NULL`);
    if (q.ids) where.push(`g.id = ANY($${params.push(q.ids)}::bigint[])`);
    const w = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const total = await s.pool.query<{ n: string }>(`SELECT count(*) AS n FROM goods g ${w}`, params);
    const items = q.sort
      ? await s.pool.query(
          `WITH ${RANKS} ${GOOD_SELECT} LEFT JOIN co ON co.id = g.country_id LEFT JOIN cat ON cat.id = g.category_id
            ${w} ORDER BY ${ORDER_BY[q.sort]} LIMIT $${params.push(limit)} OFFSET $${params.push(offset)}`,
          params,
        )
      : await s.pool.query(`${GOOD_SELECT} ${w} ORDER BY g.id LIMIT $${params.push(limit)} OFFSET $${params.push(offset)}`, params);
    res.json(paged(items.rows, Number(total.rows[0]!.n), q.page, q.pageSize));
  });

  r.post('/goods', guard, async (req, res) => {
    const body = parseWith(createBody, req.body, 'body');
    await requireReferences(s.pool, goodReferences(body));
    const created = await createGood(s, body, actorOf(req, res));
    await answerGood(s, res, 201, created.id, created);
  });

  r.post('/goods/batch', guard, async (req, res) => {
    const b = parseWith(batchBody, req.body, 'body');
    const inputs = 'originGoodIds' in b ? [...new Set(b.originGoodIds)].map((originGoodId) => ({ originGoodId })) : b.goods;
    if ('goods' in b) await requireReferences(s.pool, b.goods.flatMap((g, i) => goodReferences(g, `goods.${i}.`)));
    const { created, skipped, position } = await createGoods(s, inputs, actorOf(req, res));
    // One wait for the whole batch: the projections reach the last append it made.
    if (position) await s.waitForProjections(position, ['good-0', 'link-0']);
    res.status(201).json({ created, skipped });
  });

  r.get('/goods/tree', guard, async (_req, res) => {
    // country → category → families (configuration count: the family's goods) and goods without family
    const rows = await s.pool.query(
      `SELECT g.country_id AS "countryId", co.name AS "countryName", g.category_id AS "categoryId", c.name AS "categoryName",
              g.family_id AS "familyId", f.name AS "familyName", count(*)::int AS "configurationCount",
              json_agg(json_build_object('id', g.id::text, 'name', g.name) ORDER BY g.id) AS goods
         FROM goods g LEFT JOIN countries co ON co.id = g.country_id LEFT JOIN categories c ON c.id = g.category_id
         LEFT JOIN families f ON f.id = g.family_id
        GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY min(co.sort_order), 1, min(c.sort_order), 3, 5`,
    );
    const countries = new Map<string, { id: string | null; name: string | null; categories: Map<string, { id: string | null; name: string | null; nodes: unknown[] }> }>();
    for (const row of rows.rows) {
      const ck = String(row.countryId);
      if (!countries.has(ck)) countries.set(ck, { id: row.countryId, name: row.countryName, categories: new Map() });
      const country = countries.get(ck)!;
      const gk = String(row.categoryId);
      if (!country.categories.has(gk)) country.categories.set(gk, { id: row.categoryId, name: row.categoryName, nodes: [] });
      const node = row.familyId
        ? { kind: 'family', id: row.familyId, name: row.familyName, configurationCount: row.configurationCount, goods: row.goods }
        : { kind: 'goods', goods: row.goods };
      country.categories.get(gk)!.nodes.push(node);
    }
    res.json({
      items: [...countries.values()].map((c) => ({ id: c.id, name: c.name, categories: [...c.categories.values()].map((g) => ({ id: g.id, name: g.name, items: g.nodes })) })),
    });
  });

  r.get('/goods/:id', guard, async (req, res) => {
    const good = await readGood(s.pool, parseId(req.params.id));
    setRevisionTag(res, String(good.revision));
    res.json(good);
  });

  r.patch('/goods/:id', guard, async (req, res) => {
    const id = parseId(req.params.id);
    const patch = parseWith(updateBody, req.body, 'body');
    const expectedRevision = expectedRevisionOf(req);
    await requireReferences(s.pool, goodReferences(patch));
    const origin = (await s.pool.query<{ origin_good_id: string | null }>(`SELECT origin_good_id FROM goods WHERE id = $1`, [id])).rows[0]?.origin_good_id;
    const link = origin ? await linkForGood(s.pool, origin) : null;
    const result = await runCommand(s, goodStream(id), { name: 'UpdateGood', actor: actorOf(req, res), expectedRevision, decide: (st) => decideUpdateGood(st, patch, link) });
    await answerGood(s, res, 200, id, result);
  });

  r.delete('/goods/:id', guard, async (req, res) => {
    const id = parseId(req.params.id);
    const actor = actorOf(req, res);
    const r = await runCommand(s, goodStream(id), { name: 'DeleteGood', actor, expectedRevision: expectedRevisionOf(req), decide: decideDeleteGood });
    // Release the link's claim, so a new good can be made from it.
    if (r.state.originGoodId) {
      await runCommand(s, linkStream(r.state.originGoodId), {
        name: 'DeleteGood',
        actor,
        decide: (l) => (l.goodId === id ? [{ type: 'LinkGoodUnassigned', data: { linkId: r.state.originGoodId!, goodId: id } }] : []),
      });
    }
    res.status(204).end();
  });

  r.put('/goods/:id/origins', guard, async (req, res) => {
    const id = parseId(req.params.id);
    const b = parseWith(originsBody, req.body, 'body');
    const expectedRevision = expectedRevisionOf(req);
    const known = await s.pool.query<{ id: string }>(`SELECT id FROM origin_goods WHERE id = ANY($1::bigint[])`, [b.secondaryOriginGoodIds]);
    const missing = b.secondaryOriginGoodIds.filter((x) => !known.rows.some((k) => k.id === x));
    if (missing.length) throw AppError.badRequest('GOOD.UNKNOWN_ORIGIN', 'unknown origin goods', { missing });
    const result = await runCommand(s, goodStream(id), {
      name: 'SetGoodOrigins',
      actor: actorOf(req, res),
      expectedRevision,
      decide: (st) => decideSetOrigins(st, b.secondaryOriginGoodIds),
    });
    await answerGood(s, res, 200, id, result);
  });

  return r;
}

/** The operations above, with the schemas they parse (src/platform/http/openapi.ts). */
export const goodRouteDocs: RouteDoc[] = [
  { method: 'get', path: '/goods', summary: 'List goods', auth: true, query: listQuery, responses: { 200: '{items, total, page, pageSize} of goods' } },
  { method: 'post', path: '/goods', summary: 'Create a good, from a link (originGoodId) or custom', auth: true, body: createBody, responses: { 201: 'The good created', 202: '{id, revision}: written, the read models not there yet' } },
  { method: 'post', path: '/goods/batch', summary: 'Create goods in one request: from links, or full bodies', auth: true, body: batchBody, responses: { 201: '{created, skipped}' } },
  { method: 'get', path: '/goods/tree', summary: 'Goods by country, category and family', auth: true, responses: { 200: '{items: [{id, name, categories: [{id, name, items}]}]}' } },
  { method: 'get', path: '/goods/:id', summary: 'One good', auth: true, responses: { 200: 'The good, with its revision (also the ETag)', 404: 'No such good' } },
  { method: 'patch', path: '/goods/:id', summary: 'Change a good', auth: true, revision: true, body: updateBody, responses: { 200: 'The good as this write left it', 202: '{id, revision}', 404: 'No such good' } },
  { method: 'delete', path: '/goods/:id', summary: 'Delete a good; its link may make a new one', auth: true, revision: true, responses: { 204: null, 404: 'No such good' } },
  { method: 'put', path: '/goods/:id/origins', summary: "Set the good's secondary origin links", auth: true, revision: true, body: originsBody, responses: { 200: 'The good as this write left it', 202: '{id, revision}', 404: 'No such good' } },
];
