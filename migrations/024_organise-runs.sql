-- Up Migration
-- A family's options (docs/domain.md, Unions and media): one per name, the values of every member
-- link and secondary origin. Families recomputed before this column existed show none until the
-- next organisation's full recompute (or a rebuild of the catalog projection) fills it.
ALTER TABLE families ADD COLUMN options jsonb NOT NULL DEFAULT '[]';

-- Organisation runs: bookkeeping in a plain table, not events, like sync_runs. A run's row is
-- written while its process holds the organisation lock, so at most one is `running`; one whose
-- process died stays `running` until the next run (which holds the lock) marks it failed, and reads
-- meanwhile tell it by the lock no session holds.
CREATE TABLE organise_runs (
  id          bigint PRIMARY KEY,
  kind        text NOT NULL CHECK (kind IN ('organise', 'auto_group')),
  state       text NOT NULL CHECK (state IN ('running', 'succeeded', 'failed')),
  phase       text,
  started_by  text NOT NULL,
  started_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  done        integer NOT NULL DEFAULT 0,
  total       integer NOT NULL DEFAULT 0,
  -- the report's numbers and list sizes so far; the whole report once the run has succeeded
  counts      jsonb NOT NULL DEFAULT '{}',
  report      jsonb,
  error       text
);
CREATE UNIQUE INDEX organise_runs_one_running ON organise_runs ((true)) WHERE state = 'running';
CREATE INDEX organise_runs_recent ON organise_runs (started_at DESC, id DESC);

-- Down Migration
DROP TABLE organise_runs;
ALTER TABLE families DROP COLUMN options;
