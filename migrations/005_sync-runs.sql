-- Up Migration
-- Synchronisation runs: bookkeeping in a plain table, not events (a sync of an unchanged supplier
-- appends nothing anywhere). One running run per kind, enforced by the partial unique index.
CREATE TABLE sync_runs (
  id           uuid PRIMARY KEY,
  kind         text NOT NULL CHECK (kind IN ('categories', 'origin_goods', 'details')),
  state        text NOT NULL CHECK (state IN ('running', 'succeeded', 'failed')),
  dry_run      boolean NOT NULL DEFAULT false,
  params       jsonb NOT NULL DEFAULT '{}',
  started_by   text NOT NULL,
  started_at   timestamptz NOT NULL DEFAULT now(),
  heartbeat_at timestamptz NOT NULL DEFAULT now(),
  finished_at  timestamptz,
  done         integer NOT NULL DEFAULT 0,
  total        integer,
  counts       jsonb NOT NULL DEFAULT '{}',
  errors       jsonb NOT NULL DEFAULT '[]',
  -- a dry run's findings: what it would append
  preview      jsonb
);
CREATE UNIQUE INDEX sync_runs_one_running_per_kind ON sync_runs (kind) WHERE state = 'running';
CREATE INDEX sync_runs_recent ON sync_runs (started_at DESC);

-- Down Migration
DROP TABLE sync_runs;
