/**
 * What organisation reads of the read models, and the stamps it writes (docs/domain.md,
 * Organisation): links a chunk at a time with what planning needs, the families with their stream
 * revisions, and the links' plan stamps.
 */
import type { Pool } from '../../platform/db';
import type { DimensionValues } from '../domain/values';
import { LINK_PLAN_RULES, type LinkFacts } from './plan';
import type { FamilyFacts } from '../domain/grouping';

/** A link as organisation decides on it: its facts, its stream revision and its family. */
export interface LinkRow extends LinkFacts {
  revision: bigint;
  familyId: string | null;
}

/** A link as `readLinks` reads it: whether its stamp holds, and the hash of its inputs to stamp it with. */
export interface ReadLink extends LinkRow {
  /**
   * Its stamp matches: this step already left its parsed columns and tags as the present rules make
   * them from its present inputs, and it has a family (so grouping needs nothing of it). Its detail
   * is not read and it is not planned again.
   */
  settled: boolean;
  planInputs: string;
}

/**
 * What the per-link step reads of a link, as the database hashes it (migrations 029 and 036): its
 * name and manual tags, and its variants' sizes and colours, in two generated columns.
 */
const PLAN_INPUTS = `(og.plan_inputs_md5 || og.variant_dims_md5)`;
/** What the per-link step left in a link's row (its parsed columns and tags), as text: with PLAN_INPUTS, what a link's stamp hashes. */
const PLAN_OUTPUTS = `quote_nullable(og.parsed_country) || quote_nullable(og.parsed_logistics) || quote_nullable(og.parsed_product_name) ||
  quote_nullable(og.parsed_sku) || quote_nullable(og.family_name_key) || '|' || coalesce(og.tags::text, '')`;
/** A link's stamp as its row is now; `rules`: the parameter holding LINK_PLAN_RULES. */
const linkStamp = (rules: string) => `md5(${rules}::text || '#' || ${PLAN_INPUTS} || '#' || ${PLAN_OUTPUTS})`;

/**
 * Every link, `chunk` at a time in id order, with what planning needs (of the detail: the variants'
 * sizes and colours, and only for links whose stamp does not hold: reading every detail was most of
 * a run with nothing to do).
 */
export async function* readLinks(pool: Pool, chunk: number): AsyncGenerator<ReadLink[]> {
  for (let after = '-1'; ;) {
    const rows = await queryLinks(pool, `og.id > $1 ORDER BY og.id LIMIT $2`, [after, chunk, LINK_PLAN_RULES], '$3');
    if (rows.length === 0) return;
    after = rows[rows.length - 1]!.id;
    yield rows;
  }
}

/** These links, in id order, as `readLinks` reads them (those that exist). */
export function readLinksById(pool: Pool, ids: readonly string[]): Promise<ReadLink[]> {
  return queryLinks(pool, `og.id = ANY($1::bigint[]) ORDER BY og.id`, [ids, LINK_PLAN_RULES], '$2');
}

/** `rules`: the parameter of `params` that holds LINK_PLAN_RULES. */
async function queryLinks(pool: Pool, where: string, params: unknown[], rules: string): Promise<ReadLink[]> {
  const r = await pool.query<{
    id: string;
    name: string;
    revision: string;
    has_detail: boolean;
    sizes: string[];
    colors: string[];
    parsed_country: string | null;
    parsed_logistics: string;
    parsed_product_name: string;
    parsed_sku: string;
    family_name_key: string;
    tags: DimensionValues | null;
    tags_manual: boolean;
    family_id: string | null;
    plan_inputs: string;
    settled: boolean;
  }>(
    // The stamp compared once per link; the variants read (in one pass) only where it does not hold.
    `SELECT og.id, og.name, og.revision, og.detail IS NOT NULL AS has_detail, coalesce(d.sizes, '{}') AS sizes, coalesce(d.colors, '{}') AS colors,
            og.parsed_country, og.parsed_logistics, og.parsed_product_name, og.parsed_sku, og.family_name_key, og.tags, og.tags_manual, f.id AS family_id,
            ${PLAN_INPUTS} AS plan_inputs, st.settled
       FROM origin_goods og
       LEFT JOIN link_plan_stamps ps ON ps.link_id = og.id
       -- A family deleted or merged away is no family: its link is grouped again like any other.
       LEFT JOIN families f ON f.id = og.family_id
      CROSS JOIN LATERAL (SELECT coalesce(ps.stamp = ${linkStamp(rules)} AND og.parsed_country IS NOT NULL AND f.id IS NOT NULL, false) AS settled) st
       LEFT JOIN LATERAL (SELECT array_agg(v.x->>'size' ORDER BY v.n) AS sizes, array_agg(v.x->>'color' ORDER BY v.n) AS colors
                            FROM jsonb_array_elements(og.detail->'variants') WITH ORDINALITY AS v(x, n) WHERE NOT st.settled) d ON true
      WHERE ${where}`,
    params,
  );
  return r.rows.map((row) => ({
    id: row.id,
    name: row.name,
    revision: BigInt(row.revision),
    detail: row.has_detail ? { variants: row.sizes.map((size, i) => ({ size, color: row.colors[i]! })) } : null,
    parsed: row.parsed_country
      ? { country: row.parsed_country, logistics: row.parsed_logistics, productName: row.parsed_product_name, sku: row.parsed_sku, familyNameKey: row.family_name_key }
      : null,
    tags: row.tags,
    tagsManual: row.tags_manual,
    familyId: row.family_id,
    settled: row.settled,
    planInputs: row.plan_inputs,
  }));
}

