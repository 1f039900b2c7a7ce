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
 * after the delete finds the id gone. A good made from a link also holds the locks of what it copies
 * from the link (`withCopiedReferences`).
 *
 * Synchronisation and organisation add references too, a batch at a time: a listing page files links
 * under categories and a categories pass subcategories under parents (by id), organisation parses
 * links' countries and derives their dimension tags (by name), as an administrator's edit of a link's
 * tags does besides the tags it chooses (by id). Each holds the locks of the live ids it names shared
 * while it appends (`withBatchReferences`), all in one lock call: at 100 000 links that is one call
 * per page or chunk, and a delete waits only for an append naming its own id, which it must count.
 * (Making every delete wait for a running step instead would hold a delete of an unrelated id for
 * minutes, past its lock timeout, and still leave the step's next batch to find the id gone.)
 *
 * Those writes find an id live or gone in the read models, so a delete keeps its lock until they
 * show it deleted, however long they lag (`whileUnreferenced`): a write that gets the lock after it
 * never finds the id still live.
 */
import type { Pool, Queryable } from '../platform/db';
import { readModelsCurrent, type CommandDeps } from '../platform/commands';
import { unknownReference } from '../platform/errors';
import type { LogPosition } from '../platform/event-store/port';
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
export function withReferences<T>(pool: Pool, refs: readonly Reference[], write: () => Promise<T>): Promise<T> {
  return withCopiedReferences(pool, refs, async () => ({ value: null, locks: [] }), write);
}

/**
 * The same for a write that also copies references from what it reads (a good made from a link
 * takes the link's category, country and tags: src/catalog/goods/handle.ts): `read` answers what it
 * read and the locks of the live ids it would copy. Those are taken with the locks of `refs`, in the
 * same call; `read` is read again under them, and `write` runs on that second read once every id it
 * copies is locked, else all is done again (the link changed meanwhile). A delete of a copied id
 * then counts the write, or has come first and the second read no longer finds it.
 */
export async function withCopiedReferences<T, R>(
  pool: Pool,
  refs: readonly Reference[],
  read: () => Promise<{ value: R; locks: readonly string[] }>,
  write: (read: R) => Promise<T>,
): Promise<T> {
  const named = refs.flatMap((r) => r.ids.filter((id): id is string => !!id).map((id) => referenceLock(r.kind, id)));
  for (;;) {
    const before = await read();
    const done = await withSharedLocks(pool, [...named, ...before.locks], async () => {
      await requireReferences(pool, refs);
      const now = await read();
      return now.locks.every((k) => before.locks.includes(k)) ? { value: await write(now.value) } : null;
    });
    if (done) return done.value;
  }
}

/** What can be deleted while others name it (a link never is: the supplier's delisting keeps its row). */
type DeletableKind = Exclude<ReferenceKind, 'link'>;

/**
 * Runs the delete of a resource others may name: its lock held exclusively (and `extraLocks`, such
 * as the category tree's), the read models brought up to every event of `prefixes` (the streams
 * whose rows hold the references), then `remove`, which counts the uses, decides and appends (and
 * waits, as a command does). The locks are held until the read models show the delete: a write
 * naming the id checks it there once it has the lock, so it must find it gone. When they lag past
 * COMMAND_WAIT_MS the delete goes on waiting, and so do the writes naming the id (an administrator's
 * for its lock's 30 s, then 409 `LOCK.BUSY`; a batch for BATCH_LOCK_WAIT_MS); a projection that has
 * failed ends the wait with its 503 (docs/api.md, Usage).
 */
export async function whileUnreferenced(
  deps: CommandDeps & { pool: Pool },
  kind: DeletableKind,
  id: string,
  /** the stream its delete appends to */
  stream: string,
  prefixes: readonly string[],
  remove: () => Promise<{ position: LogPosition | null }>,
  extraLocks: readonly string[] = [],
): Promise<void> {
  await withLocks(deps.pool, [referenceLock(kind, id), ...extraLocks], async () => {
    await readModelsCurrent(deps, prefixes);
    const { position } = await remove();
    if (position) while (!(await deps.waitForProjections(position, [stream])));
  });
}

/** What one batch of synchronisation or organisation names: categories (and chosen tags) by id, countries and dimension tags by name. */
export interface BatchReferences {
  categoryIds?: Iterable<string>;
  /** tags an administrator chose by id (src/catalog/links/handle.ts) */
  tagIds?: Iterable<string>;
  countryNames?: Iterable<string>;
  /** [dimension, value]: the tag of that name in the dimension's group */
  tagValues?: Iterable<readonly [string, string]>;
}

/**
 * A batch waits this long for a delete holding one of its ids, rather than failing a run of many
 * batches: a delete holds its lock for its read-model waits (COMMAND_WAIT_MS each) and its append.
 */
const BATCH_LOCK_WAIT_MS = 5 * 60_000;

/**
 * Runs the append of a batch (src/sync/service.ts, src/catalog/organisation/run-context.ts) holding
 * shared the reference lock of every live id it names, taken at once in one call in a stable order
 * (src/platform/locks.ts: never some of them while waiting for the rest, so no deadlock). A delete
 * then either counts what the batch appends, or has removed the id before the batch's `write` reads
 * it: a category or a chosen tag is checked by `write` itself, and a country or tag name that no
 * longer names a live one names nothing (a value organisation derives gets a new tag,
 * src/catalog/links/dimension-tags.ts).
 */
export async function withBatchReferences<T>(pool: Pool, refs: BatchReferences, write: () => Promise<T>, lockWaitMs = BATCH_LOCK_WAIT_MS): Promise<T> {
  const byId = [...[...new Set(refs.categoryIds ?? [])].map((id) => referenceLock('category', id)), ...[...new Set(refs.tagIds ?? [])].map((id) => referenceLock('tag', id))];
  const countries = [...new Set(refs.countryNames ?? [])];
  const tags = [...new Map([...(refs.tagValues ?? [])].map(([d, v]) => [`${d}/${v}`, [d, v] as const])).values()];
  for (;;) {
    const named = await liveByName(pool, countries, tags);
    const done = await withSharedLocks(
      pool,
      [...byId, ...named],
      async () => {
        // A country or tag of one of these names that became live since the look-up is not locked: a
        // delete of it could miss this batch, so it is looked up and locked again.
        const now = await liveByName(pool, countries, tags);
        return now.every((k) => named.includes(k)) ? { value: await write() } : null;
      },
      lockWaitMs,
    );
    if (done) return done.value;
  }
}

/** The reference locks of the live countries and dimension tags of these names, in one query. */
async function liveByName(pool: Pool, countries: readonly string[], tags: readonly (readonly [string, string])[]): Promise<string[]> {
  if (countries.length === 0 && tags.length === 0) return [];
  const r = await pool.query<{ kind: 'country' | 'tag'; id: string }>(
    `SELECT 'country' AS kind, id::text FROM countries WHERE name = ANY($1::text[]) AND NOT removed
     UNION ALL
     SELECT 'tag', t.id::text FROM tags t JOIN tag_groups g ON g.id = t.group_id
      WHERE NOT t.deleted AND NOT g.deleted AND (g.dimension, t.name) IN (SELECT * FROM unnest($2::text[], $3::text[]))`,
    [countries, tags.map(([d]) => d), tags.map(([, v]) => v)],
  );
  return r.rows.map((row) => referenceLock(row.kind, row.id));
}
