/**
 * The storefront's reads of the read models (catalog, catalog_tree, tags and positions projections).
 *
 * Who is public: a family on the shelf with at least one good on the shelf (`publicFamily`,
 * src/catalog/domain/public.ts), shown through its representative good (`representative_good_id`,
 * kept by the catalog projection among the goods on the shelf: goodPriority desc, createdAt desc, id
 * asc). Every read below starts from that join, so goods without a family, and families without
 * goods on the shelf or off it, appear in none of them; a good off the shelf adds nothing
 * (`publicGood`: no tag, no count). The family's country and category are its representative's.
 */
import type { Queryable } from '../platform/db';
import { AppError } from '../platform/errors';
import type { PreparedJson } from '../platform/cache/public-cache';
import type { FamilyIndex } from './family-index';
import type { ListItemBytes } from './list-bytes';
import type { PublicListSpec } from './requests';
import {
  TagDictionary,
  categoryTree,
  goodDetail,
  homePositions,
  toItem,
  treeOrder,
  type CategoryRow,
  type CategoryStatsRow,
  type FamilyDetailRow,
  type FamilyItemRow,
  type PositionGoodRow,
  type PublicCategoryNode,
  type PublicGoodDetail,
  type PublicGoodItem,
  type TagInfo,
} from './views';

import { SEARCH_TARGETS, prepareSearch, searchCondition } from '../catalog/search';
import { ITEM_COLUMNS, ITEM_HASH, PUBLIC_FAMILIES } from './public-families';
import { publicFamily, publicGood } from '../catalog/domain/public';

/** Live tags (their group live too), by sort order then id, with their group's dimension. */
export async function loadTags(db: Queryable): Promise<TagDictionary> {
  const r = await db.query<TagInfo>(
    `SELECT t.id, t.name, t.sort_order AS "sortOrder", tg.dimension
       FROM tags t JOIN tag_groups tg ON tg.id = t.group_id
      WHERE NOT t.deleted AND NOT tg.deleted
      ORDER BY t.sort_order, t.id`,
  );
  return new TagDictionary(r.rows);
}

/**
 * The whole list for one (filters, sort): one entry per public family, grouped before any paging.
 * Filters: country and category (any level: the category or a descendant) of the representative;
 * tags: every listed tag is carried by at least one of the family's goods (not necessarily the same
 * one); keyword: every word of it is in the family's or the representative's name or in a tag one
 * of the family's goods carries, as the admin lists match it (docs/domain.md, Search).
 *
 * The families and their order come from the process's family index (./family-index.ts), synced
 * first: a list after a write reads only the families the write changed. A filter is one query for
 * the ids it keeps. Of each item only its hash is known there: the items kept from earlier loads are
 * written from their own bytes (./list-bytes.ts), and only the rest are read whole.
 */
