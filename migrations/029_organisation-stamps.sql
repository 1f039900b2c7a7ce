-- Up Migration
-- An organisation ends by checking every family's aggregates against a recompute of its rows
-- (docs/domain.md, Organisation). Recomputing every family reads every member's detail: about 30 s
-- at 100 000 links, for a check that nearly always finds nothing. A stamp makes the common case a
-- comparison in the database: when the catalog projection (or the check itself) has verified a
-- family's aggregates against its inputs, it stores a hash of the rules' version, the aggregates as
-- stored and every input the computation reads; a family whose stamp still matches a hash of the
-- same things as they are now is proven right, and only the others are recomputed.
--
-- The per-row hashes are generated columns, so the database keeps them true whoever writes the row
-- (a row changed by hand changes its hash). An empty string stands for NULL: no rendered value of
-- these types is empty.
ALTER TABLE origin_goods ADD COLUMN aggregate_inputs_md5 text GENERATED ALWAYS AS (md5(
  (parsed_country IS NOT NULL)::text || '|' || delisted::text || '|' || coalesce(tags::text, '') || '|' ||
  price::text || '|' || coalesce(detail::text, ''))) STORED;
ALTER TABLE families ADD COLUMN aggregates_md5 text GENERATED ALWAYS AS (md5(
  member_count::text || '|' || good_count::text || '|' || coalesce(representative_good_id::text, '') || '|' ||
  variants::text || '|' || size_chart::text || '|' || packaging_specs::text || '|' || options::text || '|' ||
  price_matrix::text || '|' || conflicts::text || '|' || coalesce(lowest_price::text, '') || '|' ||
  media_by_color::text)) STORED;
-- Stamps in a table of their own: writing one does not rewrite the family's wide row (nor compute
-- its aggregates hash again). It is one of the catalog projection's tables, rebuilt and swapped with
-- the others.
CREATE TABLE family_stamps (
  family_id bigint PRIMARY KEY,
  stamp     text NOT NULL
);

-- The same for organisation's per-link step (parse the name, derive tags): what it reads of a link
-- besides its own earlier output (the name, the variants' sizes and colours, manual tags), hashed by
-- the database; organisation keeps, per link, a stamp of that and of the parsed columns and tags the
-- step left, and plans again only the links whose stamp no longer matches.
ALTER TABLE origin_goods ADD COLUMN plan_inputs_md5 text GENERATED ALWAYS AS (md5(
  name || '|' || coalesce(jsonb_path_query_array(detail, '$.variants[*].size')::text, '') || '|' ||
  coalesce(jsonb_path_query_array(detail, '$.variants[*].color')::text, '') || '|' || tags_manual::text || '|' ||
  CASE WHEN tags_manual THEN coalesce(tags::text, '') ELSE '' END)) STORED;
CREATE TABLE link_plan_stamps (
  link_id bigint PRIMARY KEY,
  stamp   text NOT NULL
);

-- Down Migration
DROP TABLE link_plan_stamps;
ALTER TABLE origin_goods DROP COLUMN plan_inputs_md5;
DROP TABLE family_stamps;
ALTER TABLE families DROP COLUMN aggregates_md5;
ALTER TABLE origin_goods DROP COLUMN aggregate_inputs_md5;
