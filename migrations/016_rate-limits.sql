-- Up Migration
-- Throttle counters (login, registration, upload) shared by every process on this database, so N API
-- processes allow what one does, not N times as much. A fixed window per limiter and client key.
CREATE TABLE rate_limit_hits (
  limiter   text NOT NULL,
  key       text NOT NULL,
  hits      integer NOT NULL,
  resets_at timestamptz NOT NULL,
  PRIMARY KEY (limiter, key)
);
CREATE INDEX rate_limit_hits_resets ON rate_limit_hits (resets_at);

-- Down Migration
DROP TABLE rate_limit_hits;
