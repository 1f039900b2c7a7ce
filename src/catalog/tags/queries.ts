/** Reads of the `tags` projection's tags table for administrators and for the tag commands. */
import type { Queryable } from '../../platform/db';
import { limitOffset, paged, type Page } from '../../platform/http/pagination';
import { nameKey } from '../domain/names';
import type { ListTagsQuery } from './requests';
import type { TagView } from '../../contract/vocabulary';

type Row = { id: string; name: string; group_id: string; sort_order: number; color: string | null; revision: string };
const view = (r: Row): TagView => ({ id: r.id, name: r.name, groupId: r.group_id, sortOrder: r.sort_order, color: r.color, revision: r.revision });
const COLUMNS = `id, name, group_id, sort_order, color, revision`;

export async function getTag(db: Queryable, id: string): Promise<TagView | null> {
  const r = await db.query<Row>(`SELECT ${COLUMNS} FROM tags WHERE id = $1 AND NOT deleted`, [id]);
  return r.rows[0] ? view(r.rows[0]) : null;
}

/** Live tags, by sort order then id, optionally of one group. */
export async function listTags(db: Queryable, q: ListTagsQuery): Promise<Page<TagView>> {
  const { limit, offset } = limitOffset(q);
  const where = `WHERE NOT deleted AND ($1::bigint IS NULL OR group_id = $1)`;
  const [rows, total] = await Promise.all([
    db.query<Row>(`SELECT ${COLUMNS} FROM tags ${where} ORDER BY sort_order, id LIMIT $2 OFFSET $3`, [q.groupId ?? null, limit, offset]),
    db.query<{ n: number }>(`SELECT count(*)::int AS n FROM tags ${where}`, [q.groupId ?? null]),
  ]);
  return paged(rows.rows.map(view), total.rows[0]?.n ?? 0, q.page, q.pageSize);
}

/** Every live tag id in its present order. */
export async function tagOrder(db: Queryable): Promise<string[]> {
  const r = await db.query<{ id: string }>(`SELECT id FROM tags WHERE NOT deleted ORDER BY sort_order, id`);
  return r.rows.map((x) => x.id);
}

/** One past the last sort order in use: where a tag goes when its creator names no place. */
export async function nextTagSortOrder(db: Queryable): Promise<number> {
  const r = await db.query<{ n: number }>(`SELECT COALESCE(max(sort_order) + 1, 0)::int AS n FROM tags WHERE NOT deleted`);
  return r.rows[0]?.n ?? 0;
}

/** Name keys of the group's live tags other than `exceptTagId`. */
export async function otherNameKeys(db: Queryable, groupId: string, exceptTagId: string): Promise<string[]> {
  const r = await db.query<{ name: string }>(`SELECT name FROM tags WHERE group_id = $1 AND id <> $2 AND NOT deleted`, [groupId, exceptTagId]);
  return r.rows.map((x) => nameKey(x.name));
}
