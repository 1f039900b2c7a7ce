/** Administrators' view of supplier links (docs/api.md, Shapes: OriginGood), and their tags. */
import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import type { Services } from '../../main';
import { runCommand, type PendingEvent } from '../../platform/commands';
import { AppError } from '../../platform/errors';
import { parseWith } from '../../platform/http/errors';
import { expectedRevisionOf, setRevisionTag } from '../../platform/http/revision';
import { parseQuery } from '../../platform/http/validate';
import { likePattern } from '../../platform/sql';
import { limitOffset, pageQuery, paged } from '../../platform/http/pagination';
import { idListParam, idSchema, parseId } from '../../platform/ids';
import { actorOf } from '../http';
import { familyNameKey, parseLinkName } from '../domain/names';
import { deriveLinkTags, emptyDimensionValues, fillMissingDimensions } from '../domain/tags';
import { decideGrouping } from '../organisation/group';
import { setLinkFamily } from '../families/routes';
import { dimensionTagIndex, ensureDimensionTags, tagsIn, tagsOf, valuesOfTagIds, type DimensionTagIndex } from './dimension-tags';
import type { DimensionValues } from './events';
import { linkStream, type LinkState } from './state';
import type { RouteDoc } from '../../platform/http/openapi';

const tagsBody = z.object({ tagIds: z.array(idSchema).max(200) }).strict();
const bool = z.enum(['true', 'false']).transform((v) => v === 'true');
const listQuery = pageQuery
  .extend({
    organised: bool.optional(),
    delisted: bool.optional(),
    familyId: idSchema.optional(),
    keyword: z.string().max(100).optional(),
    /** `1,2,3`: these links only (a client naming the links it shows, in one request) */
    ids: idListParam(1000).optional(),
  })
  .strict();

/** The detail (variants, media: the bulk of a row) only where one link is read. A link is the primary origin of at most one good. */
const select = (withDetail: boolean) => `
  SELECT og.id, og.name, og.category_id, og.craft_label, og.price::text AS price, og.image, og.delisted, og.delisted_reason,
         og.parsed_country, og.parsed_logistics, og.parsed_product_name, og.parsed_sku, og.tags, og.tags_manual, og.tags_missing,
         og.family_id, f.member_count, ${withDetail ? 'og.detail, ' : ''}og.detail_synced_at, og.revision,
         CASE WHEN g.id IS NULL THEN NULL ELSE json_build_object('id', g.id::text, 'name', g.name) END AS good
    FROM origin_goods og LEFT JOIN families f ON f.id = og.family_id LEFT JOIN goods g ON g.origin_good_id = og.id`;

type Row = Record<string, unknown> & { tags: DimensionValues | null; detail_synced_at: Date | null };

function view(index: DimensionTagIndex, g: Row, withDetail: boolean) {
  return {
    id: g.id,
    name: g.name,
    categoryId: g.category_id,
    craftLabel: g.craft_label,
    price: g.price,
    image: g.image,
    delisted: g.delisted,
    delistedReason: g.delisted_reason,
    parsed: g.parsed_country
      ? { country: g.parsed_country, logistics: g.parsed_logistics, productName: g.parsed_product_name, sku: g.parsed_sku }
      : null,
    tags: tagsIn(index, g.tags),
    tagValues: g.tags,
    tagsManual: g.tags_manual,
    tagsMissing: g.tags_missing,
    family: g.family_id ? { id: g.family_id, memberCount: g.member_count } : null,
    /** the good made from this link (its primary origin), if any */
    good: (g.good as { id: string; name: string } | null) ?? null,
    ...(withDetail ? { detail: g.detail } : {}),
    detailSyncedAt: g.detail_synced_at ? g.detail_synced_at.toISOString() : null,
    revision: g.revision,
  };
}

async function readOriginGood(s: Services, id: string) {
  const r = await s.pool.query<Row>(`${select(true)} WHERE og.id = $1`, [id]);
  if (!r.rows[0]) throw AppError.notFound('ORIGIN_GOOD.NOT_FOUND', `no origin good ${id}`);
  return view(await dimensionTagIndex(s), r.rows[0], true);
}

