/** Reads of the `tags` projection's tag_groups table for administrators. */
import type { Queryable } from '../../platform/db';
import { limitOffset, paged, type Page, type PageQuery } from '../../platform/http/pagination';
import type { Dimension } from '../domain/tags';
import type { TagGroupView as SharedTagGroupView } from '../../contract/vocabulary';

// Declared once for the service and the admin client.
export type TagGroupView = SharedTagGroupView<Dimension>;

const SELECT = `SELECT g.id, g.name, g.dimension, g.revision,
                       (SELECT count(*) FROM tags t WHERE t.group_id = g.id AND NOT t.deleted)::int AS tag_count
                  FROM tag_groups g`;

type Row = { id: string; name: string; dimension: Dimension | null; revision: string; tag_count: number };
const view = (r: Row): TagGroupView => ({ id: r.id, name: r.name, dimension: r.dimension, tagCount: r.tag_count, revision: r.revision });

export async function getTagGroup(db: Queryable, id: string): Promise<TagGroupView | null> {
  const r = await db.query<Row>(`${SELECT} WHERE g.id = $1 AND NOT g.deleted`, [id]);
  return r.rows[0] ? view(r.rows[0]) : null;
}

export async function listTagGroups(db: Queryable, q: PageQuery & { dimension?: Dimension | undefined }): Promise<Page<TagGroupView>> {
  const { limit, offset } = limitOffset(q);
  const where = `WHERE NOT g.deleted AND ($1::text IS NULL OR g.dimension = $1)`;
  const [rows, total] = await Promise.all([
    db.query<Row>(`${SELECT} ${where} ORDER BY g.id LIMIT $2 OFFSET $3`, [q.dimension ?? null, limit, offset]),
    db.query<{ n: number }>(`SELECT count(*)::int AS n FROM tag_groups g ${where}`, [q.dimension ?? null]),
  ]);
  return paged(rows.rows.map(view), total.rows[0]?.n ?? 0, q.page, q.pageSize);
}

/** The live group that holds a dimension, if any. */
export async function dimensionHolder(db: Queryable, dimension: Dimension): Promise<string | null> {
  const r = await db.query<{ id: string }>(`SELECT id FROM tag_groups WHERE dimension = $1 AND NOT deleted ORDER BY id LIMIT 1`, [dimension]);
  return r.rows[0]?.id ?? null;
}

export async function liveTagCount(db: Queryable, groupId: string): Promise<number> {
  const r = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM tags WHERE group_id = $1 AND NOT deleted`, [groupId]);
  return r.rows[0]?.n ?? 0;
}