export async function loadGoodsList(db: Queryable, spec: PublicListSpec, s: { families: FamilyIndex; listItems: ListItemBytes }): Promise<PreparedJson> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (spec.countryId) where.push(`g.country_id = $${params.push(spec.countryId)}`);
  if (spec.categoryId) {
    // UNION, not UNION ALL: a cycle in a half-rebuilt tree cannot make it loop.
    where.push(`g.category_id IN (WITH RECURSIVE sub AS (SELECT id FROM categories WHERE id = $${params.push(spec.categoryId)}
                  UNION SELECT k.id FROM categories k JOIN sub ON k.parent_id = sub.id) SELECT id FROM sub)`);
  }
  if (spec.tagIds.length) {
    const p = params.push(spec.tagIds);
    // `&&` lets the GIN index on goods.tag_ids (migration 008) find the candidate goods.
    where.push(`f.id IN (SELECT tg.family_id FROM goods tg CROSS JOIN LATERAL unnest(tg.tag_ids) AS t(id)
                  WHERE tg.tag_ids && $${p}::bigint[] AND t.id = ANY($${p}::bigint[]) AND tg.family_id IS NOT NULL AND tg.on_shelf
                  GROUP BY tg.family_id HAVING count(DISTINCT t.id) = ${spec.tagIds.length})`);
  }
  if (spec.keyword) {
    const search = await prepareSearch(db, spec.keyword);
    where.push(searchCondition(search, SEARCH_TARGETS.publicFamily('f'), (v) => `$${params.push(v)}`));
  }
  const [, kept, tags] = await Promise.all([
    s.families.sync(db),
    where.length ? db.query<{ id: string }>(`SELECT f.id ${PUBLIC_FAMILIES} ${where.map((w) => `AND ${w}`).join(' ')}`, params) : null,
    loadTags(db),
  ]);
  const all = s.families.inOrder(spec.sort);
  // A family kept by the filter but not (or no longer) in the index is left out, as a later read would.
  const ids = kept && new Set(kept.rows.map((r) => r.id));
  const rows = ids ? all.filter((r) => ids.has(r.id)) : all;
  return s.listItems.write(rows, tags, ids === null, async (missing) => {
    // The changed families' items came with the sync: only the others (a process's first list, a
    // filter's families) are read.
    const known: (FamilyItemRow & { item_hash: string })[] = [];
    const rest: string[] = [];
    for (const id of missing) {
      const item = s.families.changedItem(id);
      if (item) known.push(item);
      else rest.push(id);
    }
    return rest.length ? [...known, ...(await loadItemRows(db, rest))] : known;
  });
}

/** The items of these public families, each with its hash as of the same read. */
async function loadItemRows(db: Queryable, ids: readonly string[]): Promise<(FamilyItemRow & { item_hash: string })[]> {
  const r = await db.query<FamilyItemRow & { item_hash: string }>(`SELECT ${ITEM_COLUMNS}, ${ITEM_HASH} AS item_hash ${PUBLIC_FAMILIES} AND f.id = ANY($1::bigint[])`, [ids]);
  return r.rows;
}

/**
 * One public family. Only a family id answers: a link id, an unknown id, or a family without goods
 * is a 404. The family row is read before the tags (the HTTP test of "a value loaded across a bump is
 * not stored" pauses a load between the two).
 */
export async function loadGoodDetail(db: Queryable, familyId: string): Promise<PublicGoodDetail> {
  const r = await db.query<FamilyDetailRow>(
    `SELECT f.id, g.name, g.image, g.description, g.country_id, g.category_id, g.tag_ids::text[] AS tag_ids,
            f.lowest_price::text AS lowest_price, f.variants, f.size_chart, f.packaging_specs, f.options, f.price_matrix, f.media_by_color
       FROM families f JOIN goods g ON g.id = f.representative_good_id
      WHERE f.id = $1 AND ${publicFamily('f')}`,
    [familyId],
  );
  const row = r.rows[0];
  if (!row) throw AppError.notFound('PUBLIC_GOOD.NOT_FOUND', `no public good ${familyId}`);
  return goodDetail(row, await loadTags(db));
}

/** Home: live positions by sortOrder then id, each with one list item per family placed in it. */
export async function loadHome(db: Queryable): Promise<{ positions: { id: string; name: string; items: PublicGoodItem[] }[] }> {
  const placed = await db.query<PositionGoodRow>(
    `SELECT p.id AS position_id, p.name AS position_name, g.family_id
       FROM positions p
       LEFT JOIN position_goods pg ON pg.position_id = p.id
       LEFT JOIN goods g ON g.id = pg.good_id
      WHERE NOT p.deleted
      ORDER BY p.sort_order, p.id, pg.sort_order, pg.good_id`,
  );
  const familyIds = [...new Set(placed.rows.map((r) => r.family_id).filter((id): id is string => id !== null))];
  const items = new Map<string, PublicGoodItem>();
  if (familyIds.length) {
    const rows = await db.query<FamilyItemRow>(`SELECT ${ITEM_COLUMNS} ${PUBLIC_FAMILIES} AND f.id = ANY($1::bigint[])`, [familyIds]);
    const tags = await loadTags(db);
    for (const row of rows.rows) items.set(row.id, toItem(row, tags));
  }
  return { positions: homePositions(placed.rows, items) };
}

