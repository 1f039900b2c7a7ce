-- Up Migration
-- Two costs of writing a link's row and of appending, found by profiling an organisation
-- (docs/benchmarks.md):
--
-- 1. A link's generated hashes (migration 029) read its whole synchronised detail: the aggregates'
--    inputs hashed `detail::text`, the plan's inputs walked the detail's variants for their sizes and
--    colours. PostgreSQL computes a stored generated column again whenever an UPDATE sets a column it
--    reads, so every parse, tag or move of a link detoasted and printed its detail again. The detail's
--    part of each hash is now a column of its own, which reads the detail alone and so is computed
--    only when the detail is written (a synchronisation, as before); the rest reads small columns.
--    A stamp hashes both parts (src/catalog/families/recompute.ts, src/catalog/organisation/
--    link-reads.ts), so it still notices any writer's change of any input. Replacing the expressions
--    rewrites the table once, and every stamp differs once: the next organisation plans every link
--    and checks every family once, as after new rules.
--
-- 2. The append functions' final statement is costed above `jit_above_cost` when a batch is large,
--    and PostgreSQL compiled it to machine code on every call (the function's plan is generic: the
--    compiled code is not kept), 25–60 ms of an append of 100–200 ms. An append is a short
--    statement over rows it is handed: it runs with JIT off.
ALTER TABLE origin_goods DROP COLUMN aggregate_inputs_md5, DROP COLUMN plan_inputs_md5;
ALTER TABLE origin_goods
  ADD COLUMN detail_md5 text GENERATED ALWAYS AS (md5(coalesce(detail::text, ''))) STORED,
  ADD COLUMN variant_dims_md5 text GENERATED ALWAYS AS (md5(
    coalesce(jsonb_path_query_array(detail, '$.variants[*].size')::text, '') || '|' ||
    coalesce(jsonb_path_query_array(detail, '$.variants[*].color')::text, ''))) STORED,
  ADD COLUMN aggregate_inputs_md5 text GENERATED ALWAYS AS (md5(
    (parsed_country IS NOT NULL)::text || '|' || delisted::text || '|' || coalesce(tags::text, '') || '|' || price::text)) STORED,
  ADD COLUMN plan_inputs_md5 text GENERATED ALWAYS AS (md5(
    name || '|' || tags_manual::text || '|' || CASE WHEN tags_manual THEN coalesce(tags::text, '') ELSE '' END)) STORED;

ALTER FUNCTION es_append_many(text[], text[], bigint[], integer[], uuid[], text[], integer[], jsonb, jsonb) SET jit = off;
ALTER FUNCTION es_append(text, text, bigint, uuid[], text[], integer[], jsonb[], jsonb[]) SET jit = off;

-- Down Migration
ALTER FUNCTION es_append(text, text, bigint, uuid[], text[], integer[], jsonb[], jsonb[]) RESET jit;
ALTER FUNCTION es_append_many(text[], text[], bigint[], integer[], uuid[], text[], integer[], jsonb, jsonb) RESET jit;
ALTER TABLE origin_goods DROP COLUMN aggregate_inputs_md5, DROP COLUMN plan_inputs_md5, DROP COLUMN detail_md5, DROP COLUMN variant_dims_md5;
ALTER TABLE origin_goods ADD COLUMN aggregate_inputs_md5 text GENERATED ALWAYS AS (md5(
  (parsed_country IS NOT NULL)::text || '|' || delisted::text || '|' || coalesce(tags::text, '') || '|' ||
  price::text || '|' || coalesce(detail::text, ''))) STORED;
ALTER TABLE origin_goods ADD COLUMN plan_inputs_md5 text GENERATED ALWAYS AS (md5(
  name || '|' || coalesce(jsonb_path_query_array(detail, '$.variants[*].size')::text, '') || '|' ||
  coalesce(jsonb_path_query_array(detail, '$.variants[*].color')::text, '') || '|' || tags_manual::text || '|' ||
  CASE WHEN tags_manual THEN coalesce(tags::text, '') ELSE '' END)) STORED;