/** A link never organised is parsed first (single-link organisation), so it can be matched to a family. */
function parseFirst(link: LinkState, linkId: string): { events: PendingEvent[]; parsed: ReturnType<typeof parseLinkName> } {
  const parsed = parseLinkName(link.name);
  if (!parsed || link.parsed) return { events: [], parsed };
  const columns = { country: parsed.country, logistics: parsed.logistics, productName: parsed.productName, sku: parsed.sku, familyNameKey: familyNameKey(parsed) };
  return { events: [{ type: 'LinkParsed', data: { linkId, ...columns } }], parsed };
}

export function originGoodRoutes(s: Services, guard: RequestHandler): Router {
  const r = Router();

  r.get('/origin-goods', guard, async (req, res) => {
    const q = parseQuery(listQuery, req.query);
    const { limit, offset } = limitOffset(q);
    const where: string[] = [];
    const params: unknown[] = [];
    if (q.organised !== undefined) where.push(`og.parsed_country IS ${q.organised ? 'NOT ' : ''}NULL`);
    if (q.delisted !== undefined) where.push(`og.delisted = $${params.push(q.delisted)}`);
    if (q.familyId) where.push(`og.family_id = $${params.push(q.familyId)}`);
    if (q.keyword) where.push(`og.name ILIKE $${params.push(likePattern(q.keyword))}`);
    if (q.ids) where.push(`og.id = ANY($${params.push(q.ids)}::bigint[])`);
    const w = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const total = await s.pool.query<{ n: string }>(`SELECT count(*) AS n FROM origin_goods og ${w}`, params);
    const rows = await s.pool.query<Row>(`${select(false)} ${w} ORDER BY og.id LIMIT $${params.push(limit)} OFFSET $${params.push(offset)}`, params);
    const index = await dimensionTagIndex(s);
    const items = rows.rows.map((row) => view(index, row, false));
    res.json(paged(items, Number(total.rows[0]!.n), q.page, q.pageSize));
  });

  // Statistics by parsed country and category; a link referenced as a good's secondary origin counts too.
  r.get('/origin-goods/tree', guard, async (_req, res) => {
    const rows = await s.pool.query(
      `SELECT og.parsed_country AS country, og.category_id AS "categoryId", c.name AS "categoryName",
              count(*)::int AS links,
              count(*) FILTER (WHERE og.parsed_country IS NOT NULL)::int AS organised,
              count(*) FILTER (WHERE og.family_id IS NOT NULL)::int AS grouped,
              count(*) FILTER (WHERE og.delisted)::int AS delisted,
              count(*) FILTER (WHERE EXISTS (SELECT 1 FROM goods g WHERE g.origin_good_id = og.id))::int AS "primaryReferences",
              count(*) FILTER (WHERE EXISTS (SELECT 1 FROM good_origin_goods gog WHERE gog.origin_good_id = og.id))::int AS "secondaryReferences"
         FROM origin_goods og LEFT JOIN categories c ON c.id = og.category_id
        GROUP BY 1, 2, 3 ORDER BY 1 NULLS LAST, 2`,
    );
    const countries = new Map<string, { country: string | null; categories: unknown[] }>();
    for (const row of rows.rows) {
      const k = String(row.country);
      if (!countries.has(k)) countries.set(k, { country: row.country, categories: [] });
      const { country: _c, ...stats } = row;
      countries.get(k)!.categories.push(stats);
    }
    res.json({ items: [...countries.values()] });
  });

  r.get('/origin-goods/:id', guard, async (req, res) => {
    const link = await readOriginGood(s, parseId(req.params.id));
    setRevisionTag(res, String(link.revision));
    res.json(link);
  });

  // updateTags (§3): manual takeover; groups the administrator left empty are filled from the name.
  r.put('/origin-goods/:id/tags', guard, async (req, res) => {
    const id = parseId(req.params.id);
    const b = parseWith(tagsBody, req.body, 'body');
    const actor = actorOf(req, res);
    const { values: manual } = await valuesOfTagIds(s, b.tagIds);
    let filled: { dimension: string; value: string }[] = [];
    let tags: DimensionValues = emptyDimensionValues();
    const expectedRevision = expectedRevisionOf(req);
    const result = await runCommand(s, linkStream(id), {
      name: 'UpdateLinkTags',
      actor,
      expectedRevision,
      decide: (link) => {
        if (!link.exists) throw AppError.notFound('ORIGIN_GOOD.NOT_FOUND', `no origin good ${id}`);
        const { events, parsed } = parseFirst(link, id);
        const derived = parsed ? deriveLinkTags(parsed, link.detail).values : emptyDimensionValues();
        const merged = fillMissingDimensions(manual, derived);
        filled = merged.filled;
        tags = merged.values;
        return [...events, { type: 'LinkTagsTakenOver', data: { linkId: id, tags: merged.values, filled: merged.filled } }];
      },
    });
    await ensureDimensionTags(s, tags, actor);
    let attachedFamilyId: string | null = null;
    const link = result.state;
    if (!link.familyId && link.parsed) {
      const families = await s.pool.query(
        `SELECT id, family_name_key AS "familyNameKey", auto_managed AS "autoManaged", locked, good_count AS "goodCount", 0 AS "overrideCount"
           FROM families WHERE family_name_key = $1`,
        [link.parsed.familyNameKey],
      );
      const [decision] = decideGrouping([{ id, familyNameKey: link.parsed.familyNameKey, productName: link.parsed.productName, sku: link.parsed.sku }], families.rows);
      if (decision?.kind === 'join') {
        await setLinkFamily(s, id, decision.familyId, actor, 'UpdateLinkTags');
        attachedFamilyId = decision.familyId;
      }
    }
    const filledTags = await tagsOf(
      s,
      filled.reduce<Partial<DimensionValues>>((acc, f) => ({ ...acc, [f.dimension]: [...(acc[f.dimension as keyof DimensionValues] ?? []), f.value] }), {}),
    );
    res.json({ tags: await tagsOf(s, tags), filledDimensionTags: filledTags, attachedFamilyId });
  });

  r.post('/origin-goods/:id/tags/restore-auto', guard, async (req, res) => {
    const id = parseId(req.params.id);
    const actor = actorOf(req, res);
    let tags: DimensionValues = emptyDimensionValues();
    await runCommand(s, linkStream(id), {
      name: 'RestoreAutoLinkTags',
      actor,
      expectedRevision: expectedRevisionOf(req),
      decide: (link) => {
        if (!link.exists) throw AppError.notFound('ORIGIN_GOOD.NOT_FOUND', `no origin good ${id}`);
        const { events, parsed } = parseFirst(link, id);
        if (!parsed) throw AppError.badRequest('ORIGIN_GOOD.UNPARSEABLE', 'the link name does not follow the grammar; its tags cannot be derived');
        const derived = deriveLinkTags(parsed, link.detail);
        tags = derived.values;
        if (!link.tagsManual && JSON.stringify(link.tags) === JSON.stringify(derived.values)) return events;
        return [...events, { type: 'LinkTagsRestored', data: { linkId: id, tags: derived.values, missing: derived.missing } }];
      },
    });
    await ensureDimensionTags(s, tags, actor);
    res.json(await readOriginGood(s, id));
  });

  return r;
}

/** The operations above, with the schemas they parse (src/platform/http/openapi.ts). */
export const originGoodRouteDocs: RouteDoc[] = [
  { method: 'get', path: '/origin-goods', summary: 'List supplier links', auth: true, query: listQuery, responses: { 200: '{items, total, page, pageSize} of links' } },
  { method: 'get', path: '/origin-goods/tree', summary: 'Link statistics by parsed country and category, secondary-origin references included', auth: true, responses: { 200: '{items: […]}' } },
  { method: 'get', path: '/origin-goods/:id', summary: 'One link with its detail (variants, media)', auth: true, responses: { 200: 'The link, with its revision (also the ETag)', 404: 'No such link' } },
  { method: 'put', path: '/origin-goods/:id/tags', summary: "Set a link's tags by hand (kept over derived ones)", auth: true, revision: true, body: tagsBody, responses: { 200: 'The link as this write left it', 404: 'No such link' } },
  { method: 'post', path: '/origin-goods/:id/tags/restore-auto', summary: "Give a link back its derived tags", auth: true, revision: true, responses: { 200: 'The link as this write left it', 400: 'The link name cannot be parsed', 404: 'No such link' } },
];
