-- Up Migration
-- Appends without NOTIFY, and appends to many streams in one call.
--
-- NOTIFY inside the appending transaction made every commit take PostgreSQL's cluster-wide notify
-- lock and hold it through its WAL flush, so concurrent appends committed one after another instead
-- of sharing a flush. Readers are now woken by the adapter after the commit: one NOTIFY per burst of
-- appends is enough, since a woken reader reads up to the head.
CREATE OR REPLACE FUNCTION es_append(
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
      DETAIL = coalesce((SELECT s.revision::text FROM es_streams s WHERE s.stream_id = p_stream), 'no_stream'),
      HINT = p_stream;
  END IF;
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

-- Appends to many streams in one transaction: every stream's expected revision holds, or nothing is
-- written (SQLSTATE ES409 naming the first stream that did not match in HINT, its revision in DETAIL).
-- Write i takes p_counts[i] consecutive events of the event arrays; a stream appears at most once.
-- Events are written in the order given, so the global order (tx_id, seq) follows it, and each
-- stream's revisions follow its events' order. Data and metadata come as two JSON arrays: one
-- parameter each instead of an array of documents, which the client would have to escape.
CREATE FUNCTION es_append_many(
  p_streams  text[],
  p_modes    text[],    -- per write: 'any' | 'no_stream' | 'exact'
  p_expected bigint[],  -- per write: the expected revision when its mode is 'exact'
  p_counts   integer[], -- per write: how many events
  p_ids      uuid[],
  p_types    text[],
  p_versions integer[],
  p_data     jsonb,     -- a JSON array, one element per event
  p_metadata jsonb      -- a JSON array, one element per event
) RETURNS TABLE (stream_id text, next_revision bigint, tx_id xid8, seq bigint)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_bad text;
BEGIN
  -- The writes of this call, with the revision each stream moves to. A temporary table of the
  -- session (created once, emptied at commit) keeps the steps below plain set-based statements.
  IF (SELECT count(DISTINCT s) FROM unnest(p_streams) AS s) <> cardinality(p_streams) THEN
    RAISE EXCEPTION 'a stream appears twice in one append' USING ERRCODE = 'ES400';
  END IF;
  IF to_regclass('pg_temp.es_append_many_writes') IS NULL THEN
    CREATE TEMP TABLE es_append_many_writes (
      ord integer PRIMARY KEY, stream text NOT NULL, mode text NOT NULL, expected bigint, k integer NOT NULL,
      first_event integer NOT NULL, revision bigint
    ) ON COMMIT DELETE ROWS;
  END IF;
  DELETE FROM es_append_many_writes;
  INSERT INTO es_append_many_writes (ord, stream, mode, expected, k, first_event)
    SELECT w.ord, w.stream, w.mode, w.expected, w.k, (sum(w.k) OVER (ORDER BY w.ord) - w.k + 1)::integer
      FROM unnest(p_streams, p_modes, p_expected, p_counts) WITH ORDINALITY AS w(stream, mode, expected, k, ord);

  -- Every stream moves by compare-and-set, as in es_append.
  WITH moved AS (
    UPDATE es_streams s SET revision = s.revision + w.k
      FROM es_append_many_writes w
     WHERE w.mode = 'exact' AND s.stream_id = w.stream AND s.revision = w.expected
    RETURNING s.stream_id, s.revision
  )
  UPDATE es_append_many_writes w SET revision = m.revision FROM moved m WHERE w.stream = m.stream_id;
  WITH created AS (
    INSERT INTO es_streams AS s (stream_id, revision)
      SELECT w.stream, w.k - 1 FROM es_append_many_writes w WHERE w.mode = 'no_stream' ORDER BY w.ord
      ON CONFLICT (stream_id) DO NOTHING
    RETURNING s.stream_id, s.revision
  )
  UPDATE es_append_many_writes w SET revision = c.revision FROM created c WHERE w.stream = c.stream_id;
  WITH anyway AS (
    INSERT INTO es_streams AS s (stream_id, revision)
      SELECT w.stream, w.k - 1 FROM es_append_many_writes w WHERE w.mode = 'any' ORDER BY w.ord
      ON CONFLICT (stream_id) DO UPDATE SET revision = s.revision + EXCLUDED.revision + 1
    RETURNING s.stream_id, s.revision
  )
  UPDATE es_append_many_writes w SET revision = a.revision FROM anyway a WHERE w.stream = a.stream_id;

  SELECT w.stream INTO v_bad FROM es_append_many_writes w WHERE w.revision IS NULL ORDER BY w.ord LIMIT 1;
  IF v_bad IS NOT NULL THEN
    RAISE EXCEPTION 'wrong expected revision for stream %', v_bad USING
      ERRCODE = 'ES409',
      DETAIL = coalesce((SELECT s.revision::text FROM es_streams s WHERE s.stream_id = v_bad), 'no_stream'),
      HINT = v_bad;
  END IF;

  RETURN QUERY
    WITH ev AS (
      SELECT e.*
        FROM ROWS FROM (unnest(p_ids), unnest(p_types), unnest(p_versions), jsonb_array_elements(p_data), jsonb_array_elements(p_metadata))
             WITH ORDINALITY AS e(id, t, v, d, m, ord)
    ), slot AS (
      -- which write each event belongs to, and its place in that write
      SELECT w.stream, w.revision - w.k + 1 + g AS revision, (w.first_event + g)::bigint AS ord
        FROM es_append_many_writes w, generate_series(0, w.k - 1) AS g
    ), ins AS (
      INSERT INTO es_events (event_id, stream_id, revision, type, version, data, metadata)
      SELECT ev.id, slot.stream, slot.revision, ev.t, ev.v, ev.d, ev.m
        FROM ev JOIN slot ON slot.ord = ev.ord
       ORDER BY ev.ord
      RETURNING es_events.stream_id, es_events.seq
    )
    SELECT w.stream, w.revision, pg_current_xact_id(), max(ins.seq)
      FROM es_append_many_writes w JOIN ins ON ins.stream_id = w.stream
     GROUP BY w.ord, w.stream, w.revision
     ORDER BY w.ord;
END
$$;

-- Down Migration
DROP FUNCTION es_append_many;
