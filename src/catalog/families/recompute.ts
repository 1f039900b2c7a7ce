/**
 * Recomputes families' materialised aggregates from the catalog projection's own tables, inside
 * the projection's batch transaction. The computation itself is pure (src/catalog/domain/family-aggregates.ts,
 * which the audit history replays through too);
 * this file only loads its inputs in a fixed order (links by id) and stores the results, so a
 * rebuild from zero gives byte-identical rows. Families go in chunks: one query per input and one
 * UPDATE per chunk, and no more than a chunk's links (with their details) in memory at once.
 */
import type { LinkDetail } from '../domain/values';
import { FAMILY_AGGREGATE_RULES, computeFamilyAggregates } from '../domain/family-aggregates';
import type { MatrixLink } from '../domain/matrix';
import type { DimensionValuesInput } from '../domain/tags';
import { sameContent } from '../../platform/content-hash';
import type { ProjectionDb } from '../../platform/projections/definition';
import { type Columns, updateRows } from '../../platform/projections/sql';

const CHUNK = 1000;

const AGGREGATE_COLUMNS: Columns = {
  id: 'bigint',
  member_count: 'integer',
  good_count: 'integer',
  representative_good_id: 'bigint',
  variants: 'jsonb',
  size_chart: 'jsonb',
  packaging_specs: 'jsonb',
  options: 'jsonb',
  price_matrix: 'jsonb',
  conflicts: 'jsonb',
  lowest_price: 'numeric',
  media_by_color: 'jsonb',
};
const AGGREGATES = Object.keys(AGGREGATE_COLUMNS);

interface LinkRow {
  id: string;
  family_id: string;
  organised: boolean;
  delisted: boolean;
  tags: DimensionValuesInput | null;
  price: string;
  detail: LinkDetail | null;
}

export async function recomputeFamilies(db: ProjectionDb, familyIds: readonly string[]): Promise<void> {
  const ids = [...new Set(familyIds)];
  for (let i = 0; i < ids.length; i += CHUNK) await recomputeChunk(db, ids.slice(i, i + CHUNK));
}

/**
 * The part of the aggregates that depends on a family's goods alone (their count and the
 * representative, chosen among the goods on the shelf), for families whose links, custom members, overrides and secondary origins a batch
 * left as they were: one statement instead of reloading every member's detail. The order is the one
 * `recomputeChunk` takes the representative in.
 *
 * The stamp vouches for every aggregate, so it is carried forward only for a family whose stamp's
 * base (everything the goods do not enter: migration 031) held before this update; a family whose
 * other aggregates were never proven (stale rows from an older version, a row changed by hand, new
 * rules) is recomputed whole instead, so its stamp is written by code that computed all it vouches for.
 */
