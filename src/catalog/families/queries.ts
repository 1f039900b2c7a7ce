/** Reads of the catalog projection's families (and their members) for administrators and for the family commands. */
import type { Queryable } from '../../platform/db';
import { AppError } from '../../platform/errors';
import { Filters, pageOf } from '../../platform/query-builder';
import { SEARCH_TARGETS, prepareSearch, searchCondition, withSuggestions } from '../search';
import { normaliseMoney } from '../domain/money';
import type { ListFamiliesQuery } from './requests';

interface FamilyRow {
  id: string;
  name: string;
  family_name_key: string | null;
  auto_managed: boolean;
  locked: boolean;
  on_shelf: boolean;
  is_public: boolean;
  member_count: number;
  good_count: number;
  representative_good_id: string | null;
  variants: unknown;
  size_chart: unknown;
  packaging_specs: unknown;
  options: unknown;
  price_matrix: Record<string, unknown>;
  conflicts: unknown;
  lowest_price: string | null;
  media_by_color: unknown;
  revision: string;
  country: { id: string | null; name: string } | null;
}

function familyView(f: FamilyRow, members: unknown[], customMembers: unknown[], overrides: unknown[]) {
  const { invalidOverrides, ...priceMatrix } = f.price_matrix as { invalidOverrides?: unknown };
  return {
    id: f.id,
    name: f.name,
    familyNameKey: f.family_name_key,
    autoManaged: f.auto_managed,
    locked: f.locked,
    shelf: f.on_shelf ? ('on' as const) : ('off' as const),
    /** shown by the storefront (docs/domain.md, Public catalog) */
    public: f.is_public,
    country: f.country,
    memberCount: f.member_count,
    goodCount: f.good_count,
    representativeGoodId: f.representative_good_id,
    members,
    customMembers,
    overrides,
    lowestPrice: f.lowest_price === null ? null : normaliseMoney(f.lowest_price),
    priceMatrix,
    invalidOverrides: invalidOverrides ?? [],
    conflicts: f.conflicts,
    variants: f.variants,
    sizeChart: f.size_chart,
    packagingSpecs: f.packaging_specs,
    options: f.options,
    mediaByColor: f.media_by_color,
    revision: f.revision,
  };
}

export type FamilyView = ReturnType<typeof familyView>;

/** One family with its members, custom members and overrides; 404 FAMILY.NOT_FOUND when the read model has none. */
export async function readFamily(db: Queryable, id: string): Promise<FamilyView> {
  const f = await db.query<FamilyRow>(
    `SELECT f.*, f.lowest_price::text AS lowest_price, CASE WHEN fc.name IS NULL THEN NULL ELSE json_build_object('id', fc.id, 'name', fc.name) END AS country
       FROM families f ${FAMILY_COUNTRY} WHERE f.id = $1`,
    [id],
  );
  const row = f.rows[0];
  if (!row) throw AppError.notFound('FAMILY.NOT_FOUND', `no family ${id}`);
  const [members, custom, overrides] = await Promise.all([
    db.query(
      `SELECT id, name, delisted, parsed_country IS NOT NULL AS organised, tags, tags_manual AS "tagsManual", tags_missing AS missing
         FROM origin_goods WHERE family_id = $1 ORDER BY id`,
      [id],
    ),
    db.query(`SELECT good_id AS "goodId", tags, price::text AS price FROM family_custom_members WHERE family_id = $1 ORDER BY good_id`, [id]),
    db.query(
      `SELECT size, color, print_count AS "printCount", craft, logistics, price::text AS price FROM family_overrides WHERE family_id = $1
        ORDER BY size, color, print_count, craft, logistics`,
      [id],
    ),
  ]);
  return familyView(
    row,
    members.rows,
    custom.rows.map((c) => ({ ...c, price: normaliseMoney(c.price) })),
    overrides.rows.map((o) => ({ ...o, price: normaliseMoney(o.price) })),
  );
}

const FAMILY_ORDER: Record<NonNullable<ListFamiliesQuery['sort']>, string> = {
  ID: 'f.id',
  NAME: 'f.name, f.id',
  MEMBERS_DESC: 'f.member_count DESC, f.id',
  PRICE_ASC: 'f.lowest_price ASC NULLS LAST, f.id',
  PRICE_DESC: 'f.lowest_price DESC NULLS LAST, f.id',
  UPDATED_DESC: 'f.updated_at DESC, f.id',
};

