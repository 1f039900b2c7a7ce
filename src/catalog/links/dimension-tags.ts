/**
 * Link tags are dimension values (`{craft: ['直喷'], …}`); administrators and the storefront see
 * them as tags of the tag group holding that dimension. This maps between the two, and creates the
 * group or tag a derived value needs (through the tag slices' own commands).
 */
import type { AdminDeps } from '../admin-commands';
import type { Actor } from '../../platform/commands';
import { AppError, unknownReference } from '../../platform/errors';
import { DIMENSIONS, type Dimension } from '../domain/tags';
import { createTagGroup } from '../tag-groups/handle';
import { createTag } from '../tags/handle';
import type { DimensionValues } from './events';

export interface DimensionTag {
  id: string;
  name: string;
  dimension: Dimension;
}

/** Names of the groups organisation creates when a dimension has none yet. */
const GROUP_NAMES: Record<Dimension, string> = { size: '尺码', color: '颜色', printCount: '印花面数', craft: '工艺', logistics: '物流' };

const key = (d: string, v: string) => `${d}\u0000${v}`;

export type DimensionTagIndex = { groups: Map<Dimension, string>; tags: Map<string, DimensionTag> };

/** Every live tag of a dimension group, by (dimension, name); load once per request, not per row. */
export async function dimensionTagIndex(deps: Pick<AdminDeps, 'pool'>): Promise<DimensionTagIndex> {
  const groups = await deps.pool.query<{ id: string; dimension: Dimension }>(`SELECT id, dimension FROM tag_groups WHERE NOT deleted AND dimension IS NOT NULL`);
  const tags = await deps.pool.query<{ id: string; name: string; dimension: Dimension }>(
    `SELECT t.id, t.name, g.dimension FROM tags t JOIN tag_groups g ON g.id = t.group_id
      WHERE NOT t.deleted AND NOT g.deleted AND g.dimension IS NOT NULL ORDER BY t.sort_order, t.id`,
  );
  const index = new Map<string, DimensionTag>();
  for (const t of tags.rows) if (!index.has(key(t.dimension, t.name))) index.set(key(t.dimension, t.name), t);
  return { groups: new Map(groups.rows.map((g) => [g.dimension, g.id])), tags: index };
}

/** The tags of these values, in DIMENSIONS order; values without a tag are left out. */
export async function tagsOf(deps: AdminDeps, values: Partial<DimensionValues> | null): Promise<DimensionTag[]> {
  return values ? tagsIn(await dimensionTagIndex(deps), values) : [];
}

/** The same, from an index already loaded (lists: one index for the whole page). */
export function tagsIn(index: DimensionTagIndex, values: Partial<DimensionValues> | null): DimensionTag[] {
  if (!values) return [];
  return DIMENSIONS.flatMap((d) => (values[d] ?? []).flatMap((v) => index.tags.get(key(d, v)) ?? []));
}

/** Administrators' tag ids → dimension values; a tag outside every dimension group is a 400. */
export async function valuesOfTagIds(deps: AdminDeps, tagIds: readonly string[]): Promise<{ values: Partial<Record<Dimension, string[]>> }> {
  const r = await deps.pool.query<{ id: string; name: string; dimension: Dimension | null }>(
    `SELECT t.id, t.name, g.dimension FROM tags t JOIN tag_groups g ON g.id = t.group_id WHERE t.id = ANY($1::bigint[]) AND NOT t.deleted AND NOT g.deleted`,
    [tagIds],
  );
  const unknown = tagIds.filter((id) => !r.rows.some((t) => t.id === id));
  if (unknown.length) throw unknownReference('tagIds', unknown, 'tag');
  const plain = r.rows.filter((t) => !t.dimension).map((t) => t.id);
  if (plain.length) throw AppError.badRequest('TAGS.NOT_A_DIMENSION', 'link tags must belong to a tag group with a dimension', { tagIds: plain });
  const values: Partial<Record<Dimension, string[]>> = {};
  for (const t of r.rows) if (!(values[t.dimension!] ??= []).includes(t.name)) values[t.dimension!]!.push(t.name);
  return { values };
}

/** Makes sure every value has a tag in its dimension's group (creating the group if need be). */
export async function ensureDimensionTags(deps: AdminDeps, values: Partial<DimensionValues>, actor: Actor): Promise<void> {
  let { groups, tags } = await dimensionTagIndex(deps);
  for (const d of DIMENSIONS) {
    const missing = [...new Set(values[d] ?? [])].filter((v) => !tags.has(key(d, v)));
    if (missing.length === 0) continue;
    let groupId = groups.get(d);
    if (!groupId) {
      try {
        groupId = (await createTagGroup(deps, { name: GROUP_NAMES[d], dimension: d }, actor)).id;
      } catch (e) {
        // Another process created it a moment ago: use theirs.
        if (!(e instanceof AppError && e.status === 409)) throw e;
        ({ groups, tags } = await dimensionTagIndex(deps));
        groupId = groups.get(d)!;
      }
    }
    for (const name of missing) {
      try {
        await createTag(deps, { name, groupId, color: null }, actor);
      } catch (e) {
        if (!(e instanceof AppError && e.status === 409)) throw e;
      }
    }
  }
}
