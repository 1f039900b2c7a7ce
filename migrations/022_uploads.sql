-- Up Migration
-- Uploaded files, kept where every API process reads them (UPLOAD_STORAGE=postgres, the default):
-- behind a load balancer a file stored through one process is served by any other.
CREATE TABLE uploads (
  name         text PRIMARY KEY,
  content_type text NOT NULL,
  bytes        bytea NOT NULL,
  sha256       text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);

-- Down Migration
DROP TABLE uploads;