/** A planned link's stamp: the inputs it was planned from, as read, and the outputs the plan leaves. */
export interface PlanStamp {
  id: string;
  inputs: string;
  parsed: { country: string; logistics: string; productName: string; sku: string; familyNameKey: string };
  tags: DimensionValues | null;
}

/**
 * Stamps links as soon as their plan is appended (or needs nothing appended): the stamp hashes the
 * inputs as they were read and the parsed columns and tags the plan leaves, as `linkStamp` hashes
 * them from the row. It is written before the projection shows the plan, and needs no wait: it holds
 * at the next run only when the row then has these very inputs and outputs, so a link whose inputs
 * changed meanwhile, or whose plan never reached its row, is planned again.
 */
export async function stampPlans(pool: Pool, planned: readonly PlanStamp[]): Promise<void> {
  if (planned.length === 0) return;
  await pool.query(
    `INSERT INTO link_plan_stamps (link_id, stamp)
     SELECT p.id, md5($8::text || '#' || p.inputs || '#' || quote_nullable(p.country) || quote_nullable(p.logistics) || quote_nullable(p.product_name) ||
                      quote_nullable(p.sku) || quote_nullable(p.family_name_key) || '|' || coalesce(NULLIF(p.tags, 'null'::jsonb)::text, ''))
       FROM ROWS FROM (unnest($1::bigint[]), unnest($2::text[]), unnest($3::text[]), unnest($4::text[]), unnest($5::text[]), unnest($6::text[]),
                       unnest($7::text[]), jsonb_array_elements($9::jsonb)) AS p(id, inputs, country, logistics, product_name, sku, family_name_key, tags)
     ON CONFLICT (link_id) DO UPDATE SET stamp = EXCLUDED.stamp WHERE link_plan_stamps.stamp IS DISTINCT FROM EXCLUDED.stamp`,
    [
      planned.map((p) => p.id),
      planned.map((p) => p.inputs),
      planned.map((p) => p.parsed.country),
      planned.map((p) => p.parsed.logistics),
      planned.map((p) => p.parsed.productName),
      planned.map((p) => p.parsed.sku),
      planned.map((p) => p.parsed.familyNameKey),
      LINK_PLAN_RULES,
      JSON.stringify(planned.map((p) => p.tags)),
    ],
  );
}

/** The families as the read model shows them, with their stream revisions (the row's revision is its stream's). */
export async function loadFamilies(pool: Pool): Promise<(FamilyFacts & { revision: bigint })[]> {
  const r = await pool.query<{ id: string; family_name_key: string | null; auto_managed: boolean; locked: boolean; good_count: number; overrides: string; revision: string }>(
    `SELECT f.id, f.family_name_key, f.auto_managed, f.locked, f.good_count, f.revision,
            (SELECT count(*) FROM family_overrides o WHERE o.family_id = f.id) AS overrides
       FROM families f ORDER BY f.id`,
  );
  return r.rows.map((f) => ({
    id: f.id,
    familyNameKey: f.family_name_key,
    autoManaged: f.auto_managed,
    locked: f.locked,
    goodCount: f.good_count,
    overrideCount: Number(f.overrides),
    revision: BigInt(f.revision),
  }));
}
