-- Up Migration
-- Small facts about this installation, such as "the demo catalog has been seeded" (so a seeding cut
-- short by a restart resumes instead of leaving half a catalog).
CREATE TABLE service_flags (
  name  text PRIMARY KEY,
  value text NOT NULL,
  at    timestamptz NOT NULL DEFAULT now()
);

-- Down Migration
DROP TABLE service_flags;
