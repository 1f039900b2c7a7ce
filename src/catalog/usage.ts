/**
 * What uses a resource (docs/api.md, Usage): the counts an administrator is shown before a delete,
 * and the rule that a country, category or tag still used by goods or links is not deleted (a
 * deleted id left in a good or a link would be shown by the storefront and refused when that good is
 * saved again). The counts are read from the read models; a delete reads them under the resource's
 * reference lock, once the read models show every event (src/catalog/references.ts), so no write
 * can add a use between the count and the delete.
 */
import type { Queryable } from '../platform/db';
import { AppError } from '../platform/errors';
import type { Usage } from '../contract/usage';

export type { Usage };

export const CATEGORY_USAGE = ['children', 'goods', 'links', 'families'] as const;
export const COUNTRY_USAGE = ['goods', 'links', 'families'] as const;
export const TAG_USAGE = ['goods', 'links', 'families'] as const;
export const TAG_GROUP_USAGE = ['tags', 'goods', 'links', 'families'] as const;
export const GOOD_USAGE = ['positions', 'customMemberOf', 'familyGoods'] as const;
export const FAMILY_USAGE = ['members', 'customMembers', 'goods', 'overrides'] as const;

type Counts<K extends string> = Record<K, number>;

/** The counts, with the keys in `blocking` that are non-zero as what refuses a delete. */
function usage<K extends string>(counts: Counts<K>, blocking: readonly NoInfer<K>[]): Usage<K> {
  return { counts, blockedBy: blocking.filter((k) => counts[k] > 0) };
}

const ints = <K extends string>(row: Record<string, unknown> | undefined, keys: readonly K[]): Counts<K> =>
  Object.fromEntries(keys.map((k) => [k, Number(row?.[k] ?? 0)])) as Counts<K>;

/**
 * A category: its live subcategories (a category with children is refused as before, with its own
 * code), the goods and links filed under it, and the public families those goods make.
 */
export async function categoryUsage(db: Queryable, id: string): Promise<Usage<(typeof CATEGORY_USAGE)[number]>> {
  const r = await db.query(
    `SELECT (SELECT count(*) FROM categories WHERE parent_id = $1 AND NOT removed) AS children,
            (SELECT count(*) FROM goods WHERE category_id = $1) AS goods,
            (SELECT count(*) FROM origin_goods WHERE category_id = $1) AS links,
            (SELECT count(DISTINCT family_id) FROM goods WHERE category_id = $1 AND family_id IS NOT NULL) AS families`,
    [id],
  );
  return usage(ints(r.rows[0], CATEGORY_USAGE), ['children', 'goods', 'links']);
}

/** A country: the goods placed in it, the links whose name organisation parsed to it, their public families. */
export async function countryUsage(db: Queryable, id: string): Promise<Usage<(typeof COUNTRY_USAGE)[number]>> {
  const r = await db.query(
    `SELECT (SELECT count(*) FROM goods WHERE country_id = $1) AS goods,
            (SELECT count(*) FROM origin_goods og JOIN countries c ON c.id = $1 WHERE og.parsed_country = c.name) AS links,
            (SELECT count(DISTINCT family_id) FROM goods WHERE country_id = $1 AND family_id IS NOT NULL) AS families`,
    [id],
  );
  return usage(ints(r.rows[0], COUNTRY_USAGE), ['goods', 'links']);
}

/**
 * A tag: the goods that carry it, the links whose tags hold its name in its group's dimension (a
 * dimension tag: organisation would derive it again), and the public families its goods make (the
 * families its storefront filter finds).
 */
export async function tagUsage(db: Queryable, id: string): Promise<Usage<(typeof TAG_USAGE)[number]>> {
  const r = await db.query(
    `SELECT (SELECT count(*) FROM goods WHERE tag_ids @> ARRAY[$1::bigint]) AS goods,
            (SELECT count(*) FROM origin_goods og, tags t JOIN tag_groups tg ON tg.id = t.group_id AND NOT tg.deleted
              WHERE t.id = $1 AND tg.dimension IS NOT NULL AND og.tags -> tg.dimension ? t.name) AS links,
            (SELECT count(DISTINCT family_id) FROM goods WHERE tag_ids @> ARRAY[$1::bigint] AND family_id IS NOT NULL) AS families`,
    [id],
  );
  return usage(ints(r.rows[0], TAG_USAGE), ['goods', 'links']);
}

