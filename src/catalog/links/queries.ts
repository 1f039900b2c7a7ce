/** Reads of the catalog projection's links (origin_goods) for administrators and for the link commands. */
import type { Pool } from '../../platform/db';
import { Filters, pageOf } from '../../platform/query-builder';
import { SEARCH_TARGETS, prepareSearch, searchCondition, withSuggestions } from '../search';
import { linkNameProblem } from '../domain/names';
import type { FamilyFacts } from '../domain/grouping';
import { linkNotFound } from './decide';
import { dimensionTagIndex, tagsIn, type DimensionTagIndex } from './dimension-tags';
import type { DimensionValues } from './events';
import type { ListLinksQuery } from './requests';

/** The detail (variants, media: the bulk of a row) only where one link is read. A link is the primary origin of at most one good. */
const select = (withDetail: boolean) => `
  SELECT og.id, og.name, og.category_id, og.craft_label, og.price::text AS price, og.image, og.delisted, og.delisted_reason,
         og.parsed_country, og.parsed_logistics, og.parsed_product_name, og.parsed_sku, og.tags, og.tags_manual, og.tags_missing,
         og.family_id, f.name AS family_name, f.member_count, ${withDetail ? 'og.detail, ' : ''}og.detail_synced_at, og.revision,
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
    parsed: g.parsed_country ? { country: g.parsed_country, logistics: g.parsed_logistics, productName: g.parsed_product_name, sku: g.parsed_sku } : null,
    /** not parsed: which part of the name cannot be read (null when it can, and organisation has not run since) */
    nameProblem: g.parsed_country ? null : linkNameProblem(String(g.name)),
    tags: tagsIn(index, g.tags),
    tagValues: g.tags,
    tagsManual: g.tags_manual,
    tagsMissing: g.tags_missing,
    family: g.family_id ? { id: g.family_id, name: g.family_name, memberCount: g.member_count } : null,
    /** the good made from this link (its primary origin), if any */
    good: (g.good as { id: string; name: string } | null) ?? null,
    ...(withDetail ? { detail: g.detail } : {}),
    detailSyncedAt: g.detail_synced_at ? g.detail_synced_at.toISOString() : null,
    revision: g.revision,
  };
}

/** One link with its detail; 404 ORIGIN_GOOD.NOT_FOUND when the read model has none. */
export async function readLink(pool: Pool, id: string) {
  const r = await pool.query<Row>(`${select(true)} WHERE og.id = $1`, [id]);
  if (!r.rows[0]) throw linkNotFound(id);
  return view(await dimensionTagIndex({ pool }), r.rows[0], true);
}

/** Links by id, without their detail, filtered. */
export async function listLinks(pool: Pool, q: ListLinksQuery) {
  const f = new Filters();
  if (q.organised !== undefined) f.and(`og.parsed_country IS ${q.organised ? 'NOT ' : ''}NULL`);
  if (q.delisted !== undefined) f.and(`og.delisted = ${f.param(q.delisted)}`);
  if (q.familyId) f.and(`og.family_id = ${f.param(q.familyId)}`);
  const search = q.keyword ? await prepareSearch(pool, q.keyword) : null;
  if (search) f.and(searchCondition(search, SEARCH_TARGETS.link('og'), (v) => f.param(v)));
  if (q.ids) f.and(`og.id = ANY(${f.param(q.ids)}::bigint[])`);
  // The same uses the usage counts name (src/catalog/usage.ts), so a refused delete can list them.
  if (q.categoryId) f.and(`og.category_id = ${f.param(q.categoryId)}`);
  if (q.countryId) f.and(`og.parsed_country = (SELECT c.name FROM countries c WHERE c.id = ${f.param(q.countryId)})`);
  if (q.tagId) {
    f.and(`EXISTS (SELECT 1 FROM tags t JOIN tag_groups tg ON tg.id = t.group_id AND NOT tg.deleted
                    WHERE t.id = ${f.param(q.tagId)} AND tg.dimension IS NOT NULL AND og.tags -> tg.dimension ? t.name)`);
  }
  if (q.incomplete !== undefined) f.and(`${q.incomplete ? '' : 'NOT '}(og.parsed_country IS NOT NULL AND jsonb_array_length(og.tags_missing) > 0)`);
  if (q.hasGood !== undefined) f.and(`${q.hasGood ? '' : 'NOT '}EXISTS (SELECT 1 FROM goods g WHERE g.origin_good_id = og.id)`);
  if (q.hasFamily !== undefined) f.and(`og.family_id IS ${q.hasFamily ? 'NOT ' : ''}NULL`);
  const page = await pageOf<Row>(pool, f, q, {
    count: (where) => `SELECT count(*) AS n FROM origin_goods og ${where}`,
    rows: (where, limit) => `${select(false)} ${where} ORDER BY og.id ${limit}`,
  });
  const index = await dimensionTagIndex({ pool });
  return withSuggestions(pool, search, { ...page, items: page.items.map((row) => view(index, row, false)) });
}

/** Statistics by parsed country and category; a link referenced as a good's secondary origin counts too. */
export async function linkTree(pool: Pool) {
  const rows = await pool.query(
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
  return { items: [...countries.values()] };
}

/** The families a link with this family name key could join, as grouping decides on them. */
export async function familiesWithNameKey(pool: Pool, key: string): Promise<FamilyFacts[]> {
  const r = await pool.query<FamilyFacts>(
    `SELECT id, family_name_key AS "familyNameKey", auto_managed AS "autoManaged", locked, good_count AS "goodCount", 0 AS "overrideCount"
       FROM families WHERE family_name_key = $1`,
    [key],
  );
  return r.rows;
}
