/** Small SQL helpers shared by projection handlers. */
import type { ProjectionDb } from './definition';

/**
 * Applies a partial update event: sets the given columns (undefined values are skipped) and the
 * revision, only if the row has not seen this revision yet. Answers whether a row changed.
 * Column names come from the handler's code, never from event data.
 */
export async function updateGuarded(db: ProjectionDb, table: string, id: string, revision: bigint, columns: Record<string, unknown>): Promise<boolean> {
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

// ------------------------------------------------------------------------------ set-based writes

/** Column types the set-based writes carry. */
export type ColumnType = 'bigint' | 'integer' | 'numeric' | 'text' | 'uuid' | 'boolean' | 'timestamptz' | 'jsonb' | 'bigint[]';

/** A column of a set-based write and its type. */
export type Columns = Readonly<Record<string, ColumnType>>;

/**
 * Many rows as one FROM item with one parameter per column: `ROWS FROM (unnest($1::bigint[]), …) AS
 * u(id, …)`. jsonb and array columns travel as one JSON array each: unnest would flatten an array of
 * arrays, and a JSON array needs no escaping of documents inside a PostgreSQL array literal.
 * `value(c)` is the expression that reads column c as its table type.
 */
function rowsFrom(types: Columns, names: readonly string[], rows: readonly (readonly unknown[])[], params: unknown[]) {
  const sources = names.map((name, i) => {
    const type = types[name];
    if (!type) throw new Error(`no type for column ${name}`);
    const values = rows.map((r) => r[i] ?? null);
    if (type === 'jsonb' || type === 'bigint[]') return `jsonb_array_elements($${params.push(JSON.stringify(values))}::jsonb)`;
    return `unnest($${params.push(values)}::${type}[])`;
  });
  const value = (name: string): string => {
    const type = types[name]!;
    // jsonb_array_elements gives JSON null for a missing value, where the column wants SQL NULL.
    if (type === 'jsonb') return `NULLIF(u.${name}, 'null'::jsonb)`;
    if (type === 'bigint[]') return `CASE WHEN u.${name} = 'null'::jsonb THEN NULL ELSE ARRAY(SELECT x::bigint FROM jsonb_array_elements_text(u.${name}) AS x) END`;
    return `u.${name}`;
  };
  return { from: `ROWS FROM (${sources.join(', ')}) AS u(${names.join(', ')})`, value };
}

/** One INSERT of many rows; `names` orders each row's values. */
export async function insertRows(db: ProjectionDb, table: string, types: Columns, names: readonly string[], rows: readonly (readonly unknown[])[], onConflict = ''): Promise<void> {
  if (rows.length === 0) return;
  const params: unknown[] = [];
  const { from, value } = rowsFrom(types, names, rows, params);
  await db.query(`INSERT INTO ${table} (${names.join(', ')}) SELECT ${names.map(value).join(', ')} FROM ${from} ${onConflict}`, params);
}

/**
 * One UPDATE of many rows, each row matched on `names[0]` (its key); `where` adds a condition on the
 * target `t` and the new values `u`, e.g. `t.revision < u.revision`.
 */
export async function updateRows(db: ProjectionDb, table: string, types: Columns, names: readonly string[], rows: readonly (readonly unknown[])[], where = ''): Promise<void> {
  if (rows.length === 0) return;
  const params: unknown[] = [];
  const { from, value } = rowsFrom(types, names, rows, params);
  const [key, ...set] = names;
  await db.query(`UPDATE ${table} AS t SET ${set.map((c) => `${c} = ${value(c)}`).join(', ')} FROM ${from} WHERE t.${key} = u.${key}${where ? ` AND ${where}` : ''}`, params);
}

/**
 * Row changes folded per row (column → value), written with one statement per distinct set of
 * columns: a batch of one kind of event is one statement, a mix a few.
 */
export class RowChanges {
  private readonly rows = new Map<string, Map<string, unknown>>();

  set(id: string, values: Record<string, unknown>): void {
    let row = this.rows.get(id);
    if (!row) this.rows.set(id, (row = new Map()));
    for (const [c, v] of Object.entries(values)) if (v !== undefined) row.set(c, v);
  }

  delete(id: string): void {
    this.rows.delete(id);
  }

  has(id: string): boolean {
    return this.rows.has(id);
  }

  get size(): number {
    return this.rows.size;
  }

  /** The rows grouped by their set of columns, as `[key, …columns]` names and value rows. */
  *groups(key: string): Generator<{ names: string[]; rows: unknown[][] }> {
    const bySignature = new Map<string, { names: string[]; rows: unknown[][] }>();
    for (const [id, row] of this.rows) {
      const columns = [...row.keys()].sort();
      const signature = columns.join(',');
      let group = bySignature.get(signature);
      if (!group) bySignature.set(signature, (group = { names: [key, ...columns], rows: [] }));
      group.rows.push([id, ...columns.map((c) => row.get(c))]);
    }
    yield* bySignature.values();
  }
}
