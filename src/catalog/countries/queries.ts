/** Reads of the `catalog_tree` projection's countries table for administrators. */
import type { Queryable } from '../../platform/db';
import { limitOffset, paged, type Page, type PageQuery } from '../../platform/http/pagination';
import type { CountryView } from '../../contract/vocabulary';

type Row = { id: string; name: string; code: string; sort_order: number; mirrored: boolean; revision: string };
const view = (r: Row): CountryView => ({ id: r.id, name: r.name, code: r.code, sortOrder: r.sort_order, source: r.mirrored ? 'supplier' : 'admin', revision: r.revision });
// Only the supplier mirror sets mirror_hash.
const COLUMNS = `id, name, code, sort_order, mirror_hash IS NOT NULL AS mirrored, revision`;

export async function getCountry(db: Queryable, id: string): Promise<CountryView | null> {
  const r = await db.query<Row>(`SELECT ${COLUMNS} FROM countries WHERE id = $1 AND NOT removed`, [id]);
  return r.rows[0] ? view(r.rows[0]) : null;
}

/** Live countries by sort order, then id (docs/domain.md, Public catalog). */
export async function listCountries(db: Queryable, q: PageQuery): Promise<Page<CountryView>> {
  const { limit, offset } = limitOffset(q);
  const [rows, total] = await Promise.all([
    db.query<Row>(`SELECT ${COLUMNS} FROM countries WHERE NOT removed ORDER BY sort_order, id LIMIT $1 OFFSET $2`, [limit, offset]),
    db.query<{ n: number }>(`SELECT count(*)::int AS n FROM countries WHERE NOT removed`),
  ]);
  return paged(rows.rows.map(view), total.rows[0]?.n ?? 0, q.page, q.pageSize);
}

/** Every live country id in its present order. */
export async function countryOrder(db: Queryable): Promise<string[]> {
  const r = await db.query<{ id: string }>(`SELECT id FROM countries WHERE NOT removed ORDER BY sort_order, id`);
  return r.rows.map((x) => x.id);
}
