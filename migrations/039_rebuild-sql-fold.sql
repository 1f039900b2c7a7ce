-- Up Migration
-- A rebuild on the postgres log may fold some of its projection's streams in SQL, straight from
-- es_events into the shadow tables, before it replays the rest (src/platform/projections/rebuild.ts).
-- The fold runs in ranges of streams, each its own short transaction, all up to the position fixed
-- when it started (fold_commit_pos/fold_prepare_pos); fold_after is the last stream folded so far
-- (NULL before the first range), where a fold interrupted by a restart goes on. folded_* is the
-- position once the last range is done, NULL before; the replay reads none of the folded streams'
-- events up to it. A fold declined (or not offered) is recorded at the log's start (-1, -1).
ALTER TABLE projection_rebuilds
  ADD COLUMN fold_commit_pos numeric(20, 0),
  ADD COLUMN fold_prepare_pos numeric(20, 0),
  ADD COLUMN fold_after text,
  ADD COLUMN folded_commit_pos numeric(20, 0),
  ADD COLUMN folded_prepare_pos numeric(20, 0);

-- Down Migration
ALTER TABLE projection_rebuilds
  DROP COLUMN fold_commit_pos,
  DROP COLUMN fold_prepare_pos,
  DROP COLUMN fold_after,
  DROP COLUMN folded_commit_pos,
  DROP COLUMN folded_prepare_pos;