export async function recomputeFamilyGoods(db: ProjectionDb, familyIds: readonly string[]): Promise<void> {
  if (familyIds.length === 0) return;
  const ids = [...new Set(familyIds)];
  // One statement for the families whose base held: the base checked, the two columns written (only
  // where they move: an unchanged row is not rewritten) and the stamp carried forward, each input
  // hashed once. The stamp is the one STAMPS reads once the update is made: the base's part of the
  // aggregates (`base_md5`) is left as it was, the other two are the ones written.
  const r = await db.query<{ id: string }>(
    `WITH s AS MATERIALIZED (
       SELECT f.id, f.base_md5, fs.stamp AS stored, fs.base AS stored_base, l.fp AS l_fp, c.fp AS c_fp, o.fp AS o_fp, so.fp AS so_fp,
              md5($2::text || '#' || f.base_md5 || '#' || coalesce(l.fp, '') || '#' || coalesce(c.fp, '') || '#' ||
                  coalesce(o.fp, '') || '#' || coalesce(so.fp, '')) AS base
         FROM families f LEFT JOIN family_stamps fs ON fs.family_id = f.id ${LINKS_FP} ${CUSTOM_FP} ${OVERRIDES_FP} ${SECONDARY_FP}
        WHERE f.id = ANY($1::bigint[])
     ),
     x AS MATERIALIZED (
       SELECT s.id, count(g.id)::int AS n,
              (array_agg(g.id ORDER BY g.good_priority DESC, g.created_at DESC, g.id ASC) FILTER (WHERE g.id IS NOT NULL AND g.on_shelf))[1] AS representative,
              string_agg(${GOOD_FP_ROW}, ',' ORDER BY g.id) FILTER (WHERE g.id IS NOT NULL) AS gd_fp
         FROM s LEFT JOIN goods g ON g.family_id = s.id
        WHERE s.stored_base = s.base
        GROUP BY s.id
     ),
     written AS (
       UPDATE families f SET good_count = x.n, representative_good_id = x.representative FROM x
        WHERE f.id = x.id AND (f.good_count, f.representative_good_id) IS DISTINCT FROM (x.n, x.representative)
     ),
     stamped AS (
       INSERT INTO family_stamps (family_id, stamp, base)
       SELECT s.id, md5($2::text || '#' || md5(s.base_md5 || '|' || x.n::text || '|' || coalesce(x.representative::text, '')) || '#' ||
                        coalesce(s.l_fp, '') || '#' || coalesce(s.c_fp, '') || '#' || coalesce(s.o_fp, '') || '#' || coalesce(x.gd_fp, '') || '#' ||
                        coalesce(s.so_fp, '')), s.base
         FROM s JOIN x ON x.id = s.id
       ON CONFLICT (family_id) DO UPDATE SET stamp = EXCLUDED.stamp, base = EXCLUDED.base
        WHERE family_stamps.stamp IS DISTINCT FROM EXCLUDED.stamp OR family_stamps.base IS DISTINCT FROM EXCLUDED.base
     )
     SELECT id::text AS id FROM s WHERE stored_base IS DISTINCT FROM base`,
    [ids, FAMILY_AGGREGATE_RULES],
  );
  // The families whose base did not hold are recomputed whole.
  if (r.rows.length)
    await recomputeFamilies(
      db,
      r.rows.map((f) => f.id),
    );
}

async function recomputeChunk(db: ProjectionDb, ids: readonly string[]): Promise<void> {
  await updateRows(db, 'families', AGGREGATE_COLUMNS, AGGREGATES, await computeChunk(db, ids));
  await stampFamilies(db, ids);
}

