-- Up Migration
-- Which event log the read models and checkpoints were built from. The log records its own id as
-- the first event of its `log-identity` stream; every process compares the two at start and refuses
-- to run when they differ (another log behind EVENT_STORE, a recreated volume), instead of letting
-- stale checkpoints stall or skip. `catalog projections rebuild --all` records the new one.
CREATE TABLE log_identity (
  singleton   boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  log_id      uuid NOT NULL,
  event_store text NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now()
);

-- Down Migration
DROP TABLE log_identity;