async function liveCategories(db: Queryable): Promise<CategoryRow[]> {
  const r = await db.query<CategoryRow>(`SELECT id, parent_id, name, effective_icon, sort_order FROM categories WHERE NOT removed`);
  return r.rows;
}

/** The category tree with effective icons, public family counts and lowest prices per node. */
export async function loadCategoryTree(db: Queryable): Promise<{ items: PublicCategoryNode[] }> {
  const categories = await liveCategories(db);
  const stats = await db.query<CategoryStatsRow>(
    `SELECT g.category_id, count(*)::int AS families, min(f.lowest_price)::text AS lowest_price
       FROM families f JOIN goods g ON g.id = f.representative_good_id
      WHERE ${publicFamily('f')} AND g.category_id IS NOT NULL
      GROUP BY g.category_id`,
  );
  return { items: categoryTree(categories, stats.rows) };
}

/** Tag groups (by id) and their tags (sortOrder, id) with the number of public families carrying each. */
export async function loadTagGroups(db: Queryable): Promise<{
  items: { id: string; name: string; dimension: string | null; tags: { id: string; name: string; sortOrder: number; familyCount: number }[] }[];
}> {
  const groups = await db.query<{ id: string; name: string; dimension: string | null }>(`SELECT id, name, dimension FROM tag_groups WHERE NOT deleted ORDER BY id`);
  const tags = await db.query<{ id: string; group_id: string; name: string; sort_order: number }>(
    `SELECT id, group_id, name, sort_order FROM tags WHERE NOT deleted ORDER BY sort_order, id`,
  );
  // A family carries a tag when one of its goods does; count each family once per tag.
  const counts = await db.query<{ tag_id: string; families: number }>(
    `SELECT t.id::text AS tag_id, count(DISTINCT g.family_id)::int AS families
       FROM goods g JOIN families f ON f.id = g.family_id CROSS JOIN LATERAL unnest(g.tag_ids) AS t(id)
      WHERE ${publicGood('g', 'f')}
      GROUP BY t.id`,
  );
  const countOf = new Map(counts.rows.map((c) => [c.tag_id, c.families]));
  const byGroup = new Map<string, { id: string; name: string; sortOrder: number; familyCount: number }[]>();
  for (const t of tags.rows) {
    let list = byGroup.get(t.group_id);
    if (!list) byGroup.set(t.group_id, (list = []));
    list.push({ id: t.id, name: t.name, sortOrder: t.sort_order, familyCount: countOf.get(t.id) ?? 0 });
  }
  return { items: groups.rows.map((g) => ({ id: g.id, name: g.name, dimension: g.dimension, tags: byGroup.get(g.id) ?? [] })) };
}

async function liveCountries(db: Queryable): Promise<{ id: string; name: string; code: string; sortOrder: number }[]> {
  const r = await db.query<{ id: string; name: string; code: string; sortOrder: number }>(
    `SELECT id, name, code, sort_order AS "sortOrder" FROM countries WHERE NOT removed ORDER BY sort_order, id`,
  );
  return r.rows;
}

/**
 * The countries (sortOrder, id) with the number of public families in each: a family is in the
 * country of its representative good, as the list's `countryId` filter has it (loadGoodsList).
 */
export async function loadCountries(
  db: Queryable,
  families: FamilyIndex,
): Promise<{ items: { id: string; name: string; code: string; sortOrder: number; familyCount: number }[] }> {
  // Counted from the family index, not by a query over every family: each goods write voids this
  // answer, and during a bulk step a shopper's read would otherwise count them all again after each
  // checkpoint.
  const [countries] = await Promise.all([liveCountries(db), families.sync(db)]);
  const countOf = families.familiesByCountry();
  return { items: countries.map((c) => ({ ...c, familyCount: countOf.get(c.id) ?? 0 })) };
}

/** The orders a storefront needs to lay out its navigation: countries, and categories per parent. */
export async function loadTreeOrder(db: Queryable): Promise<{ countries: string[]; categories: Record<string, string[]> }> {
  const countries = await liveCountries(db);
  return treeOrder(
    countries.map((c) => c.id),
    await liveCategories(db),
  );
}
