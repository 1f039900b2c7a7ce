-- Up Migration
-- Bulk runs (docs/api.md, Bulk changes): an administrator's change of many goods or families, or the
-- replacement of a country, category or tag before its delete. Bookkeeping in a plain table, not
-- events, like organise_runs: each item's change is an ordinary command with its own events; the row
-- records the selection's progress and each item's outcome, written by the running process as it
-- goes, so any process answers GET /bulk-runs/:runId.
CREATE TABLE bulk_runs (
  id          bigint PRIMARY KEY,
  target      text NOT NULL CHECK (target IN ('goods', 'families', 'countries', 'categories', 'tags')),
  action      jsonb NOT NULL,
  state       text NOT NULL CHECK (state IN ('running', 'succeeded', 'failed')),
  started_by  text NOT NULL,
  started_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  done        integer NOT NULL DEFAULT 0,
  total       integer NOT NULL DEFAULT 0,
  -- one entry per item handled so far: {index, id, outcome, code?, message?}
  results     jsonb NOT NULL DEFAULT '[]',
  error       jsonb
);
CREATE INDEX bulk_runs_recent ON bulk_runs (started_at DESC, id DESC);

-- Down Migration
DROP TABLE bulk_runs;
