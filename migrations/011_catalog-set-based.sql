-- Up Migration
-- The catalog projection applies a batch set-based and keeps the families a batch touched in memory
-- until it recomputes them at the batch's end, so the table that collected them row by row goes.
DROP TABLE catalog_dirty_families;

-- Down Migration
CREATE TABLE catalog_dirty_families (
  family_id bigint PRIMARY KEY
);
