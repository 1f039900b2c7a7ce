-- Up Migration
-- The event log of the `postgres` event-store adapter.
--
-- Global order is (tx_id, seq): every row is stamped with the id of the transaction that wrote it,
-- and readers only read rows whose tx_id is below the oldest transaction still running
-- (pg_snapshot_xmin). A transaction that took a lower seq but commits later therefore cannot be
-- skipped: readers wait for it. Checkpoints are (tx_id, seq) pairs, never times.
CREATE TABLE es_streams (
  stream_id text PRIMARY KEY,
  revision  bigint NOT NULL
);

CREATE TABLE es_events (
  seq         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tx_id       xid8 NOT NULL DEFAULT pg_current_xact_id(),
  event_id    uuid NOT NULL UNIQUE,
  stream_id   text NOT NULL,
  revision    bigint NOT NULL,
  type        text NOT NULL,
  version     integer NOT NULL,
  data        jsonb NOT NULL,
  metadata    jsonb NOT NULL,
  -- clock_timestamp, not now(): "as it was at time T" should follow the order rows were written.
  recorded_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  UNIQUE (stream_id, revision)
);

CREATE INDEX es_events_global_order ON es_events (tx_id, seq);

-- Down Migration
DROP TABLE es_events;
DROP TABLE es_streams;
