/**
 * Categories and countries as the storefront and administrators read them. Category icons are
 * inherited from the nearest ancestor, and levels follow the tree; both are recomputed after each
 * batch that touched the tree (it has hundreds of rows, not millions).
 */
import { defineProjection } from '../src/platform/projections/definition';
import { categoryMirrorHash } from '../src/catalog/categories/mirror';
import { contentHash } from '../src/platform/content-hash';
import type { DataOf } from '../src/platform/events/catalogue';
import type { CategoriesReordered, CategoryCreated, CategoryUpdated } from '../src/catalog/categories/admin-events';
import type { CountriesReordered, CountryCreated, CountryUpdated } from '../src/catalog/countries/admin-events';
import { applyOrder, updateGuarded } from './sql';

type CategoryData = { categoryId: string; parentId: string | null; name: string; rawName: string; icon: string | null; supplierSort: number; sortOrder: number | null };
type CountryData = { countryId: string; name: string; code: string };

export const catalogTreeProjection = defineProjection({
  name: 'catalog_tree',
  handles: [
    'CategoryMirrored',
    'CategoryRemovedUpstream',
    'CountryMirrored',
    'CountryRemovedUpstream',
    // administrators' edits; the prefixes also cover the order streams `country-order` and `category-order-…`
    'CategoryCreated',
    'CategoryUpdated',
    'CategoryDeleted',
    'CategoriesReordered',
    'CountryCreated',
    'CountryUpdated',
    'CountryDeleted',
    'CountriesReordered',
  ],
  streamPrefixes: ['category-', 'country-'],
  tables: ['categories', 'countries'],
  domains: ['meta', 'goods'],
  async apply(db, e) {
    const rev = e.revision.toString();
    switch (e.type) {
      case 'CategoryMirrored': {
        const d = e.data as CategoryData;
        // The revision guard makes a replayed event a no-op.
        await db.query(
          `INSERT INTO categories (id, parent_id, name, raw_name, icon, sort_order, supplier_sort, removed, mirror_hash, revision)
           VALUES ($1, $2, $3, $4, $5, COALESCE($6::integer, $7::integer), $7::integer, false, $8, $9)
           ON CONFLICT (id) DO UPDATE SET parent_id = EXCLUDED.parent_id, name = EXCLUDED.name, raw_name = EXCLUDED.raw_name,
             icon = EXCLUDED.icon, supplier_sort = EXCLUDED.supplier_sort, removed = false, mirror_hash = EXCLUDED.mirror_hash,
             sort_order = COALESCE($6::integer, categories.sort_order), revision = EXCLUDED.revision
           WHERE categories.revision < EXCLUDED.revision`,
          [d.categoryId, d.parentId, d.name, d.rawName, d.icon, d.sortOrder, d.supplierSort, categoryMirrorHash(d), rev],
        );
        return;
      }
      case 'CategoryRemovedUpstream':
        await db.query(`UPDATE categories SET removed = true, revision = $2 WHERE id = $1 AND revision < $2`, [
          (e.data as { categoryId: string }).categoryId,
          rev,
        ]);
        return;
      case 'CountryMirrored': {
        const d = e.data as CountryData;
        await db.query(
          `INSERT INTO countries (id, name, code, removed, mirror_hash, revision) VALUES ($1, $2, $3, false, $4, $5)
           ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, code = EXCLUDED.code, removed = false,
             mirror_hash = EXCLUDED.mirror_hash, revision = EXCLUDED.revision
           WHERE countries.revision < EXCLUDED.revision`,
          [d.countryId, d.name, d.code, contentHash(d), rev],
        );
        return;
      }
      case 'CountryRemovedUpstream':
        await db.query(`UPDATE countries SET removed = true, revision = $2 WHERE id = $1 AND revision < $2`, [
          (e.data as { countryId: string }).countryId,
          rev,
        ]);
        return;
      // ---- administrators' edits. Rows they create have no mirror_hash, so the mirror never lists
      // them as gone; on mirrored rows they keep mirror_hash, so a sync of an unchanged supplier
      // object leaves the edit alone. Deleting sets `removed`, like the supplier's removal.
      case 'CategoryCreated': {
        const d = e.data as DataOf<typeof CategoryCreated>;
        await db.query(
          `INSERT INTO categories (id, parent_id, name, raw_name, icon, sort_order, removed, revision)
           VALUES ($1, $2, $3, $3, $4, $5, false, $6)
           ON CONFLICT (id) DO NOTHING`,
          [d.categoryId, d.parentId, d.name, d.icon, d.sortOrder, rev],
        );
        return;
      }
      case 'CategoryUpdated': {
        const d = e.data as DataOf<typeof CategoryUpdated>;
        await updateGuarded(db, 'categories', d.categoryId, e.revision, { parent_id: d.parentId, name: d.name, icon: d.icon, sort_order: d.sortOrder });
        return;
      }
      case 'CategoryDeleted':
        await updateGuarded(db, 'categories', (e.data as { categoryId: string }).categoryId, e.revision, { removed: true });
        return;
      case 'CountryCreated': {
        const d = e.data as DataOf<typeof CountryCreated>;
        await db.query(
          `INSERT INTO countries (id, name, code, sort_order, removed, revision) VALUES ($1, $2, $3, $4, false, $5)
           ON CONFLICT (id) DO NOTHING`,
          [d.countryId, d.name, d.code, d.sortOrder, rev],
        );
        return;
      }
      case 'CountryUpdated': {
        const d = e.data as DataOf<typeof CountryUpdated>;
        await updateGuarded(db, 'countries', d.countryId, e.revision, { name: d.name, code: d.code, sort_order: d.sortOrder });
        return;
      }
      case 'CountryDeleted':
        await updateGuarded(db, 'countries', (e.data as { countryId: string }).countryId, e.revision, { removed: true });
        return;
      case 'CategoriesReordered':
        // Sort orders only, as for countries; the categories' own revisions are left to their streams.
        await applyOrder(db, 'categories', (e.data as DataOf<typeof CategoriesReordered>).categoryIds);
        return;
      case 'CountriesReordered':
        // Sort orders only: `revision` is the country stream's, which the mirror appends against.
        await applyOrder(db, 'countries', (e.data as DataOf<typeof CountriesReordered>).countryIds);
        return;
    }
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
