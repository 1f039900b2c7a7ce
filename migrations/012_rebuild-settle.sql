-- Up Migration
-- A rebuild may leave derived state (the catalog's family aggregates) to the end of its replay and
-- settle it once, in steps of its own, before the swap: `settle_after` is how far settling got
-- (NULL: not begun, so batches may still defer), `settled` that it is done.
ALTER TABLE projection_rebuilds
  ADD COLUMN settle_after text,
  ADD COLUMN settled boolean NOT NULL DEFAULT false;

-- Down Migration
ALTER TABLE projection_rebuilds DROP COLUMN settled, DROP COLUMN settle_after;
