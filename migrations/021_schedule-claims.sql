-- Up Migration
-- Scheduled synchronisations run once across processes: every process that schedules a job claims
-- `<job>:<scheduled time>` here (INSERT … ON CONFLICT DO NOTHING), and only the one whose insert
-- went in runs that tick.
CREATE TABLE schedule_claims (
  claim      text PRIMARY KEY,
  job        text NOT NULL,
  due_at     timestamptz NOT NULL,
  claimed_by text NOT NULL,
  claimed_at timestamptz NOT NULL DEFAULT now(),
  -- the synchronisation run the tick started; null when it could not start (one still running)
  run_id     text,
  outcome    text
);
CREATE INDEX schedule_claims_job_due ON schedule_claims (job, due_at DESC);

-- Down Migration
DROP TABLE schedule_claims;
