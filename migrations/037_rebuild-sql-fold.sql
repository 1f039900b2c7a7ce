-- Up Migration
-- A rebuild on the postgres log may fold some of its projection's streams in SQL, straight from
-- es_events into the shadow tables, before it replays the rest (src/platform/projections/rebuild.ts):
-- the position it folded them up to, NULL before the fold. The replay reads none of those streams'
-- events up to it. A fold declined (or not offered) is recorded at the log's start (-1, -1).
ALTER TABLE projection_rebuilds
  ADD COLUMN folded_commit_pos numeric(20, 0),
  ADD COLUMN folded_prepare_pos numeric(20, 0);

-- Down Migration
ALTER TABLE projection_rebuilds
  DROP COLUMN folded_commit_pos,
  DROP COLUMN folded_prepare_pos;
