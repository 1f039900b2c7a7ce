-- Up Migration
-- A poison event met by a rebuild ends the rebuild, not the live projection: its error is kept apart
-- from `last_error` (which stops the live projection and fails the commands waiting on it).
-- `retrying`: a failure the runner retries with back-off (a timed-out statement, a lock not
-- available, a lost connection), never poison, shown while it lasts: {code, message, attempts, since}.
ALTER TABLE projection_checkpoints ADD COLUMN rebuild_error jsonb, ADD COLUMN retrying jsonb;

-- Down Migration
ALTER TABLE projection_checkpoints DROP COLUMN retrying, DROP COLUMN rebuild_error;