/** The aggregate rows (in AGGREGATES order) of the chunk's families that exist. */
async function computeChunk(db: ProjectionDb, ids: readonly string[]): Promise<unknown[][]> {
  const families = await db.query<{ id: string }>(`SELECT id FROM families WHERE id = ANY($1::bigint[])`, [ids]);
  const present = families.rows.map((r) => r.id);
  if (present.length === 0) return [];

  // One query per input for all touched families, each in a fixed order.
  const links = await db.query<LinkRow>(
    `SELECT id, family_id, parsed_country IS NOT NULL AS organised, delisted, tags, price::text AS price, detail
       FROM origin_goods WHERE family_id = ANY($1::bigint[]) ORDER BY id`,
    [present],
  );
  const custom = await db.query<{ family_id: string; good_id: string; tags: DimensionValuesInput; price: string }>(
    `SELECT family_id, good_id, tags, price::text AS price FROM family_custom_members WHERE family_id = ANY($1::bigint[]) ORDER BY good_id`,
    [present],
  );
  const overrides = await db.query<{ family_id: string; size: string; color: string; print_count: string; craft: string; logistics: string; price: string }>(
    `SELECT family_id, size, color, print_count, craft, logistics, price::text AS price FROM family_overrides
      WHERE family_id = ANY($1::bigint[]) ORDER BY size, color, print_count, craft, logistics`,
    [present],
  );
  const goods = await db.query<{ family_id: string; id: string; good_priority: number; created_at: Date; on_shelf: boolean }>(
    `SELECT family_id, id, good_priority::float8 AS good_priority, created_at, on_shelf FROM goods WHERE family_id = ANY($1::bigint[]) ORDER BY good_priority DESC, created_at DESC, id ASC`,
    [present],
  );
  // Secondary origins of the family's goods add their variants, size chart, packaging specs, options
  // and media, after the member links (docs/domain.md, Unions and media); never matrix cells.
  const secondary = await db.query<{ family_id: string; origin_good_id: string; detail: LinkDetail | null }>(
    `SELECT g.family_id, gog.origin_good_id, og.detail
       FROM goods g JOIN good_origin_goods gog ON gog.good_id = g.id JOIN origin_goods og ON og.id = gog.origin_good_id
      WHERE g.family_id = ANY($1::bigint[]) AND NOT og.delisted
      ORDER BY g.id, gog.position`,
    [present],
  );

  const group = <T extends { family_id: string }>(rows: T[]) => {
    const m = new Map<string, T[]>();
    for (const r of rows) {
      let list = m.get(r.family_id);
      if (!list) m.set(r.family_id, (list = []));
      list.push(r);
    }
    return m;
  };
  const linksBy = group(links.rows);
  const customBy = group(custom.rows);
  const overridesBy = group(overrides.rows);
  const goodsBy = group(goods.rows);
  const secondaryBy = group(secondary.rows);

  const rows: unknown[][] = [];
  for (const familyId of present) {
    const memberRows = linksBy.get(familyId) ?? [];
    const members: MatrixLink[] = memberRows.map((l) => ({
      id: l.id,
      organised: l.organised,
      delisted: l.delisted,
      tags: l.tags ?? {},
      listPrice: l.price,
      detail: l.detail,
    }));
    const a = computeFamilyAggregates({
      links: members,
      customMembers: (customBy.get(familyId) ?? []).map((c) => ({ goodId: c.good_id, tags: c.tags, price: c.price })),
      overrides: (overridesBy.get(familyId) ?? []).map((o) => ({
        size: o.size,
        color: o.color,
        printCount: o.print_count,
        craft: o.craft,
        logistics: o.logistics,
        price: o.price,
      })),
      goods: (goodsBy.get(familyId) ?? []).map((g) => ({ id: g.id, goodPriority: g.good_priority, createdAt: g.created_at, onShelf: g.on_shelf })),
      secondaryOrigins: (secondaryBy.get(familyId) ?? []).map((s) => ({ id: s.origin_good_id, detail: s.detail })),
    });
    // jsonb keeps object keys in its own order, so the values go as they are (no key sorting needed).
    rows.push([
      familyId,
      a.memberCount,
      a.goodCount,
      a.representativeGoodId,
      a.variants,
      a.sizeChart,
      a.packagingSpecs,
      a.options,
      a.priceMatrix,
      a.conflicts,
      a.lowestPrice,
      a.mediaByColor,
    ]);
  }
  return rows;
}

/**
 * The families among `familyIds` whose stored aggregates differ from a recompute of their rows as
 * they are, each with the aggregate columns that differ, in column order (an organisation's closing
 * full recompute, src/catalog/organisation/full-recompute.ts). Reads only: the caller appends, the
 * projection writes. Compared here rather than in the database: sending every recomputed row back
 * would cost more than reading the stored ones. JSON compares by value (jsonb keeps its own key
 * order), the lowest price by its stored text (so a changed scale, `9.9` for `9.90`, counts).
 */
export async function staleFamilies(db: ProjectionDb, familyIds: readonly string[]): Promise<{ id: string; columns: string[] }[]> {
  const rows = await computeChunk(db, [...new Set(familyIds)]);
  const stored = await db.query<Record<string, unknown>>(
    `SELECT id::text AS id, member_count, good_count, representative_good_id::text AS representative_good_id, variants, size_chart, packaging_specs, options,
            price_matrix, conflicts, lowest_price::text AS lowest_price, media_by_color FROM families WHERE id = ANY($1::bigint[])`,
    [rows.map((r) => r[0])],
  );
  const byId = new Map(stored.rows.map((r) => [r.id as string, r]));
  const out: { id: string; columns: string[] }[] = [];
  for (const row of rows) {
    const s = byId.get(row[0] as string);
    const columns = AGGREGATES.slice(1).filter((c, i) => !s || !sameContent(s[c] ?? null, row[i + 1] ?? null));
    if (columns.length) out.push({ id: row[0] as string, columns });
  }
  return out;
}

