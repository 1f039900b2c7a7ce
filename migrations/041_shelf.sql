-- Up Migration
-- 上架 / 下架 (docs/domain.md, Public catalog). Families and goods get a shelf state; every row
-- written before it is on the shelf, as every event without it says.
ALTER TABLE goods ADD COLUMN on_shelf boolean NOT NULL DEFAULT true;
ALTER TABLE families ADD COLUMN on_shelf boolean NOT NULL DEFAULT true;

-- The public predicate, in one place: a family is public when it is on the shelf and has a good on the
-- shelf, which is when the catalog projection found it a representative (chosen among its goods on
-- the shelf, src/catalog/families/recompute.ts). Before this migration a family had a representative
-- exactly when it had a good, so every family public then is public now.
ALTER TABLE families ADD COLUMN is_public boolean GENERATED ALWAYS AS (on_shelf AND representative_good_id IS NOT NULL) STORED;

-- The storefront's covering index (migration 008), on the new predicate.
DROP INDEX IF EXISTS families_public;
CREATE INDEX families_public ON families (representative_good_id) INCLUDE (id, lowest_price) WHERE is_public;
-- The admin search finds a family by its representative's name whether or not it is public (a family
-- off the shelf keeps its representative), which `families_public` no longer covers.
CREATE INDEX families_representative ON families (representative_good_id) WHERE representative_good_id IS NOT NULL;

-- Down Migration
DROP INDEX IF EXISTS families_representative;
DROP INDEX IF EXISTS families_public;
ALTER TABLE families DROP COLUMN is_public;
ALTER TABLE families DROP COLUMN on_shelf;
ALTER TABLE goods DROP COLUMN on_shelf;
CREATE INDEX families_public ON families (representative_good_id) INCLUDE (id, lowest_price) WHERE good_count > 0;
