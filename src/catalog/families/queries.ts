/** Reads of the catalog projection's families (and their members) for administrators and for the family commands. */
import type { Queryable } from '../../platform/db';
import { AppError } from '../../platform/errors';
import { Filters, pageOf } from '../../platform/query-builder';
import { likePattern } from '../../platform/sql';
import { normaliseMoney } from '../domain/money';
import type { ListFamiliesQuery } from './requests';

interface FamilyRow {
  id: string;
  name: string;
  family_name_key: string | null;
  auto_managed: boolean;
  locked: boolean;
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
}

function familyView(f: FamilyRow, members: unknown[], customMembers: unknown[], overrides: unknown[]) {
  const { invalidOverrides, ...priceMatrix } = f.price_matrix as { invalidOverrides?: unknown };
  return {
    id: f.id,
    name: f.name,
    familyNameKey: f.family_name_key,
    autoManaged: f.auto_managed,
    locked: f.locked,
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
  const f = await db.query<FamilyRow>(`SELECT *, lowest_price::text AS lowest_price FROM families WHERE id = $1`, [id]);
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

/** Families by id, optionally by a name keyword and by lock. */
export function listFamilies(db: Queryable, q: ListFamiliesQuery) {
  const f = new Filters();
  if (q.keyword) f.and(`name ILIKE ${f.param(likePattern(q.keyword))}`);
  if (q.locked) f.and(`locked = ${f.param(q.locked === 'true')}`);
  return pageOf(db, f, q, {
    count: (where) => `SELECT count(*) AS n FROM families ${where}`,
    rows: (where, page) =>
      `SELECT id, name, family_name_key AS "familyNameKey", auto_managed AS "autoManaged", locked, member_count AS "memberCount",
              good_count AS "goodCount", lowest_price::text AS "lowestPrice", representative_good_id AS "representativeGoodId"
         FROM families ${where} ORDER BY id ${page}`,
  });
}

/** How many links and goods the read model counts in the family (none when it has no row). */
export async function familyContents(db: Queryable, id: string): Promise<{ memberCount: number; goodCount: number }> {
  const r = await db.query<{ member_count: number; good_count: number }>(`SELECT member_count, good_count FROM families WHERE id = $1`, [id]);
  const f = r.rows[0] ?? { member_count: 0, good_count: 0 };
  return { memberCount: f.member_count, goodCount: f.good_count };
}

/** Whether the read model shows the link in the family. */
export async function isMember(db: Queryable, familyId: string, linkId: string): Promise<boolean> {
  const r = await db.query(`SELECT 1 FROM origin_goods WHERE id = $1 AND family_id = $2`, [linkId, familyId]);
  return !!r.rowCount;
}

/** A good as a custom member needs it: whether it has a primary link; null when there is no such good. */
export async function goodOrigin(db: Queryable, goodId: string): Promise<{ originGoodId: string | null } | null> {
  const r = await db.query<{ origin_good_id: string | null }>(`SELECT origin_good_id, family_id FROM goods WHERE id = $1`, [goodId]);
  return r.rows[0] ? { originGoodId: r.rows[0].origin_good_id } : null;
}
