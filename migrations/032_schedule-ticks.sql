-- Up Migration
-- Scheduled ticks that did not run are retried or shown, never silently lost (docs/deployment.md,
-- Scheduled synchronisation). A claim's outcome is one word now, the why in `error`:
--   NULL     claimed, the run not started yet (a claim left so by a process that died is retried)
--   started  the run `run_id` started
--   skipped  the previous run of that kind was still going
--   failed   the run could not be started (retried until the next tick of the job is claimed)
--   missed   the tick was not run at all: its worker was busy past the next tick
ALTER TABLE schedule_claims
  ADD COLUMN attempts integer NOT NULL DEFAULT 1,
  ADD COLUMN error text;
UPDATE schedule_claims SET outcome = 'skipped', error = 'previous run still going' WHERE outcome LIKE 'skipped%';
UPDATE schedule_claims SET outcome = 'failed' WHERE outcome = 'failed to start';
ALTER TABLE schedule_claims ADD CONSTRAINT schedule_claims_outcome CHECK (outcome IN ('started', 'skipped', 'failed', 'missed'));

-- Down Migration
ALTER TABLE schedule_claims DROP CONSTRAINT schedule_claims_outcome;
UPDATE schedule_claims SET outcome = 'skipped: ' || coalesce(error, 'previous run still going') WHERE outcome = 'skipped';
UPDATE schedule_claims SET outcome = 'failed to start' WHERE outcome = 'failed';
ALTER TABLE schedule_claims DROP COLUMN error, DROP COLUMN attempts;