// ------------------------------------------------------------------------------ stamps

/**
 * A hash of every stored aggregate, from the generated `base_md5` (all of them but the two a
 * goods-only update writes, which it therefore leaves alone: migration 037) and those two.
 */
const AGGREGATES_HASH = `md5(f.base_md5 || '|' || f.good_count::text || '|' || coalesce(f.representative_good_id::text, ''))`;

/**
 * Each family's stamp as its rows are now: a hash of the rules' version, its aggregates as stored
 * (AGGREGATES_HASH) and every input `computeChunk` reads, in the order it reads them (migration 029;
 * a link's inputs are two generated hashes, its small columns' and its detail's, so that writing a
 * small column does not hash the detail again: migration 036). Equal to the stored `family_stamps`
 * only when neither the aggregates, nor any input, nor the rules changed since the stamp was
 * written, and it is written only where the stored aggregates were computed from (or checked
 * against) exactly those inputs. Timestamps go as epoch microseconds: their text would follow the
 * session's time zone. The base is the same without the goods: the rules, `base_md5` and every
 * other input (migrations 031, 037).
 */
/** Each input of the stamp, hashed per family `f`, in the order `computeChunk` reads it (each a LEFT JOIN LATERAL giving `<x>.fp`). */
const LINKS_FP = `LEFT JOIN LATERAL (SELECT string_agg(og.id || ':' || og.aggregate_inputs_md5 || og.detail_md5, ',' ORDER BY og.id) AS fp
                         FROM origin_goods og WHERE og.family_id = f.id) l ON true`;
const CUSTOM_FP = `LEFT JOIN LATERAL (SELECT string_agg(row(m.good_id, m.tags, m.price)::text, ',' ORDER BY m.good_id) AS fp
                         FROM family_custom_members m WHERE m.family_id = f.id) c ON true`;
const OVERRIDES_FP = `LEFT JOIN LATERAL (SELECT string_agg(row(v.size, v.color, v.print_count, v.craft, v.logistics, v.price)::text, ','
                                         ORDER BY v.size, v.color, v.print_count, v.craft, v.logistics) AS fp
                         FROM family_overrides v WHERE v.family_id = f.id) o ON true`;
/** A good `g` as the stamp hashes it. */
const GOOD_FP_ROW = `row(g.id, g.good_priority, (extract(epoch FROM g.created_at) * 1000000)::bigint, g.on_shelf)::text`;
const GOODS_FP = `LEFT JOIN LATERAL (SELECT string_agg(${GOOD_FP_ROW}, ',' ORDER BY g.id) AS fp
                         FROM goods g WHERE g.family_id = f.id) gd ON true`;
const SECONDARY_FP = `LEFT JOIN LATERAL (SELECT string_agg(gog.good_id || ':' || gog.origin_good_id || ':' || og.aggregate_inputs_md5 || og.detail_md5, ',' ORDER BY gog.good_id, gog.position) AS fp
                         FROM goods g JOIN good_origin_goods gog ON gog.good_id = g.id JOIN origin_goods og ON og.id = gog.origin_good_id
                        WHERE g.family_id = f.id) so ON true`;

const stampsWhere = (where: string, rules: string) => `
  SELECT f.id, fs.stamp AS stored, fs.base AS stored_base,
         md5(${rules}::text || '#' || ${AGGREGATES_HASH} || '#' || coalesce(l.fp, '') || '#' || coalesce(c.fp, '') || '#' ||
             coalesce(o.fp, '') || '#' || coalesce(gd.fp, '') || '#' || coalesce(so.fp, '')) AS stamp,
         md5(${rules}::text || '#' || f.base_md5 || '#' || coalesce(l.fp, '') || '#' || coalesce(c.fp, '') || '#' ||
             coalesce(o.fp, '') || '#' || coalesce(so.fp, '')) AS base
    FROM families f
    LEFT JOIN family_stamps fs ON fs.family_id = f.id
    ${LINKS_FP} ${CUSTOM_FP} ${OVERRIDES_FP} ${GOODS_FP} ${SECONDARY_FP}
   WHERE ${where}`;
