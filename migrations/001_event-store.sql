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
  -- Millisecond precision, the precision of a JavaScript Date, so a time read back compares equal.
  recorded_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  UNIQUE (stream_id, revision)
);

CREATE INDEX es_events_global_order ON es_events (tx_id, seq);

-- One append = one call: the stream's revision moves by compare-and-set and the events are written
-- in the same statement, so an append is atomic and costs a single round trip. A wrong expected
-- revision raises SQLSTATE ES409 with the actual revision in DETAIL. Readers are woken by NOTIFY,
-- which PostgreSQL delivers only when the appending transaction commits.
CREATE FUNCTION es_append(
  p_stream   text,
  p_mode     text,    -- 'any' | 'no_stream' | 'exact'
  p_expected bigint,  -- the expected revision when p_mode = 'exact'
  p_ids      uuid[],
  p_types    text[],
  p_versions integer[],
  p_data     jsonb[],
  p_metadata jsonb[]
) RETURNS TABLE (next_revision bigint, tx_id xid8, seq bigint)
LANGUAGE plpgsql AS $$
DECLARE
  k     integer := cardinality(p_ids);
  v_rev bigint;
BEGIN
  IF p_mode = 'no_stream' THEN
    INSERT INTO es_streams AS s (stream_id, revision) VALUES (p_stream, k - 1)
      ON CONFLICT (stream_id) DO NOTHING
      RETURNING s.revision INTO v_rev;
  ELSIF p_mode = 'any' THEN
    INSERT INTO es_streams AS s (stream_id, revision) VALUES (p_stream, k - 1)
      ON CONFLICT (stream_id) DO UPDATE SET revision = s.revision + k
      RETURNING s.revision INTO v_rev;
  ELSE
    UPDATE es_streams AS s SET revision = s.revision + k
      WHERE s.stream_id = p_stream AND s.revision = p_expected
      RETURNING s.revision INTO v_rev;
  END IF;
  IF v_rev IS NULL THEN
    RAISE EXCEPTION 'wrong expected revision for stream %', p_stream USING
      ERRCODE = 'ES409',
      DETAIL = coalesce((SELECT s.revision::text FROM es_streams s WHERE s.stream_id = p_stream), 'no_stream');
  END IF;
  PERFORM pg_notify('es_events', '');
  RETURN QUERY
    WITH ins AS (
      INSERT INTO es_events (event_id, stream_id, revision, type, version, data, metadata)
      SELECT u.id, p_stream, v_rev - k + u.ord, u.t, u.v, u.d, u.m
        FROM unnest(p_ids, p_types, p_versions, p_data, p_metadata) WITH ORDINALITY AS u(id, t, v, d, m, ord)
      RETURNING es_events.seq
    )
    SELECT v_rev, pg_current_xact_id(), max(ins.seq) FROM ins;
END
$$;

-- Down Migration
DROP FUNCTION es_append;
DROP TABLE es_events;
DROP TABLE es_streams;
