-- Up Migration
-- es_append_many takes its streams' rows in stream-id order, and names every stale stream at once.
--
-- It locked the rows of es_streams in the order its caller listed the streams (exact expectations
-- first, new streams after): organisation's join lists a family before its links, an
-- administrator's member add a link before its family, a details sync its links as they arrived.
-- Two such appends over the same streams could each hold a row the other waits for, a deadlock
-- PostgreSQL ends by failing one of them (40P01). Now one INSERT … ON CONFLICT takes every row of
-- the call, an existing one locked as it is (the update's WHERE is false: no new row version), a
-- missing one inserted, in stream-id order, before anything is decided: appends over the same
-- streams wait for one another, never in a circle. (A lock taken by an UPDATE … FROM follows the
-- join's plan: the caller's order on a large table, the table's on a small one.)
--
-- A conflict raises ES409 as before, with every stream whose revision is not the one expected:
-- HINT names the first in stream-id order, DETAIL is a JSON array of {"stream", "actual"} (the
-- revision as text, or "no_stream"), so a caller splits all of them off a batch in one step.
--
-- The writes go into a session table of another name: sessions that ran the previous version keep
-- theirs, with other columns. The function keeps plan_cache_mode (migration 028, migrations/README.md).
CREATE OR REPLACE FUNCTION es_append_many(
  p_streams  text[],
  p_modes    text[],    -- per write: 'any' | 'no_stream' | 'exact'
  p_expected bigint[],  -- per write: the expected revision when its mode is 'exact'
  p_counts   integer[], -- per write: how many events
  p_ids      uuid[],
  p_types    text[],
  p_versions integer[],
  p_data     jsonb,     -- a JSON array, one element per event
  p_metadata jsonb      -- a JSON array, one element per event
) RETURNS TABLE (stream_id text, next_revision bigint, tx_id bigint, seq bigint)
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
DECLARE
  v_stale jsonb;
  v_stamp bigint := es_tx_stamp();
BEGIN
  IF (SELECT count(DISTINCT s) FROM unnest(p_streams) AS s) <> cardinality(p_streams) THEN
    RAISE EXCEPTION 'a stream appears twice in one append' USING ERRCODE = 'ES400';
  END IF;
  IF to_regclass('pg_temp.es_append_writes') IS NULL THEN
    CREATE TEMP TABLE es_append_writes (
      ord integer PRIMARY KEY, stream text NOT NULL, mode text NOT NULL, expected bigint, k integer NOT NULL,
      first_event integer NOT NULL,
      current bigint, -- the stream's revision before this call; -1: no stream
      revision bigint -- the revision it moves to; null: stale
    ) ON COMMIT DELETE ROWS;
  END IF;
  DELETE FROM es_append_writes;
  INSERT INTO es_append_writes (ord, stream, mode, expected, k, first_event)
    SELECT w.ord, w.stream, w.mode, w.expected, w.k, (sum(w.k) OVER (ORDER BY w.ord) - w.k + 1)::integer
      FROM unnest(p_streams, p_modes, p_expected, p_counts) WITH ORDINALITY AS w(stream, mode, expected, k, ord);

  -- Every row, in stream-id order. A missing stream's row is inserted at -1, a revision no stream
  -- has once anything is written to it: until this call commits (or fails), -1 is "no stream".
  INSERT INTO es_streams AS s (stream_id, revision)
    SELECT w.stream, -1 FROM es_append_writes w ORDER BY w.stream
    ON CONFLICT (stream_id) DO UPDATE SET revision = s.revision WHERE false;
  -- Held now, the revisions stay as read. An exact expectation holds only for a stream that exists.
  -- (Both joins with es_streams name its rows by key, so they are found through its index, however
  -- many streams the log holds, not by a scan of the table.)
  UPDATE es_append_writes w SET current = s.revision, revision = CASE
      WHEN w.mode = 'any' OR (w.mode = 'no_stream' AND s.revision = -1) OR (w.mode = 'exact' AND s.revision >= 0 AND s.revision = w.expected)
      THEN s.revision + w.k
    END
    FROM es_streams s WHERE s.stream_id = ANY(p_streams) AND s.stream_id = w.stream;

  SELECT jsonb_agg(jsonb_build_object('stream', w.stream, 'actual', CASE WHEN w.current = -1 THEN 'no_stream' ELSE w.current::text END) ORDER BY w.stream)
    INTO v_stale
    FROM es_append_writes w WHERE w.revision IS NULL;
  IF v_stale IS NOT NULL THEN
    RAISE EXCEPTION 'wrong expected revision for % of % streams', jsonb_array_length(v_stale), cardinality(p_streams) USING
      ERRCODE = 'ES409',
      DETAIL = v_stale::text,
      HINT = v_stale->0->>'stream';
  END IF;
  UPDATE es_streams s SET revision = w.revision FROM es_append_writes w WHERE s.stream_id = ANY(p_streams) AND s.stream_id = w.stream;

  RETURN QUERY
    WITH ev AS (
      SELECT e.*
        FROM ROWS FROM (unnest(p_ids), unnest(p_types), unnest(p_versions), jsonb_array_elements(p_data), jsonb_array_elements(p_metadata))
             WITH ORDINALITY AS e(id, t, v, d, m, ord)
    ), slot AS (
      -- which write each event belongs to, and its place in that write
      SELECT w.stream, w.revision - w.k + 1 + g AS revision, (w.first_event + g)::bigint AS ord
        FROM es_append_writes w, generate_series(0, w.k - 1) AS g
    ), ins AS (
      INSERT INTO es_events (tx_id, event_id, stream_id, revision, type, version, data, metadata)
      SELECT v_stamp, ev.id, slot.stream, slot.revision, ev.t, ev.v, ev.d, ev.m
        FROM ev JOIN slot ON slot.ord = ev.ord
       ORDER BY ev.ord
      RETURNING es_events.stream_id, es_events.seq
    )
    SELECT w.stream, w.revision, v_stamp, max(ins.seq)
      FROM es_append_writes w JOIN ins ON ins.stream_id = w.stream
     GROUP BY w.ord, w.stream, w.revision
     ORDER BY w.ord;
END
$$;

-- Down Migration
-- The previous body (migration 013, with 028's setting): streams locked in the caller's order, the
-- first stale stream alone named.
CREATE OR REPLACE FUNCTION es_append_many(
  p_streams  text[],
  p_modes    text[],
  p_expected bigint[],
  p_counts   integer[],
  p_ids      uuid[],
  p_types    text[],
  p_versions integer[],
  p_data     jsonb,
  p_metadata jsonb
) RETURNS TABLE (stream_id text, next_revision bigint, tx_id bigint, seq bigint)
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
DECLARE
  v_bad   text;
  v_stamp bigint := es_tx_stamp();
BEGIN
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
      SELECT w.stream, w.revision - w.k + 1 + g AS revision, (w.first_event + g)::bigint AS ord
        FROM es_append_many_writes w, generate_series(0, w.k - 1) AS g
    ), ins AS (
      INSERT INTO es_events (tx_id, event_id, stream_id, revision, type, version, data, metadata)
      SELECT v_stamp, ev.id, slot.stream, slot.revision, ev.t, ev.v, ev.d, ev.m
        FROM ev JOIN slot ON slot.ord = ev.ord
       ORDER BY ev.ord
      RETURNING es_events.stream_id, es_events.seq
    )
    SELECT w.stream, w.revision, v_stamp, max(ins.seq)
      FROM es_append_many_writes w JOIN ins ON ins.stream_id = w.stream
     GROUP BY w.ord, w.stream, w.revision
     ORDER BY w.ord;
END
$$;
