-- Up Migration
-- No planner statistics where gathering them costs a bulk step seconds and no plan needs them
-- (README, Operating it: Housekeeping after bulk steps; docs/benchmarks.md, Synchronisation at
-- 20 000 links). The service analyses what each bulk step rewrote, the log's own tables included,
-- at the end of the step.
-- - The log's event data and metadata: no query filters, joins, groups or sorts on them (the log is
--   read by position, stream and event id). ANALYZE detoasted and sampled every one of those
--   values: at 40 000 events they took 1.5 of the 1.9 s of `ANALYZE es_events`.
-- - The bigram index expressions of migration 040 (`search_bigrams(…)`, an array of every
--   two-character piece of a name or of a link's tag text): gathering their element statistics runs
--   the PL/pgSQL function over every sampled row and counts every piece, about two thirds of
--   `ANALYZE origin_goods` (2.3 of 3.5 s at 20 000 links, each sync's last step). Without them the
--   planner takes a bigram test for a rare one (PostgreSQL's default for `@>`), so it looks the
--   word up in the bigram index rather than walking a table in id order hoping to meet it soon,
--   which is the plan those indexes are there for (docs/domain.md, Search, Speed).
-- A rebuild's shadow tables copy these settings (src/platform/projections/rebuild.ts).
ALTER TABLE es_events
  ALTER COLUMN data SET STATISTICS 0,
  ALTER COLUMN metadata SET STATISTICS 0;
ALTER INDEX origin_goods_name_bigrams ALTER COLUMN 1 SET STATISTICS 0;
ALTER INDEX origin_goods_tag_text_bigrams ALTER COLUMN 1 SET STATISTICS 0;
ALTER INDEX goods_name_bigrams ALTER COLUMN 1 SET STATISTICS 0;
ALTER INDEX families_name_bigrams ALTER COLUMN 1 SET STATISTICS 0;

-- Down Migration
ALTER INDEX families_name_bigrams ALTER COLUMN 1 SET STATISTICS -1;
ALTER INDEX goods_name_bigrams ALTER COLUMN 1 SET STATISTICS -1;
ALTER INDEX origin_goods_tag_text_bigrams ALTER COLUMN 1 SET STATISTICS -1;
ALTER INDEX origin_goods_name_bigrams ALTER COLUMN 1 SET STATISTICS -1;
ALTER TABLE es_events
  ALTER COLUMN data SET STATISTICS -1,
  ALTER COLUMN metadata SET STATISTICS -1;
