-- Up Migration
-- Search (docs/domain.md, Search): every word of a keyword is looked for in names and tag names with
-- ILIKE '%word%', and a longer word also as a typo of a word there (pg_trgm's `%>`). Both use trigram
-- indexes. pg_trgm ships with PostgreSQL's contrib (and with the embedded PostgreSQL), but creating
-- an extension needs the right to create in the database: where it cannot be created the migration
-- still succeeds, without the indexes, and search matches exactly (src/catalog/search.ts asks the
-- database whether pg_trgm is there).
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm not created (%): search matches exactly', SQLERRM;
END $$;

DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE INDEX goods_name_trgm ON goods USING gin (name gin_trgm_ops);
    CREATE INDEX families_name_trgm ON families USING gin (name gin_trgm_ops);
    CREATE INDEX origin_goods_name_trgm ON origin_goods USING gin (name gin_trgm_ops);
    -- A link's tag values as one text (src/catalog/search.ts, LINK_TAG_TEXT: the same expression).
    CREATE INDEX origin_goods_tag_text_trgm ON origin_goods USING gin ((jsonb_path_query_array(tags, '$.*[*]')::text) gin_trgm_ops);
  END IF;
END $$;

-- Down Migration
DROP INDEX IF EXISTS origin_goods_tag_text_trgm;
DROP INDEX IF EXISTS origin_goods_name_trgm;
DROP INDEX IF EXISTS families_name_trgm;
DROP INDEX IF EXISTS goods_name_trgm;
DROP EXTENSION IF EXISTS pg_trgm;
