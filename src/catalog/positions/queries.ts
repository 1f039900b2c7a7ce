/** Reads of the `positions` projection for administrators. */
import type { Queryable } from '../../platform/db';
import { limitOffset, paged, type Page, type PageQuery } from '../../platform/http/pagination';
import type { PositionView } from '../../contract/vocabulary';

type Row = { id: string; name: string; sort_order: number; good_ids: string[]; revision: string };
const view = (r: Row): PositionView => ({ id: r.id, name: r.name, sortOrder: r.sort_order, goodIds: r.good_ids, revision: r.revision });

// bigint[] comes back as text[] (the pool keeps int8 as strings; ::text[] makes that explicit).
const SELECT = `SELECT p.id, p.name, p.sort_order, p.revision,
                       COALESCE((SELECT array_agg(pg.good_id::text ORDER BY pg.sort_order) FROM position_goods pg WHERE pg.position_id = p.id), '{}') AS good_ids
                  FROM positions p`;

export async function getPosition(db: Queryable, id: string): Promise<PositionView | null> {
  const r = await db.query<Row>(`${SELECT} WHERE p.id = $1 AND NOT p.deleted`, [id]);
  return r.rows[0] ? view(r.rows[0]) : null;
}

export async function listPositions(db: Queryable, q: PageQuery): Promise<Page<PositionView>> {
  const { limit, offset } = limitOffset(q);
  const [rows, total] = await Promise.all([
    db.query<Row>(`${SELECT} WHERE NOT p.deleted ORDER BY p.sort_order, p.id LIMIT $1 OFFSET $2`, [limit, offset]),
    db.query<{ n: number }>(`SELECT count(*)::int AS n FROM positions WHERE NOT deleted`),
  ]);
  return paged(rows.rows.map(view), total.rows[0]?.n ?? 0, q.page, q.pageSize);
}
