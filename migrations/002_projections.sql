-- Up Migration
-- Projection bookkeeping. A projection's read-model rows and its checkpoint commit in one
-- transaction; the checkpoint advances by compare-and-set, so a batch delivered twice applies once.
CREATE TABLE projection_checkpoints (
  name            text PRIMARY KEY,
  -- log position (see es_events): numeric because EventStoreDB positions are unsigned 64-bit
  commit_pos      numeric(20, 0) NOT NULL DEFAULT -1,
  prepare_pos     numeric(20, 0) NOT NULL DEFAULT -1,
  events_applied  bigint NOT NULL DEFAULT 0,
  last_event_at   timestamptz,
  state           text NOT NULL DEFAULT 'running' CHECK (state IN ('running', 'rebuilding', 'stopped', 'failed')),
  -- a poison event stops the projection: {eventId, type, streamId, position, message, at}
  last_error      jsonb,
  last_rebuild_at timestamptz,
  updated_at      timestamptz NOT NULL DEFAULT now()
);

-- A rebuild in progress: shadow tables in schema `rebuild_<name>` fill from the start of the log.
CREATE TABLE projection_rebuilds (
  name        text PRIMARY KEY REFERENCES projection_checkpoints (name) ON DELETE CASCADE,
  commit_pos  numeric(20, 0) NOT NULL DEFAULT -1,
  prepare_pos numeric(20, 0) NOT NULL DEFAULT -1,
  events_done bigint NOT NULL DEFAULT 0,
  started_at  timestamptz NOT NULL DEFAULT now()
);

-- Public cache domain versions, bumped in the projection transaction that touched the domain, so a
-- process that missed a notification can still learn that its cached entries are stale.
CREATE TABLE cache_domains (
  domain  text PRIMARY KEY,
  version bigint NOT NULL DEFAULT 0
);
INSERT INTO cache_domains (domain) VALUES ('meta'), ('goods'), ('matrix');

-- Down Migration
DROP TABLE cache_domains;
DROP TABLE projection_rebuilds;
DROP TABLE projection_checkpoints;
