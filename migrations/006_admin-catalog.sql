-- Up Migration
-- Read models of the administrators' tag groups, tags and positions, kept by the projections `tags`
-- (tag_groups, tags) and `positions` (positions, position_goods). Deleted rows stay, flagged, with the
-- revision of their deletion: a replayed older event then finds a newer revision and changes nothing.
-- `revision` is the stream revision of the last event applied (the `tag-order` stream's reorders set
-- sort_order only). No unique constraints: the commands keep names and dimensions unique, and a read
-- model must never refuse an event the log already holds.
CREATE TABLE tag_groups (
  id         bigint PRIMARY KEY,
  name       text NOT NULL,
  -- size, color, printCount, craft or logistics; at most one live group each
  dimension  text,
  deleted    boolean NOT NULL DEFAULT false,
  revision   bigint NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX tag_groups_dimension ON tag_groups (dimension) WHERE NOT deleted AND dimension IS NOT NULL;

CREATE TABLE tags (
  id         bigint PRIMARY KEY,
  group_id   bigint NOT NULL,
  name       text NOT NULL,
  color      text,
  sort_order integer NOT NULL DEFAULT 0,
  deleted    boolean NOT NULL DEFAULT false,
  revision   bigint NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX tags_order ON tags (sort_order, id) WHERE NOT deleted;
CREATE INDEX tags_group ON tags (group_id, sort_order, id) WHERE NOT deleted;

CREATE TABLE positions (
  id         bigint PRIMARY KEY,
  name       text NOT NULL,
  sort_order integer NOT NULL DEFAULT 0,
  deleted    boolean NOT NULL DEFAULT false,
  revision   bigint NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX positions_order ON positions (sort_order, id) WHERE NOT deleted;

-- The goods placed in a live position, in display order (rows go when the position is deleted).
CREATE TABLE position_goods (
  position_id bigint NOT NULL,
  good_id     bigint NOT NULL,
  sort_order  integer NOT NULL,
  PRIMARY KEY (position_id, good_id)
);
CREATE INDEX position_goods_good ON position_goods (good_id);

-- Down Migration
DROP TABLE position_goods;
DROP TABLE positions;
DROP TABLE tags;
DROP TABLE tag_groups;