/**
 * A family's country, as the lists show it: its representative good's country, else the country its
 * member links' names give (by name; the id when a country of that name exists). Lateral on `f`.
 */
const FAMILY_COUNTRY = `LEFT JOIN LATERAL (
    SELECT co.id::text AS id, co.name FROM goods g JOIN countries co ON co.id = g.country_id AND NOT co.removed WHERE g.id = f.representative_good_id
    UNION ALL
    SELECT (SELECT co.id::text FROM countries co WHERE co.name = og.parsed_country AND NOT co.removed ORDER BY co.id LIMIT 1), og.parsed_country
      FROM origin_goods og WHERE og.family_id = f.id AND og.parsed_country IS NOT NULL
    LIMIT 1) fc ON true`;

/** The list's filters (docs/api.md, GET /product-families) as conditions on `families f` (its country lateral as `fc`). */
async function familyFilters(db: Queryable, q: FamilyFilter) {
  const f = new Filters();
  const search = q.keyword ? await prepareSearch(db, q.keyword) : null;
  if (search) f.and(searchCondition(search, SEARCH_TARGETS.family('f'), (v) => f.param(v)));
  if (q.locked) f.and(`f.locked = ${f.param(q.locked === 'true')}`);
  if (q.manual) f.and(`f.auto_managed = ${f.param(q.manual === 'false')}`);
  if (q.priced) f.and(q.priced === 'true' ? 'f.lowest_price IS NOT NULL' : 'f.lowest_price IS NULL');
  if (q.countryId) f.and(`fc.id = ${f.param(q.countryId)}`);
  if (q.shelf) f.and(`f.on_shelf = ${f.param(q.shelf === 'on')}`);
  const country = q.countryId ? FAMILY_COUNTRY : '';
  return { f, search, country };
}

type FamilyFilter = Omit<ListFamiliesQuery, 'page' | 'pageSize' | 'sort'>;

/** The ids of the families the list's filters match now, by id, at most `limit` (a bulk change's selection). */
export async function familyIdsMatching(db: Queryable, q: FamilyFilter, limit: number): Promise<string[]> {
  const { f, country } = await familyFilters(db, q);
  const r = await db.query<{ id: string }>(`SELECT f.id::text AS id FROM families f ${country} ${f.where} ORDER BY f.id LIMIT ${limit}`, f.params);
  return r.rows.map((x) => x.id);
}

/** Families, filtered by keyword (docs/domain.md, Search), lock, manual, priced and country, in one of the list's orders. */
export async function listFamilies(db: Queryable, q: ListFamiliesQuery) {
  const { f, search, country } = await familyFilters(db, q);
  const page = await pageOf(db, f, q, {
    count: (where) => `SELECT count(*) AS n FROM families f ${country} ${where}`,
    rows: (where, page) =>
      `SELECT f.id, f.name, f.family_name_key AS "familyNameKey", f.auto_managed AS "autoManaged", f.locked, f.member_count AS "memberCount",
              CASE WHEN f.on_shelf THEN 'on' ELSE 'off' END AS shelf, f.is_public AS public,
              f.good_count AS "goodCount", f.lowest_price::text AS "lowestPrice", f.representative_good_id AS "representativeGoodId",
              f.updated_at AS "updatedAt", CASE WHEN fc.name IS NULL THEN NULL ELSE json_build_object('id', fc.id, 'name', fc.name) END AS country
         FROM families f ${FAMILY_COUNTRY} ${where} ORDER BY ${FAMILY_ORDER[q.sort ?? 'ID']} ${page}`,
  });
  return withSuggestions(db, search, page);
}

/** How many links and goods the read model counts in the family (none when it has no row). */
export async function familyContents(db: Queryable, id: string): Promise<{ memberCount: number; goodCount: number }> {
  const r = await db.query<{ member_count: number; good_count: number }>(`SELECT member_count, good_count FROM families WHERE id = $1`, [id]);
  const f = r.rows[0] ?? { member_count: 0, good_count: 0 };
  return { memberCount: f.member_count, goodCount: f.good_count };
}

/** A good as a custom member needs it: whether it has a primary link; null when there is no such good. */
export async function goodOrigin(db: Queryable, goodId: string): Promise<{ originGoodId: string | null } | null> {
  const r = await db.query<{ origin_good_id: string | null }>(`SELECT origin_good_id, family_id FROM goods WHERE id = $1`, [goodId]);
  return r.rows[0] ? { originGoodId: r.rows[0].origin_good_id } : null;
}