/** A tag group: its live tags (a group with tags is refused as before), and what its tags are used by. */
export async function tagGroupUsage(db: Queryable, id: string): Promise<Usage<(typeof TAG_GROUP_USAGE)[number]>> {
  const r = await db.query(
    `WITH t AS (SELECT t.id, t.name, tg.dimension FROM tags t JOIN tag_groups tg ON tg.id = t.group_id WHERE t.group_id = $1 AND NOT t.deleted)
     SELECT (SELECT count(*) FROM t) AS tags,
            (SELECT count(*) FROM goods g WHERE g.tag_ids && ARRAY(SELECT id FROM t)) AS goods,
            (SELECT count(*) FROM origin_goods og WHERE EXISTS (SELECT 1 FROM t WHERE t.dimension IS NOT NULL AND og.tags -> t.dimension ? t.name)) AS links,
            (SELECT count(DISTINCT g.family_id) FROM goods g WHERE g.tag_ids && ARRAY(SELECT id FROM t) AND g.family_id IS NOT NULL) AS families`,
    [id],
  );
  return usage(ints(r.rows[0], TAG_GROUP_USAGE), ['tags']);
}

/**
 * A good: the home positions that list it and the families it is a custom member of (a delete takes
 * it out of both, in the same command), and how many goods its family has (1: the family stops
 * being public with it). Nothing refuses the delete.
 */
export async function goodUsage(db: Queryable, id: string): Promise<Usage<(typeof GOOD_USAGE)[number]>> {
  const r = await db.query(
    `SELECT (SELECT count(*) FROM position_goods pg JOIN positions p ON p.id = pg.position_id AND NOT p.deleted WHERE pg.good_id = $1) AS positions,
            (SELECT count(*) FROM family_custom_members WHERE good_id = $1) AS "customMemberOf",
            (SELECT count(*) FROM goods o JOIN goods g ON g.id = $1 WHERE o.family_id = g.family_id) AS "familyGoods"`,
    [id],
  );
  return usage(ints(r.rows[0], GOOD_USAGE), []);
}

/** A family: its member links, custom members, goods and price overrides (members or goods refuse a delete). */
export async function familyUsage(db: Queryable, id: string): Promise<Usage<(typeof FAMILY_USAGE)[number]>> {
  const r = await db.query(
    `SELECT (SELECT count(*) FROM origin_goods WHERE family_id = $1) AS members,
            (SELECT count(*) FROM family_custom_members WHERE family_id = $1) AS "customMembers",
            (SELECT count(*) FROM goods WHERE family_id = $1) AS goods,
            (SELECT count(*) FROM family_overrides WHERE family_id = $1) AS overrides`,
    [id],
  );
  return usage(ints(r.rows[0], FAMILY_USAGE), ['members', 'customMembers', 'goods']);
}

const WORDS: Record<string, string> = { goods: 'goods', links: 'links', children: 'subcategories', tags: 'tags', members: 'member links', customMembers: 'custom members' };

/**
 * The 409 of a delete that `usage` refuses (`CATEGORY.IN_USE`, …), its counts in the details, or
 * nothing when the delete is allowed. Pure: the decisions call it with the counts they were given.
 */
export function refuseWhileUsed(code: 'CATEGORY.IN_USE' | 'COUNTRY.IN_USE' | 'TAG.IN_USE', resource: string, u: Usage): void {
  if (u.blockedBy.length === 0) return;
  const uses = u.blockedBy.map((k) => `${u.counts[k]} ${WORDS[k] ?? k}`).join(' and ');
  throw AppError.conflict(code, `${resource} is still used by ${uses}; move them elsewhere first`, u);
}
