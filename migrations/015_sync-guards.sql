-- Up Migration
-- A listing pass that would delist too many links delists nothing: the run ends `held`, with what it
-- would have done in `held` ({wouldDelist, listed, maxShare}), until an operator confirms.
ALTER TABLE sync_runs DROP CONSTRAINT sync_runs_state_check;
ALTER TABLE sync_runs ADD CONSTRAINT sync_runs_state_check CHECK (state IN ('running', 'succeeded', 'failed', 'held'));
ALTER TABLE sync_runs ADD COLUMN held jsonb;

-- Down Migration
ALTER TABLE sync_runs DROP COLUMN held;
ALTER TABLE sync_runs DROP CONSTRAINT sync_runs_state_check;
ALTER TABLE sync_runs ADD CONSTRAINT sync_runs_state_check CHECK (state IN ('running', 'succeeded', 'failed'));
