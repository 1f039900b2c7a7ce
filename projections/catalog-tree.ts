/**
 * Categories and countries as the storefront and administrators read them. Category icons are
 * inherited from the nearest ancestor, and levels follow the tree; both are recomputed after each
 * batch that touched the tree (it has hundreds of rows, not millions).
 */
import { defineProjection } from '../src/platform/projections/definition';
import { categoryMirrorHash } from '../src/catalog/categories/mirror';
import { contentHash } from '../src/platform/content-hash';
import type { CategoryEvent } from '../src/catalog/categories/events';
import type { CountryEvent } from '../src/catalog/countries/events';
import { applyOrder, updateGuarded } from '../src/platform/projections/sql';

export const catalogTreeProjection = defineProjection<CategoryEvent | CountryEvent>({
  name: 'catalog_tree',
  // The prefixes also cover the order streams `country-order` and `category-order-…`.
  streamPrefixes: ['category-', 'country-'],
  tables: ['categories', 'countries'],
  domains: ['meta', 'goods'],
  on: {
    async CategoryMirrored(db, e) {
      const d = e.data;
      // The revision guard makes a replayed event a no-op.
      await db.query(
        `INSERT INTO categories (id, parent_id, name, raw_name, icon, sort_order, supplier_sort, removed, mirror_hash, revision)
           VALUES ($1, $2, $3, $4, $5, COALESCE($6::integer, $7::integer), $7::integer, false, $8, $9)
           ON CONFLICT (id) DO UPDATE SET parent_id = EXCLUDED.parent_id, name = EXCLUDED.name, raw_name = EXCLUDED.raw_name,
             icon = EXCLUDED.icon, supplier_sort = EXCLUDED.supplier_sort, removed = false, mirror_hash = EXCLUDED.mirror_hash,
             sort_order = COALESCE($6::integer, categories.sort_order), revision = EXCLUDED.revision
           WHERE categories.revision < EXCLUDED.revision`,
        [d.categoryId, d.parentId, d.name, d.rawName, d.icon, d.sortOrder, d.supplierSort, categoryMirrorHash(d), e.revision.toString()],
      );
    },
    async CategoryRemovedUpstream(db, e) {
      await db.query(`UPDATE categories SET removed = true, revision = $2 WHERE id = $1 AND revision < $2`, [e.data.categoryId, e.revision.toString()]);
    },
    async CountryMirrored(db, e) {
      const d = e.data;
      await db.query(
        `INSERT INTO countries (id, name, code, removed, mirror_hash, revision) VALUES ($1, $2, $3, false, $4, $5)
           ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, code = EXCLUDED.code, removed = false,
             mirror_hash = EXCLUDED.mirror_hash, revision = EXCLUDED.revision
           WHERE countries.revision < EXCLUDED.revision`,
        [d.countryId, d.name, d.code, contentHash(d), e.revision.toString()],
      );
    },
    async CountryRemovedUpstream(db, e) {
      await db.query(`UPDATE countries SET removed = true, revision = $2 WHERE id = $1 AND revision < $2`, [e.data.countryId, e.revision.toString()]);
    },
    // ---- administrators' edits. Rows they create have no mirror_hash, so the mirror never lists
    // them as gone; on mirrored rows they keep mirror_hash, so a sync of an unchanged supplier
    // object leaves the edit alone. Deleting sets `removed`, like the supplier's removal.
    async CategoryCreated(db, e) {
      const d = e.data;
      await db.query(
        `INSERT INTO categories (id, parent_id, name, raw_name, icon, sort_order, removed, revision)
           VALUES ($1, $2, $3, $3, $4, $5, false, $6)
           ON CONFLICT (id) DO NOTHING`,
        [d.categoryId, d.parentId, d.name, d.icon, d.sortOrder, e.revision.toString()],
      );
    },
    async CategoryUpdated(db, e) {
      const d = e.data;
      await updateGuarded(db, 'categories', d.categoryId, e.revision, { parent_id: d.parentId, name: d.name, icon: d.icon, sort_order: d.sortOrder });
    },
    async CategoryDeleted(db, e) {
      await updateGuarded(db, 'categories', e.data.categoryId, e.revision, { removed: true });
    },
    async CountryCreated(db, e) {
      const d = e.data;
      await db.query(
        `INSERT INTO countries (id, name, code, sort_order, removed, revision) VALUES ($1, $2, $3, $4, false, $5)
           ON CONFLICT (id) DO NOTHING`,
        [d.countryId, d.name, d.code, d.sortOrder, e.revision.toString()],
      );
    },
    async CountryUpdated(db, e) {
      const d = e.data;
      await updateGuarded(db, 'countries', d.countryId, e.revision, { name: d.name, code: d.code, sort_order: d.sortOrder });
    },
    async CountryDeleted(db, e) {
      await updateGuarded(db, 'countries', e.data.countryId, e.revision, { removed: true });
    },
    async CategoriesReordered(db, e) {
      // Sort orders only, as for countries; the categories' own revisions are left to their streams.
      await applyOrder(db, 'categories', e.data.categoryIds);
    },
    async CountriesReordered(db, e) {
      // Sort orders only: `revision` is the country stream's, which the mirror appends against.
      await applyOrder(db, 'countries', e.data.countryIds);
    },
  },
  async afterBatch(db, events) {
    if (!events.some((e) => e.type.startsWith('Category'))) return;
    // Walk the tree from the roots: level and effective icon (own, else the nearest ancestor's).
    await db.query(`
      WITH RECURSIVE tree AS (
        SELECT id, 1 AS level, icon AS effective_icon FROM categories
         WHERE parent_id IS NULL OR parent_id NOT IN (SELECT id FROM categories)
        UNION ALL
        SELECT c.id, t.level + 1, COALESCE(c.icon, t.effective_icon)
          FROM categories c JOIN tree t ON c.parent_id = t.id
         WHERE t.level < 10
      )
      UPDATE categories c SET level = t.level, effective_icon = t.effective_icon
        FROM tree t
       WHERE c.id = t.id AND (c.level IS DISTINCT FROM t.level OR c.effective_icon IS DISTINCT FROM t.effective_icon)`);
  },
});