const STAMPS = stampsWhere('f.id = ANY($1::bigint[])', '$2');

/** Stamps families whose aggregates were just computed from their rows, in the same transaction. */
async function stampFamilies(db: ProjectionDb, familyIds: readonly string[]): Promise<void> {
  if (familyIds.length === 0) return;
  await db.query(
    `INSERT INTO family_stamps (family_id, stamp, base) SELECT id, stamp, base FROM (${STAMPS}) s
      WHERE stored IS DISTINCT FROM stamp OR stored_base IS DISTINCT FROM base
     ON CONFLICT (family_id) DO UPDATE SET stamp = EXCLUDED.stamp, base = EXCLUDED.base`,
    [[...new Set(familyIds)], FAMILY_AGGREGATE_RULES],
  );
}

/**
 * Every family whose stamp does not hold, in id order: one statement, so one snapshot. On a catalog
 * the projection keeps, that is none, and checking costs this query instead of a recompute of every
 * family (reading every member's detail).
 */
export async function unprovenFamilies(db: ProjectionDb): Promise<string[]> {
  const r = await db.query<{ id: string }>(`SELECT id::text AS id FROM (${stampsWhere('true', '$1')}) s WHERE stored IS DISTINCT FROM stamp ORDER BY id`, [FAMILY_AGGREGATE_RULES]);
  return r.rows.map((x) => x.id);
}

/** What checking families against their rows found. */
export interface FamilyCheck {
  /** families whose stored aggregates differ from a recompute, with the columns that do */
  stale: { id: string; columns: string[] }[];
  /** families recomputed and found right whose stamp was missing or out of date: `recordStamps` them */
  verified: { id: string; stamp: string; base: string }[];
}

/**
 * Checks families against their rows as they are (an organisation's closing full recompute,
 * src/catalog/organisation/full-recompute.ts): a family whose stamp matches is right without a
 * recompute; the others are recomputed (`staleFamilies`). Reads only.
 */
export async function checkFamilies(db: ProjectionDb, familyIds: readonly string[]): Promise<FamilyCheck> {
  const stamps = await db.query<{ id: string; stored: string | null; stamp: string; stored_base: string | null; base: string }>(
    `SELECT id::text AS id, stored, stamp, stored_base, base FROM (${STAMPS}) s`,
    [[...new Set(familyIds)], FAMILY_AGGREGATE_RULES],
  );
  const unproven = stamps.rows.filter((r) => r.stored !== r.stamp || r.stored_base !== r.base);
  if (unproven.length === 0) return { stale: [], verified: [] };
  const stale = await staleFamilies(
    db,
    unproven.map((r) => r.id),
  );
  const staleIds = new Set(stale.map((f) => f.id));
  return { stale, verified: unproven.filter((r) => !staleIds.has(r.id)).map((r) => ({ id: r.id, stamp: r.stamp, base: r.base })) };
}

/**
 * Records stamps that `checkFamilies` computed in an earlier snapshot. Safe whenever it lands: a
 * stamp only ever vouches for the aggregates and inputs it hashes, so one written after the family
 * changed again simply fails to match at the next check, which then recomputes the family.
 */
export async function recordStamps(db: ProjectionDb, verified: readonly { id: string; stamp: string; base: string }[]): Promise<void> {
  if (verified.length === 0) return;
  await db.query(
    `INSERT INTO family_stamps (family_id, stamp, base)
     SELECT x.id, x.stamp, x.base FROM unnest($1::bigint[], $2::text[], $3::text[]) AS x(id, stamp, base) JOIN families f ON f.id = x.id
     ON CONFLICT (family_id) DO UPDATE SET stamp = EXCLUDED.stamp, base = EXCLUDED.base
      WHERE family_stamps.stamp IS DISTINCT FROM EXCLUDED.stamp OR family_stamps.base IS DISTINCT FROM EXCLUDED.base`,
    [verified.map((v) => v.id), verified.map((v) => v.stamp), verified.map((v) => v.base)],
  );
}
