/**
 * The SQL both the list queries (./queries.ts) and the family index (./family-index.ts) read public
 * families with: kept apart so neither imports the other.
 */

import { publicFamily } from '../catalog/domain/public';

/** Public families (docs/domain.md, Public catalog; the predicate: src/catalog/domain/public.ts) joined to their representative good. */
export const PUBLIC_FAMILIES = `
  FROM families f
  JOIN goods g ON g.id = f.representative_good_id
 WHERE ${publicFamily('f')}`;

/**
 * What an item shows, hashed: the good's columns (`list_item_md5`, kept by the database, migration
 * 030) and the family's lowest price. Equal hashes, equal items (under the same tags).
 */
export const ITEM_HASH = `g.list_item_md5 || coalesce(f.lowest_price::text, '')`;

/** What a list item shows besides its id, country and category (FamilyItemRow, ./views.ts). */
export const ITEM_SHOWN = `g.name, g.image, f.lowest_price::text AS price, array_to_string(g.tag_ids, ',') AS tag_ids, g.tag_font_color`;

/** What a list item shows (FamilyItemRow, ./views.ts). */
export const ITEM_COLUMNS = `f.id, g.country_id, g.category_id, ${ITEM_SHOWN}`;
