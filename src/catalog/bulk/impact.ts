/**
 * What a bulk delete would do, stated before it (docs/api.md, Usage and Bulk changes): the counts of
 * GET /<resource>/:id/usage summed over the selection, in the same `{counts, blockedBy}` shape.
 */
import type { Queryable } from '../../platform/db';
import type { Usage } from '../usage';

const ints = (row: Record<string, unknown> | undefined, keys: readonly string[]) => Object.fromEntries(keys.map((k) => [k, Number(row?.[k] ?? 0)]));

/**
 * Goods: how many, the home positions that list any of them (they leave them), the custom
 * memberships they end, and the families that leave the shop because every good they have is among them.
 */
export async function goodsDeleteImpact(db: Queryable, ids: readonly string[]): Promise<Usage> {
  const r = await db.query(
    `WITH s AS (SELECT g.id, g.family_id FROM goods g WHERE g.id = ANY($1::bigint[]))
     SELECT (SELECT count(*) FROM s) AS goods,
            (SELECT count(DISTINCT pg.position_id) FROM position_goods pg JOIN positions p ON p.id = pg.position_id AND NOT p.deleted JOIN s ON s.id = pg.good_id) AS positions,
            (SELECT count(*) FROM family_custom_members m JOIN s ON s.id = m.good_id) AS "customMemberOf",
            (SELECT count(*) FROM (SELECT g.family_id FROM goods g WHERE g.family_id IN (SELECT family_id FROM s)
                                    GROUP BY g.family_id HAVING bool_and(g.id IN (SELECT id FROM s))) x) AS "familiesLeaving"`,
    [ids],
  );
  return { counts: ints(r.rows[0], ['goods', 'positions', 'customMemberOf', 'familiesLeaving']), blockedBy: [] };
}

/**
 * Families: how many, how many of them are empty (those are deleted; the others are skipped with
 * `FAMILY.NOT_EMPTY`), and the price overrides the empty ones take with them.
 */
export async function familiesDeleteImpact(db: Queryable, ids: readonly string[]): Promise<Usage> {
  const r = await db.query(
    `WITH s AS (SELECT f.id, f.member_count = 0 AND f.good_count = 0 AND NOT EXISTS (SELECT 1 FROM family_custom_members m WHERE m.family_id = f.id) AS empty
                  FROM families f WHERE f.id = ANY($1::bigint[]))
     SELECT (SELECT count(*) FROM s) AS families,
            (SELECT count(*) FROM s WHERE NOT empty) AS "notEmpty",
            (SELECT count(*) FROM family_overrides o JOIN s ON s.id = o.family_id AND s.empty) AS overrides`,
    [ids],
  );
  const counts = ints(r.rows[0], ['families', 'notEmpty', 'overrides']);
  return { counts, blockedBy: counts.notEmpty! > 0 ? ['notEmpty'] : [] };
}
