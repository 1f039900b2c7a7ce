-- Up Migration
-- The append functions receive a whole batch as parameters: arrays of stream ids, event ids and
-- types, and the events' data as one JSON array (hundreds of kilobytes for a batch of a thousand
-- streams). PL/pgSQL plans a statement with the parameters' values as constants for its first five
-- runs on a connection, and afterwards whenever that looks cheaper: with constants this large, a
-- batch's insert took 300 to 500 ms where the same statement planned once for any value (a generic
-- plan) takes about 100 ms, as long as a multi-row INSERT of the same rows (measured on a catalogue
-- of 20 000 links: appends of 1 000 streams of 2 events). The statements are the same for every
-- batch, so nothing is lost by planning them once.
-- A later CREATE OR REPLACE of either function drops this setting: repeat it there.
ALTER FUNCTION es_append(text, text, bigint, uuid[], text[], integer[], jsonb[], jsonb[]) SET plan_cache_mode = force_generic_plan;
ALTER FUNCTION es_append_many(text[], text[], bigint[], integer[], uuid[], text[], integer[], jsonb, jsonb) SET plan_cache_mode = force_generic_plan;

-- Down Migration
ALTER FUNCTION es_append(text, text, bigint, uuid[], text[], integer[], jsonb[], jsonb[]) RESET plan_cache_mode;
ALTER FUNCTION es_append_many(text[], text[], bigint[], integer[], uuid[], text[], integer[], jsonb, jsonb) RESET plan_cache_mode;
