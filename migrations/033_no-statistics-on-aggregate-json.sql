-- Up Migration
-- No planner statistics on the large JSON columns that no query filters, joins, groups or sorts on:
-- a family's aggregates (its variants, size chart, packaging, price matrix, conflicts, pictures and
-- options) and a link's supplier detail. ANALYZE detoasts and samples every one of those values for
-- statistics the planner never consults: on 26 550 families it took 1.2 s, against 0.07 s for the
-- rest of the table, and the service analyses the tables a bulk step rewrote after each step
-- (src/platform/planner-statistics.ts), a goods batch after every request of 1 000 goods. A rebuild's
-- shadow tables copy these settings (src/platform/projections/rebuild.ts).
ALTER TABLE families
  ALTER COLUMN variants SET STATISTICS 0,
  ALTER COLUMN size_chart SET STATISTICS 0,
  ALTER COLUMN packaging_specs SET STATISTICS 0,
  ALTER COLUMN price_matrix SET STATISTICS 0,
  ALTER COLUMN conflicts SET STATISTICS 0,
  ALTER COLUMN media_by_color SET STATISTICS 0,
  ALTER COLUMN options SET STATISTICS 0;
ALTER TABLE origin_goods ALTER COLUMN detail SET STATISTICS 0;

-- Down Migration
ALTER TABLE families
  ALTER COLUMN variants SET STATISTICS -1,
  ALTER COLUMN size_chart SET STATISTICS -1,
  ALTER COLUMN packaging_specs SET STATISTICS -1,
  ALTER COLUMN price_matrix SET STATISTICS -1,
  ALTER COLUMN conflicts SET STATISTICS -1,
  ALTER COLUMN media_by_color SET STATISTICS -1,
  ALTER COLUMN options SET STATISTICS -1;
ALTER TABLE origin_goods ALTER COLUMN detail SET STATISTICS -1;
