/** Reads of the `catalog_tree` projection's categories table for administrators and category commands. */
import type { Queryable } from '../../platform/db';
import { limitOffset, paged, type Page } from '../../platform/http/pagination';
import type { ListCategoriesQuery } from './requests';
import type { CategoryView } from '../../contract/vocabulary';

type Row = {
  id: string;
  parent_id: string | null;
  name: string;
  icon: string | null;
  effective_icon: string | null;
  sort_order: number;
  level: number;
  mirrored: boolean;
  revision: string;
};
const view = (r: Row): CategoryView => ({
  id: r.id,
  parentId: r.parent_id,
  name: r.name,
  icon: r.icon,
  effectiveIcon: r.effective_icon,
  sortOrder: r.sort_order,
  level: r.level,
  source: r.mirrored ? 'supplier' : 'admin',
  revision: r.revision,
});
// Only the supplier mirror sets mirror_hash.
const COLUMNS = `id, parent_id, name, icon, effective_icon, sort_order, level, mirror_hash IS NOT NULL AS mirrored, revision`;

export async function getCategory(db: Queryable, id: string): Promise<CategoryView | null> {
  const r = await db.query<Row>(`SELECT ${COLUMNS} FROM categories WHERE id = $1 AND NOT removed`, [id]);
  return r.rows[0] ? view(r.rows[0]) : null;
}

/** Live categories by sort order, then id; all of them, the top level (`root`) or one parent's children. */
export async function listCategories(db: Queryable, q: ListCategoriesQuery): Promise<Page<CategoryView>> {
  const { limit, offset } = limitOffset(q);
  const where = q.parentId === undefined ? `WHERE NOT removed` : q.parentId === 'root' ? `WHERE NOT removed AND parent_id IS NULL` : `WHERE NOT removed AND parent_id = $3`;
  const filter = q.parentId === undefined || q.parentId === 'root' ? [] : [q.parentId];
  const countWhere = where.replace('$3', '$1');
  const [rows, total] = await Promise.all([
    db.query<Row>(`SELECT ${COLUMNS} FROM categories ${where} ORDER BY sort_order, id LIMIT $1 OFFSET $2`, [limit, offset, ...filter]),
    db.query<{ n: number }>(`SELECT count(*)::int AS n FROM categories ${countWhere}`, filter),
  ]);
  return paged(rows.rows.map(view), total.rows[0]?.n ?? 0, q.page, q.pageSize);
}

/** The category's ancestors, nearest first (bounded, so a malformed supplier tree cannot loop). */
export async function ancestorsOf(db: Queryable, id: string): Promise<string[]> {
  const r = await db.query<{ id: string }>(
    `WITH RECURSIVE up(id, depth) AS (
       SELECT parent_id, 1 FROM categories WHERE id = $1
       UNION ALL
       SELECT c.parent_id, up.depth + 1 FROM categories c JOIN up ON c.id = up.id WHERE up.depth < 50
     )
     SELECT id FROM up WHERE id IS NOT NULL ORDER BY depth`,
    [id],
  );
  return r.rows.map((x) => x.id);
}

/** The live children of `parentId` (null: the top level) in their present order: sort order, then id. */
export async function childOrder(db: Queryable, parentId: string | null): Promise<string[]> {
  const r = await db.query<{ id: string }>(`SELECT id FROM categories WHERE NOT removed AND parent_id IS NOT DISTINCT FROM $1::bigint ORDER BY sort_order, id`, [parentId]);
  return r.rows.map((x) => x.id);
}
