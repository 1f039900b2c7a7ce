-- Up Migration
-- A batch that changes only a family's goods (goods made from its links, a good's priority) updates
-- its good count and representative alone, and carries its stamp forward when the stamp's base held
-- (migrations 029, 031). That path hashed the family's wide aggregates three times per batch: the
-- base to check, the generated `aggregates_md5` (which PostgreSQL recomputes on any update of a
-- column it names, the good count among them) and the base again to stamp. `base_md5` hashes every
-- aggregate but those two, so updating them leaves it as it is; the base reads it instead of hashing
-- the aggregates, and the stamp's hash of all the aggregates is taken from it and the two small
-- columns. Its value is the hash the base took of the aggregates before, so stored bases still hold.
ALTER TABLE families ADD COLUMN base_md5 text GENERATED ALWAYS AS (md5(
  member_count::text || '|' || variants::text || '|' || size_chart::text || '|' || packaging_specs::text || '|' ||
  options::text || '|' || price_matrix::text || '|' || conflicts::text || '|' || coalesce(lowest_price::text, '') || '|' ||
  media_by_color::text)) STORED;

-- The stamps that held under the old hash of the aggregates hold under the new one: each is written
-- again with it, so no family is recomputed for the change of hash alone. A stamp that did not hold
-- (or was written under other rules than '1', the version of the rules now) is left as it is and
-- fails as before. The inputs are hashed as src/catalog/families/recompute.ts hashes them.
WITH inputs AS (
  SELECT f.id, fs.stamp AS stored,
         '#' || coalesce(l.fp, '') || '#' || coalesce(c.fp, '') || '#' || coalesce(o.fp, '') || '#' || coalesce(gd.fp, '') || '#' ||
           coalesce(so.fp, '') AS tail,
         f.aggregates_md5 AS old_hash,
         md5(f.base_md5 || '|' || f.good_count::text || '|' || coalesce(f.representative_good_id::text, '')) AS new_hash
    FROM families f
    JOIN family_stamps fs ON fs.family_id = f.id
    LEFT JOIN LATERAL (SELECT string_agg(og.id || ':' || og.aggregate_inputs_md5 || og.detail_md5, ',' ORDER BY og.id) AS fp
                         FROM origin_goods og WHERE og.family_id = f.id) l ON true
    LEFT JOIN LATERAL (SELECT string_agg(row(m.good_id, m.tags, m.price)::text, ',' ORDER BY m.good_id) AS fp
                         FROM family_custom_members m WHERE m.family_id = f.id) c ON true
    LEFT JOIN LATERAL (SELECT string_agg(row(v.size, v.color, v.print_count, v.craft, v.logistics, v.price)::text, ','
                                         ORDER BY v.size, v.color, v.print_count, v.craft, v.logistics) AS fp
                         FROM family_overrides v WHERE v.family_id = f.id) o ON true
    LEFT JOIN LATERAL (SELECT string_agg(row(g.id, g.good_priority, (extract(epoch FROM g.created_at) * 1000000)::bigint)::text, ',' ORDER BY g.id) AS fp
                         FROM goods g WHERE g.family_id = f.id) gd ON true
    LEFT JOIN LATERAL (SELECT string_agg(gog.good_id || ':' || gog.origin_good_id || ':' || og.aggregate_inputs_md5 || og.detail_md5, ',' ORDER BY gog.good_id, gog.position) AS fp
                         FROM goods g JOIN good_origin_goods gog ON gog.good_id = g.id JOIN origin_goods og ON og.id = gog.origin_good_id
                        WHERE g.family_id = f.id) so ON true
)
UPDATE family_stamps fs SET stamp = md5('1#' || i.new_hash || i.tail)
  FROM inputs i
 WHERE fs.family_id = i.id AND i.stored = md5('1#' || i.old_hash || i.tail);

ALTER TABLE families DROP COLUMN aggregates_md5;

-- Down Migration
ALTER TABLE families ADD COLUMN aggregates_md5 text GENERATED ALWAYS AS (md5(
  member_count::text || '|' || good_count::text || '|' || coalesce(representative_good_id::text, '') || '|' ||
  variants::text || '|' || size_chart::text || '|' || packaging_specs::text || '|' || options::text || '|' ||
  price_matrix::text || '|' || conflicts::text || '|' || coalesce(lowest_price::text, '') || '|' ||
  media_by_color::text)) STORED;

WITH inputs AS (
  SELECT f.id, fs.stamp AS stored,
         '#' || coalesce(l.fp, '') || '#' || coalesce(c.fp, '') || '#' || coalesce(o.fp, '') || '#' || coalesce(gd.fp, '') || '#' ||
           coalesce(so.fp, '') AS tail,
         f.aggregates_md5 AS old_hash,
         md5(f.base_md5 || '|' || f.good_count::text || '|' || coalesce(f.representative_good_id::text, '')) AS new_hash
    FROM families f
    JOIN family_stamps fs ON fs.family_id = f.id
    LEFT JOIN LATERAL (SELECT string_agg(og.id || ':' || og.aggregate_inputs_md5 || og.detail_md5, ',' ORDER BY og.id) AS fp
                         FROM origin_goods og WHERE og.family_id = f.id) l ON true
    LEFT JOIN LATERAL (SELECT string_agg(row(m.good_id, m.tags, m.price)::text, ',' ORDER BY m.good_id) AS fp
                         FROM family_custom_members m WHERE m.family_id = f.id) c ON true
    LEFT JOIN LATERAL (SELECT string_agg(row(v.size, v.color, v.print_count, v.craft, v.logistics, v.price)::text, ','
                                         ORDER BY v.size, v.color, v.print_count, v.craft, v.logistics) AS fp
                         FROM family_overrides v WHERE v.family_id = f.id) o ON true
    LEFT JOIN LATERAL (SELECT string_agg(row(g.id, g.good_priority, (extract(epoch FROM g.created_at) * 1000000)::bigint)::text, ',' ORDER BY g.id) AS fp
                         FROM goods g WHERE g.family_id = f.id) gd ON true
    LEFT JOIN LATERAL (SELECT string_agg(gog.good_id || ':' || gog.origin_good_id || ':' || og.aggregate_inputs_md5 || og.detail_md5, ',' ORDER BY gog.good_id, gog.position) AS fp
                         FROM goods g JOIN good_origin_goods gog ON gog.good_id = g.id JOIN origin_goods og ON og.id = gog.origin_good_id
                        WHERE g.family_id = f.id) so ON true
)
UPDATE family_stamps fs SET stamp = md5('1#' || i.old_hash || i.tail)
  FROM inputs i
 WHERE fs.family_id = i.id AND i.stored = md5('1#' || i.new_hash || i.tail);

ALTER TABLE families DROP COLUMN base_md5;
