-- Up Migration
-- Admin writes sent with an Idempotency-Key: the first request's answer, kept a day, so a client that
-- retries (a lost answer, a timeout) gets that answer again instead of a second write. Keys are the
-- caller's: one user's key never answers another's request.
CREATE TABLE idempotency_keys (
  user_id      text NOT NULL,
  key          text NOT NULL,
  request_hash text NOT NULL,
  status       integer,
  content_type text,
  body         bytea,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);

-- Down Migration
DROP TABLE idempotency_keys;
