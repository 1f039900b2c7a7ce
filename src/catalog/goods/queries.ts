/** Reads of the catalog projection's goods for administrators, and of the links the good commands take. */
import type { Pool, Queryable } from '../../platform/db';
import { AppError } from '../../platform/errors';
import { Filters, pageOf } from '../../platform/query-builder';
import { SEARCH_TARGETS, prepareSearch, searchCondition, withSuggestions } from '../search';
import { goodNameFromLink } from '../domain/names';
import { tagsIn, type DimensionTagIndex } from '../links/dimension-tags';
import type { DimensionValues } from '../links/events';
import { type PublicSort } from '../domain/ordering';
import { RANKS } from '../domain/ordering';
import type { LinkForGood } from './decide';
import type { ListGoodsQuery } from './requests';
import { publicGood } from '../domain/public';

/** One select for the detail and the list, so a page of 1000 goods is one query. */
const GOOD_SELECT = `
  SELECT g.id, g.name, g.description, g.image, g.good_priority::float8 AS "goodPriority", g.tag_ids::text[] AS "tagIds",
         g.tag_font_color AS "tagFontColor", g.category_id AS "categoryId", g.country_id AS "countryId", g.family_id AS "familyId",
         g.origin_good_id AS "originGoodId", g.created_at AS "createdAt", g.updated_at AS "updatedAt", g.revision,
         COALESCE((SELECT array_agg(gog.origin_good_id::text ORDER BY gog.position) FROM good_origin_goods gog WHERE gog.good_id = g.id), '{}') AS "secondaryOriginGoodIds",
         -- the README's additions: the good's own price (as the list orders by it) and whether the storefront shows it
         (COALESCE(og.price, (SELECT min(m.price) FROM family_custom_members m WHERE m.good_id = g.id)))::text AS price,
         CASE WHEN g.on_shelf THEN 'on' ELSE 'off' END AS shelf,
         COALESCE((SELECT ${publicGood('g', 'pf')} FROM families pf WHERE pf.id = g.family_id), false) AS "public",
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

/** One good; 404 GOOD.NOT_FOUND when the read model has none. */
export async function readGood(db: Queryable, id: string) {
  const r = await db.query(`${GOOD_SELECT} WHERE g.id = $1`, [id]);
  if (!r.rows[0]) throw AppError.notFound('GOOD.NOT_FOUND', `no good ${id}`);
  return r.rows[0];
}

/** The list's filters (docs/api.md, GET /goods) as conditions on `goods g`, and the prepared search. */
async function goodFilters(db: Queryable, q: GoodFilter) {
  const f = new Filters();
  if (q.countryId) f.and(`g.country_id = ${f.param(q.countryId)}`);
  if (q.familyId) f.and(`g.family_id = ${f.param(q.familyId)}`);
  if (q.categoryId) {
    // any level: the category or one of its descendants
    f.and(`g.category_id IN (WITH RECURSIVE sub AS (SELECT id FROM categories WHERE id = ${f.param(q.categoryId)}
                   UNION ALL SELECT c.id FROM categories c JOIN sub ON c.parent_id = sub.id) SELECT id FROM sub)`);
  }
  const search = q.keyword ? await prepareSearch(db, q.keyword) : null;
  if (search) f.and(searchCondition(search, SEARCH_TARGETS.good('g'), (v) => f.param(v)));
  // `@>` lets the GIN index on goods.tag_ids find them.
  if (q.tagIds) f.and(`g.tag_ids @> ${f.param(q.tagIds)}::bigint[]`);
  if (q.custom) f.and(`g.origin_good_id IS ${q.custom === 'true' ? '' : 'NOT '}NULL`);
  if (q.ids) f.and(`g.id = ANY(${f.param(q.ids)}::bigint[])`);
  if (q.shelf) f.and(`g.on_shelf = ${f.param(q.shelf === 'on')}`);
  return { f, search };
}

type GoodFilter = Omit<ListGoodsQuery, 'page' | 'pageSize' | 'sort'>;

/** The ids of the goods the list's filters match now, by id, at most `limit` (a bulk change's selection). */
export async function goodIdsMatching(db: Queryable, q: GoodFilter, limit: number): Promise<string[]> {
  const { f } = await goodFilters(db, q);
  const r = await db.query<{ id: string }>(`SELECT g.id::text AS id FROM goods g ${f.where} ORDER BY g.id LIMIT ${limit}`, f.params);
  return r.rows.map((x) => x.id);
}

/** Goods filtered, by id or by one of the public sorts. */
export async function listGoods(db: Queryable, q: ListGoodsQuery) {
  const { f, search } = await goodFilters(db, q);
  const sort = q.sort;
  const page = await pageOf(db, f, q, {
    count: (where) => `SELECT count(*) AS n FROM goods g ${where}`,
    rows: (where, page) =>
      sort
        ? `WITH ${RANKS} ${GOOD_SELECT} LEFT JOIN co ON co.id = g.country_id LEFT JOIN cat ON cat.id = g.category_id
            ${where} ORDER BY ${ORDER_BY[sort]} ${page}`
        : `${GOOD_SELECT} ${where} ORDER BY g.id ${page}`,
  });
  return withSuggestions(db, search, page);
}

/** Goods by country, then category, then family (configuration count: the family's goods), and goods without family. */
export async function goodsTree(db: Queryable) {
  const rows = await db.query(
    `SELECT g.country_id AS "countryId", co.name AS "countryName", g.category_id AS "categoryId", c.name AS "categoryName",
            g.family_id AS "familyId", f.name AS "familyName", f.member_count AS "memberCount", count(*)::int AS "configurationCount",
            json_agg(json_build_object('id', g.id::text, 'name', g.name) ORDER BY g.id) AS goods
       FROM goods g LEFT JOIN countries co ON co.id = g.country_id LEFT JOIN categories c ON c.id = g.category_id
       LEFT JOIN families f ON f.id = g.family_id
      GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY min(co.sort_order), 1, min(c.sort_order), 3, 5`,
  );
  const countries = new Map<string, { id: string | null; name: string | null; categories: Map<string, { id: string | null; name: string | null; nodes: unknown[] }> }>();
  for (const row of rows.rows) {
    const ck = String(row.countryId);
    if (!countries.has(ck)) countries.set(ck, { id: row.countryId, name: row.countryName, categories: new Map() });
    const country = countries.get(ck)!;
    const gk = String(row.categoryId);
    if (!country.categories.has(gk)) country.categories.set(gk, { id: row.categoryId, name: row.categoryName, nodes: [] });
    const node = row.familyId
      ? { kind: 'family', id: row.familyId, name: row.familyName, configurationCount: row.configurationCount, memberCount: row.memberCount ?? 0, goods: row.goods }
      : { kind: 'goods', goods: row.goods };
    country.categories.get(gk)!.nodes.push(node);
  }
  return {
    items: [...countries.values()].map((c) => ({ id: c.id, name: c.name, categories: [...c.categories.values()].map((g) => ({ id: g.id, name: g.name, items: g.nodes })) })),
  };
}

/** The good's primary link as the read model holds it (undefined: no such good, null: a custom good). */
export async function primaryOriginOf(db: Queryable, goodId: string): Promise<string | null | undefined> {
  const r = await db.query<{ origin_good_id: string | null }>(`SELECT origin_good_id FROM goods WHERE id = $1`, [goodId]);
  return r.rows[0]?.origin_good_id;
}

/** Those of `ids` the read model has a link for. */
export async function knownLinkIds(db: Queryable, ids: readonly string[]): Promise<string[]> {
  const r = await db.query<{ id: string }>(`SELECT id FROM origin_goods WHERE id = ANY($1::bigint[])`, [ids]);
  return r.rows.map((k) => k.id);
}

/** The ids of every tag in a dimension group (deleted ones too: a good's tags name what they named). */
export async function dimensionTagIdsOf(pool: Pool): Promise<Set<string>> {
  const r = await pool.query<{ id: string }>(`SELECT t.id::text FROM tags t JOIN tag_groups g ON g.id = t.group_id WHERE g.dimension IS NOT NULL`);
  return new Set(r.rows.map((t) => t.id));
}

/** A link as a good made from it needs it, with the revision it was read at and the good it already has. */
export interface LinkRead extends LinkForGood {
  revision: bigint;
  goodId: string | null;
}

/** The links of `ids` that exist, in one query. */
export async function readLinks(pool: Pool, ids: readonly string[], index: DimensionTagIndex): Promise<Map<string, LinkRead>> {
  if (ids.length === 0) return new Map();
  const r = await pool.query<{
    id: string;
    name: string;
    image: string | null;
    category_id: string | null;
    category_name: string | null;
    parsed_product_name: string | null;
    parsed_sku: string | null;
    country_id: string | null;
    tags: DimensionValues | null;
    revision: string;
    good_id: string | null;
  }>(
    `SELECT og.id, og.name, og.image, og.category_id, c.name AS category_name, og.parsed_product_name, og.parsed_sku, og.tags, og.revision,
            (SELECT co.id FROM countries co WHERE co.name = og.parsed_country AND NOT co.removed ORDER BY co.id LIMIT 1) AS country_id,
            (SELECT g.id FROM goods g WHERE g.origin_good_id = og.id ORDER BY g.id LIMIT 1) AS good_id
       FROM origin_goods og LEFT JOIN categories c ON c.id = og.category_id WHERE og.id = ANY($1::bigint[])`,
    [ids],
  );
  return new Map(
    r.rows.map((l) => {
      const parsed = l.parsed_product_name && l.parsed_sku ? { productName: l.parsed_product_name, sku: l.parsed_sku } : null;
      const link: LinkRead = {
        id: l.id,
        derivedName: goodNameFromLink({ name: l.name, parsed, categoryName: l.category_name }),
        categoryName: l.category_name,
        categoryId: l.category_id,
        countryId: l.country_id,
        image: l.image,
        tagIds: tagsIn(index, l.tags).map((t) => t.id),
        revision: BigInt(l.revision),
        goodId: l.good_id,
      };
      return [l.id, link];
    }),
  );
}

/** The live home positions that list the good, and the families it is a custom member of, as the read models show them. */
export async function placesNaming(pool: Pool, goodId: string): Promise<{ positions: string[]; families: string[] }> {
  const r = await pool.query<{ positions: string[]; families: string[] }>(
    `SELECT ARRAY(SELECT pg.position_id::text FROM position_goods pg JOIN positions p ON p.id = pg.position_id AND NOT p.deleted
                   WHERE pg.good_id = $1 ORDER BY pg.position_id) AS positions,
            ARRAY(SELECT family_id::text FROM family_custom_members WHERE good_id = $1 ORDER BY family_id) AS families`,
    [goodId],
  );
  return r.rows[0]!;
}
