/**
 * The figures the admin's overview opens on (docs/api.md, GET /overview): how many families, goods
 * and links the catalogue holds and in what state, counted from the read models in one statement.
 * Runs, schedules and the read models' health come from their own routes.
 */
import type { CatalogOverview } from '../../contract/overview';
import type { Queryable } from '../../platform/db';

export type { CatalogOverview };

export async function catalogOverview(db: Queryable): Promise<CatalogOverview> {
  const r = await db.query<{ o: CatalogOverview }>(`
    SELECT json_build_object(
      'families', (SELECT json_build_object(
          'total', count(*),
          -- public: on the shelf with a good on the shelf (src/catalog/domain/public.ts)
          'public', count(*) FILTER (WHERE is_public),
          'unpriced', count(*) FILTER (WHERE lowest_price IS NULL),
          'locked', count(*) FILTER (WHERE locked),
          'manual', count(*) FILTER (WHERE NOT auto_managed),
          'empty', count(*) FILTER (WHERE member_count = 0 AND good_count = 0),
          -- links but no good: not in the shop until a good is made from one of its links
          'withoutGood', count(*) FILTER (WHERE member_count > 0 AND good_count = 0)) FROM families),
      'goods', (SELECT json_build_object(
          'total', count(*),
          'custom', count(*) FILTER (WHERE origin_good_id IS NULL),
          'withoutFamily', count(*) FILTER (WHERE family_id IS NULL)) FROM goods),
      'links', (SELECT json_build_object(
          'total', count(*),
          'organised', count(*) FILTER (WHERE og.parsed_country IS NOT NULL),
          'notOrganised', count(*) FILTER (WHERE og.parsed_country IS NULL),
          'incomplete', count(*) FILTER (WHERE og.parsed_country IS NOT NULL AND jsonb_array_length(og.tags_missing) > 0),
          'delisted', count(*) FILTER (WHERE og.delisted),
          'withoutGood', count(*) FILTER (WHERE NOT og.delisted AND NOT EXISTS (SELECT 1 FROM goods g WHERE g.origin_good_id = og.id)),
          -- a good made from a link in no family is in no family either, so never in the shop
          'withoutFamily', count(*) FILTER (WHERE NOT og.delisted AND og.family_id IS NULL),
          'groupedWithoutGood', count(*) FILTER (WHERE NOT og.delisted AND og.family_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM goods g WHERE g.origin_good_id = og.id))) FROM origin_goods og),
      'vocabulary', json_build_object(
          'categories', (SELECT count(*) FROM categories WHERE NOT removed),
          'countries', (SELECT count(*) FROM countries WHERE NOT removed),
          'tagGroups', (SELECT count(*) FROM tag_groups),
          'tags', (SELECT count(*) FROM tags),
          'positions', (SELECT count(*) FROM positions))
    ) AS o`);
  return r.rows[0]!.o;
}
