-- Up Migration
-- Read-model shape for the public storefront (src/storefront/queries.ts). The family row is already
-- the denormalised row the storefront needs: the catalog projection keeps on it the representative
-- good, the lowest price, the matrix, the unions and the media. But those JSON columns make the row
-- wide (a family with a 100-cell matrix is kilobytes), so a list that scans `families` reads
-- mostly JSON it does not show. The list needs three columns of a public family: this covering
-- partial index answers them by an index-only scan (30 000 families: a few milliseconds instead of
-- tens), and a family without goods is not even in it.
CREATE INDEX families_public ON families (representative_good_id) INCLUDE (id, lowest_price) WHERE good_count > 0;

-- The tag filter ("every listed tag carried by one of the family's goods"): `tag_ids && $tags` finds
-- the few goods carrying one of the tags instead of unnesting every good's tags.
CREATE INDEX goods_tag_ids ON goods USING gin (tag_ids);

-- Down Migration
-- IF EXISTS: a projection rebuild swaps in copies of the tables whose indexes carry generated names.
DROP INDEX IF EXISTS goods_tag_ids;
DROP INDEX IF EXISTS families_public;
