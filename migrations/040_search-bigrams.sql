-- Up Migration
-- Bigram indexes for search (docs/domain.md, Search, Speed). A word of two characters (most Chinese
-- words: 卫衣, 红色) holds no whole trigram, so `ILIKE '%卫衣%'` gets nothing from the trigram
-- indexes of 038 and PostgreSQL reads the names whole. A text contains a word only if it holds every
-- two-character piece of the word, so for a word of two characters the search also asks
-- `search_bigrams(text) @> search_bigrams(word)` (src/catalog/search.ts), which GIN indexes on the
-- same expressions answer. Nothing here needs an extension: the function is PL/pgSQL, and GIN
-- indexes arrays of text as PostgreSQL ships.
--
-- The pieces are those of `lower(text)`, the fold ILIKE compares on a UTF-8 database, so a text
-- ILIKE matches always holds the word's pieces. A piece that occurs twice is listed twice: GIN keeps
-- each key once. PL/pgSQL over the text's characters (string_to_array with a NULL delimiter) rather
-- than a set-returning SQL query: it runs for every row written to these tables, and this form costs
-- about a third as much.
CREATE FUNCTION search_bigrams(t text) RETURNS text[] LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  c text[] := string_to_array(lower(t), NULL);
  r text[] := '{}';
BEGIN
  FOR i IN 1 .. cardinality(c) - 1 LOOP
    r := r || (c[i] || c[i + 1]);
  END LOOP;
  RETURN r;
END
$$;

CREATE INDEX goods_name_bigrams ON goods USING gin (search_bigrams(name));
CREATE INDEX families_name_bigrams ON families USING gin (search_bigrams(name));
CREATE INDEX origin_goods_name_bigrams ON origin_goods USING gin (search_bigrams(name));
-- A link's tag values as one text (src/catalog/search.ts, LINK_TAG_TEXT: the same expression).
CREATE INDEX origin_goods_tag_text_bigrams ON origin_goods USING gin (search_bigrams(jsonb_path_query_array(tags, '$.*[*]')::text));

-- Down Migration
DROP INDEX IF EXISTS origin_goods_tag_text_bigrams;
DROP INDEX IF EXISTS origin_goods_name_bigrams;
DROP INDEX IF EXISTS families_name_bigrams;
DROP INDEX IF EXISTS goods_name_bigrams;
DROP FUNCTION IF EXISTS search_bigrams(text);
