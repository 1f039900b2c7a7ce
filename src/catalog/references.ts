/**
 * References a request makes to other resources (docs/http-contract.md, References): a good's
 * category, country and tags, a position's goods. An id that names nothing live is the client's
 * mistake, answered 400 `UNKNOWN_REFERENCE` naming the field and the ids, before any event is
 * appended, instead of a good pointing at nothing.
 *
 * A reference must also stay valid: a country, category or tag that goods or links use is not
 * deleted, and a deleted good leaves the positions that list it (docs/api.md, Usage). The check and
 * the write it guards hold a lock per referenced id: a write that names an id holds it shared (many
 * such writes run at once), the delete of that id holds it exclusively and counts the uses once the
 * read models show every event. So a delete never misses a use a write is adding, and a write made
 * after the delete finds the id gone.
 */
import type { Pool, Queryable } from '../platform/db';
import { readModelsCurrent, type CommandDeps } from '../platform/commands';
import { unknownReference } from '../platform/errors';
import { withLocks, withSharedLocks } from '../platform/locks';

/** What a field refers to: its table and the rows that count as live. */
const KINDS = {
  category: `SELECT id::text FROM categories WHERE id = ANY($1::bigint[]) AND NOT removed`,
  country: `SELECT id::text FROM countries WHERE id = ANY($1::bigint[]) AND NOT removed`,
  tag: `SELECT id::text FROM tags WHERE id = ANY($1::bigint[]) AND NOT deleted`,
  good: `SELECT id::text FROM goods WHERE id = ANY($1::bigint[])`,
  link: `SELECT id::text FROM origin_goods WHERE id = ANY($1::bigint[])`,
} as const;

export type ReferenceKind = keyof typeof KINDS;

export interface Reference {
  /** the field as the client wrote it, e.g. `goods.2.categoryId` */
  field: string;
  kind: ReferenceKind;
  ids: readonly (string | null | undefined)[];
}

/** Throws 400 `UNKNOWN_REFERENCE` for the first field naming an id that does not exist; one query per kind. */
export async function requireReferences(db: Queryable, refs: readonly Reference[]): Promise<void> {
  const wanted = new Map<ReferenceKind, Set<string>>();
  for (const r of refs) for (const id of r.ids) if (id) (wanted.get(r.kind) ?? wanted.set(r.kind, new Set()).get(r.kind)!).add(id);
  const known = new Map<ReferenceKind, Set<string>>();
  for (const [kind, ids] of wanted) {
    const rows = await db.query<{ id: string }>(KINDS[kind], [[...ids]]);
    known.set(kind, new Set(rows.rows.map((x) => x.id)));
  }
  for (const r of refs) {
    const missing = [...new Set(r.ids.filter((id): id is string => !!id && !known.get(r.kind)!.has(id)))];
    if (missing.length) throw unknownReference(r.field, missing, r.kind);
  }
}

/** The references of a good's fields, for a create, a patch or one item of a batch (`at`: `goods.3.`). */
export function goodReferences(fields: { categoryId?: string | null; countryId?: string | null; tagIds?: readonly string[] }, at = ''): Reference[] {
  return [
    { field: `${at}categoryId`, kind: 'category', ids: [fields.categoryId] },
    { field: `${at}countryId`, kind: 'country', ids: [fields.countryId] },
    { field: `${at}tagIds`, kind: 'tag', ids: fields.tagIds ?? [] },
  ];
}

/** The lock a write naming the resource holds shared, and its delete exclusively. */
export const referenceLock = (kind: ReferenceKind, id: string) => `reference:${kind}:${id}`;

/**
 * Runs a write that names other resources: their locks held shared, each checked to be live
 * (`requireReferences`), then `write`, which appends before the locks go.
 */
export async function withReferences<T>(pool: Pool, refs: readonly Reference[], write: () => Promise<T>): Promise<T> {
  const keys = refs.flatMap((r) => r.ids.filter((id): id is string => !!id).map((id) => referenceLock(r.kind, id)));
  return withSharedLocks(pool, keys, async () => {
    await requireReferences(pool, refs);
    return write();
  });
}

/**
 * Runs the delete of a resource others may name: its lock held exclusively (and `extraLocks`, such
 * as the category tree's), the read models brought up to every event of `prefixes` (the streams
 * whose rows hold the references), then `remove`, which counts the uses and decides.
 */
export async function whileUnreferenced<T>(
  deps: CommandDeps & { pool: Pool },
  kind: ReferenceKind,
  id: string,
  prefixes: readonly string[],
  remove: () => Promise<T>,
  extraLocks: readonly string[] = [],
): Promise<T> {
  return withLocks(deps.pool, [referenceLock(kind, id), ...extraLocks], async () => {
    await readModelsCurrent(deps, prefixes);
    return remove();
  });
}
