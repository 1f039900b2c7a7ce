-- Up Migration
-- The organised catalog, kept by the `catalog` projection together with origin_goods (links), so a
-- family's aggregates are always computed from one consistent snapshot of its links, custom
-- members, overrides and goods.
ALTER TABLE origin_goods
  ADD COLUMN parsed_country      text,
  ADD COLUMN parsed_logistics    text,
  ADD COLUMN parsed_product_name text,
  ADD COLUMN parsed_sku          text,
  ADD COLUMN family_name_key     text,
  -- dimension values {size:[], color:[], printCount:[], craft:[], logistics:[]}; null = never derived
  ADD COLUMN tags                jsonb,
  ADD COLUMN tags_manual         boolean NOT NULL DEFAULT false,
  ADD COLUMN tags_missing        jsonb NOT NULL DEFAULT '[]',
  ADD COLUMN family_id           bigint;
CREATE INDEX origin_goods_family ON origin_goods (family_id, id);
CREATE INDEX origin_goods_name_key ON origin_goods (family_name_key) WHERE family_name_key IS NOT NULL;

CREATE TABLE families (
  id                     bigint PRIMARY KEY,
  name                   text NOT NULL,
  family_name_key        text,
  auto_managed           boolean NOT NULL,
  locked                 boolean NOT NULL,
  member_count           integer NOT NULL DEFAULT 0,
  good_count             integer NOT NULL DEFAULT 0,
  representative_good_id bigint,
  variants               jsonb NOT NULL DEFAULT '[]',
  size_chart             jsonb NOT NULL DEFAULT '[]',
  packaging_specs        jsonb NOT NULL DEFAULT '[]',
  price_matrix           jsonb NOT NULL DEFAULT '{}',
  conflicts              jsonb NOT NULL DEFAULT '[]',
  lowest_price           numeric,
  media_by_color         jsonb NOT NULL DEFAULT '{}',
  created_at             timestamptz NOT NULL,
  updated_at             timestamptz NOT NULL,
  revision               bigint NOT NULL
);
CREATE INDEX families_name_key ON families (family_name_key) WHERE family_name_key IS NOT NULL;

CREATE TABLE family_custom_members (
  family_id bigint NOT NULL,
  good_id   bigint NOT NULL,
  tags      jsonb NOT NULL,
  price     numeric NOT NULL,
  PRIMARY KEY (family_id, good_id)
);

CREATE TABLE family_overrides (
  family_id   bigint NOT NULL,
  size        text NOT NULL,
  color       text NOT NULL,
  print_count text NOT NULL,
  craft       text NOT NULL,
  logistics   text NOT NULL,
  price       numeric NOT NULL,
  PRIMARY KEY (family_id, size, color, print_count, craft, logistics)
);

CREATE TABLE goods (
  id             bigint PRIMARY KEY,
  name           text NOT NULL,
  description    text,
  image          text,
  good_priority  numeric NOT NULL DEFAULT 0,
  tag_ids        bigint[] NOT NULL DEFAULT '{}',
  tag_font_color text,
  category_id    bigint,
  country_id     bigint,
  -- primary origin link; null for a custom good
  origin_good_id bigint,
  -- attributed: the primary link's family, or the family a custom good is a custom member of
  family_id      bigint,
  created_at     timestamptz NOT NULL,
  updated_at     timestamptz NOT NULL,
  revision       bigint NOT NULL
);
CREATE INDEX goods_family ON goods (family_id);
CREATE INDEX goods_origin ON goods (origin_good_id);

CREATE TABLE good_origin_goods (
  good_id        bigint NOT NULL,
  origin_good_id bigint NOT NULL,
  position       integer NOT NULL,
  PRIMARY KEY (good_id, origin_good_id)
);
CREATE INDEX good_origin_goods_origin ON good_origin_goods (origin_good_id);

-- Families a batch touched, recomputed once at its end, in the same transaction (then emptied).
CREATE TABLE catalog_dirty_families (
  family_id bigint PRIMARY KEY
);

-- Down Migration
DROP TABLE catalog_dirty_families;
DROP TABLE good_origin_goods;
DROP TABLE goods;
DROP TABLE family_overrides;
DROP TABLE family_custom_members;
DROP TABLE families;
ALTER TABLE origin_goods DROP COLUMN family_id, DROP COLUMN tags_missing, DROP COLUMN tags_manual, DROP COLUMN tags,
  DROP COLUMN family_name_key, DROP COLUMN parsed_sku, DROP COLUMN parsed_product_name, DROP COLUMN parsed_logistics,
  DROP COLUMN parsed_country;
