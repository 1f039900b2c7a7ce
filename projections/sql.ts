/** Small SQL helpers shared by projection handlers. */
import type { ProjectionDb } from '../src/platform/projections/definition';

/**
 * Applies a partial update event: sets the given columns (undefined values are skipped) and the
 * revision, only if the row has not seen this revision yet. Answers whether a row changed.
 * Column names come from the handler's code, never from event data.
 */
export async function updateGuarded(
  db: ProjectionDb,
  table: string,
  id: string,
  revision: bigint,
  columns: Record<string, unknown>,
): Promise<boolean> {
  const set: string[] = [];
  const values: unknown[] = [id, revision.toString()];
  for (const [column, value] of Object.entries(columns)) {
    if (value === undefined) continue;
    values.push(value);
    set.push(`${column} = $${values.length}`);
  }
  set.push('revision = $2');
  const r = await db.query(`UPDATE ${table} SET ${set.join(', ')} WHERE id = $1 AND revision < $2`, values);
  return (r.rowCount ?? 0) > 0;
}

/** Sets sort_order to each id's index in `ids` (a reorder: replaying it writes the same values). */
export async function applyOrder(db: ProjectionDb, table: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.query(
    `UPDATE ${table} t SET sort_order = o.ord - 1
       FROM unnest($1::bigint[]) WITH ORDINALITY AS o(id, ord)
      WHERE t.id = o.id AND t.sort_order IS DISTINCT FROM (o.ord - 1)::int`,
    [ids],
  );
}
