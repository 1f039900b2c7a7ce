-- Up Migration
-- Which families each commit of the `goods` cache domain may have changed, under that commit's new
-- version of the domain (cache_domains). The storefront keeps the public families' list keys in
-- memory and, after a write, reads again only the families named here since the version it holds
-- (src/storefront/family-index.ts); `family_ids` NULL means any family (a rebuild's swap). The
-- projection runner writes a row in the transaction that bumps the version
-- (src/platform/projections/runner.ts) and lets old rows go; a version without a row (the log
-- replayed from the start) sends a reader to read every family again.
CREATE TABLE family_changes (
  goods_version bigint PRIMARY KEY,
  family_ids bigint[]
);

-- Down Migration
DROP TABLE family_changes;
