-- Up Migration
-- The storefront keeps each list item's bytes between loads of the list and writes again only the
-- items whose row changed (src/storefront/list-bytes.ts). This hash of the good's columns an item
-- shows is what it compares: kept by the database on every write, by any writer, and a fraction of
-- what reading the columns themselves costs (a hash over a row's text computed per read took as long
-- as reading the row).
-- An array's text is STABLE in general (element types may print by settings); bigint's is not.
CREATE FUNCTION bigint_array_text(bigint[]) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT array_to_string($1, ',') $$;
ALTER TABLE goods ADD COLUMN list_item_md5 text GENERATED ALWAYS AS (md5(
  quote_nullable(name) || quote_nullable(image) || quote_nullable(country_id::text) || quote_nullable(category_id::text) ||
  quote_nullable(bigint_array_text(tag_ids)) || quote_nullable(tag_font_color))) STORED;

-- Down Migration
ALTER TABLE goods DROP COLUMN list_item_md5;
DROP FUNCTION bigint_array_text(bigint[]);
