-- Up Migration
-- Read models of the supplier mirror, kept by the projections `catalog_tree` (categories,
-- countries) and `origin_goods` (links). `revision` is the stream revision of the last event applied,
-- which the synchronisation uses as its expected revision; `mirror_hash` is the hash of the mirrored
-- fields, so a sync can tell "unchanged" without reading the stream.
CREATE TABLE countries (
  id          bigint PRIMARY KEY,
  name        text NOT NULL,
  code        text NOT NULL,
  sort_order  integer NOT NULL DEFAULT 0,
  removed     boolean NOT NULL DEFAULT false,
  mirror_hash text,
  revision    bigint NOT NULL
);
CREATE INDEX countries_order ON countries (sort_order, id);

CREATE TABLE categories (
  id             bigint PRIMARY KEY,
  parent_id      bigint,
  name           text NOT NULL,
  raw_name       text NOT NULL,
  icon           text,
  -- own icon, or the nearest ancestor's (recomputed by the projection when the tree changes)
  effective_icon text,
  sort_order     integer NOT NULL DEFAULT 0,
  supplier_sort  integer,
  -- 1 top, 2 middle, 3 style
  level          smallint NOT NULL DEFAULT 1,
  removed        boolean NOT NULL DEFAULT false,
  mirror_hash    text,
  revision       bigint NOT NULL
);
CREATE INDEX categories_parent ON categories (parent_id, sort_order, id);

CREATE TABLE origin_goods (
  id                  bigint PRIMARY KEY,
  name                text NOT NULL,
  category_id         bigint,
  craft_label         text,
  price               numeric NOT NULL,
  image               text,
  status              text NOT NULL,
  supplier_updated_at timestamptz,
  delisted            boolean NOT NULL DEFAULT false,
  delisted_reason     text,
  mirror_hash         text,
  detail              jsonb,
  detail_hash         text,
  detail_synced_at    timestamptz,
  revision            bigint NOT NULL,
  first_seen_at       timestamptz NOT NULL,
  updated_at          timestamptz NOT NULL
);
CREATE INDEX origin_goods_category ON origin_goods (category_id);
CREATE INDEX origin_goods_unsynced ON origin_goods (id) WHERE detail_synced_at IS NULL;

-- Down Migration
DROP TABLE origin_goods;
DROP TABLE categories;
DROP TABLE countries;
