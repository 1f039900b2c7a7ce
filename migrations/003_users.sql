-- Up Migration
-- Users and refresh-token bookkeeping: plain tables, not events (docs/security.md). Credentials and
-- session state must be deletable and are not part of the catalog's history.
CREATE TABLE users (
  id            bigint PRIMARY KEY,
  username      text NOT NULL CHECK (length(username) BETWEEN 3 AND 64),
  -- argon2id PHC string; the parameters travel inside it, so they can be raised later
  password_hash text NOT NULL,
  -- the service knows one role; the CHECK widens with the enum, never silently
  role          text NOT NULL DEFAULT 'ADMIN' CHECK (role IN ('ADMIN')),
  -- embedded in every token as `tv`; bumping it revokes every token issued before
  token_version integer NOT NULL DEFAULT 0,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
-- "Admin" and "admin" are one account: login looks names up case-insensitively.
CREATE UNIQUE INDEX users_username_lower_key ON users (lower(username));

-- One row per refresh token ever issued (until it expires or its user logs out). Rotation marks the
-- row and names its successor; presenting a rotated token again is theft unless it is the
-- parallel-tab case (see src/auth/sessions.ts), and revokes the session.
CREATE TABLE refresh_tokens (
  jti               uuid PRIMARY KEY,
  user_id           bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_version     integer NOT NULL,
  -- exact `iat`/`exp` of the refresh token and of the access token issued with it, so the pair can
  -- be signed again byte for byte during the grace window
  issued_at         timestamptz NOT NULL,
  expires_at        timestamptz NOT NULL,
  access_jti        uuid NOT NULL,
  access_expires_at timestamptz NOT NULL,
  rotated_at        timestamptz,
  replaced_by       uuid,
  grace_used_at     timestamptz
);
CREATE INDEX refresh_tokens_user_idx ON refresh_tokens (user_id, expires_at);

-- Down Migration
DROP TABLE refresh_tokens;
DROP TABLE users;
