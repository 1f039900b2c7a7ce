/**
 * An organisation's last step (docs/domain.md, Organisation): every family's aggregates recomputed.
 * The catalog projection already recomputed each family the run touched; this step checks every
 * family, touched or not, against a recompute of its rows as they are (the projection's own
 * computation, `staleFamilies`), so aggregates left wrong by anything (an older version's rules, a
 * row changed by hand) are put right. The read models are only ever written by the projection: a
 * family found stale gets a `FamilyRecomputed` event, which makes the projection compute it again.
 * A catalog whose aggregates are right gets no event at all.
 */
import type { Services } from '../../main';
import { type EventMetadata, type LogPosition, comparePositions } from '../../platform/event-store/port';
import { staleFamilies } from '../../../projections/catalog-recompute';
import { compareIds } from '../domain/matrix';
import { familyStreamId } from '../families/events';

/** Families checked per snapshot (and streams per multi-stream append). */
const CHUNK = 500;
/** Chunks checked at once. */
const CONCURRENCY = 2;

export interface FullRecompute {
  /** families checked */
  checked: number;
  /** families whose stored aggregates differed, by id, with the columns that did */
  repaired: { id: string; columns: string[] }[];
  /** the last append's position, when there was one: the caller waits for the projection to reach it */
  position: LogPosition | null;
}

/** The stale families of one chunk, read in one read-only snapshot. */
async function checkChunk(s: Services, ids: readonly string[]): Promise<{ id: string; columns: string[] }[]> {
  const client = await s.pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const stale = await staleFamilies(client, ids);
    await client.query('COMMIT');
    return stale;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}

/**
 * Checks every family in id order, a chunk per read-only snapshot: the projection writes a family's
 * inputs and its aggregates in one transaction, so within one snapshot a difference is real and not a
 * batch half seen. `beforeAppend` lets the caller stop first (organisation asserts its lock).
 */
export async function recomputeAllFamilies(
  s: Services,
  meta: EventMetadata,
  opts: { progress?: (done: number, total: number) => void; beforeAppend?: () => void } = {},
): Promise<FullRecompute> {
  const total = Number((await s.pool.query<{ n: string }>(`SELECT count(*) AS n FROM families`)).rows[0]!.n);
  const result: FullRecompute = { checked: 0, repaired: [], position: null };
  opts.progress?.(0, total);
  // The next chunk's ids, one read after the other (the chunks' checks overlap, their ranges do not).
  let after = '-1';
  let ids: Promise<string[]> = Promise.resolve([]);
  const nextIds = () =>
    (ids = ids.then(async () => {
      const page = (await s.pool.query<{ id: string }>(`SELECT id FROM families WHERE id > $1 ORDER BY id LIMIT $2`, [after, CHUNK])).rows.map((r) => r.id);
      if (page.length) after = page[page.length - 1]!;
      return page;
    }));
  // Two chunks at once: one is read by the database while the other is computed here.
  const worker = async () => {
    for (;;) {
      const chunk = await nextIds();
      if (chunk.length === 0) return;
      const stale = await checkChunk(s, chunk);
      if (stale.length) {
        opts.beforeAppend?.();
        // No expected revision: the event decides nothing from the family's state; it only has the
        // projection compute the family again from its rows as they are when it is applied, after
        // whatever was appended to the family meanwhile.
        const appended = await s.store.appendToStreams(
          stale.map((f) => ({
            streamId: familyStreamId(f.id),
            events: [s.catalogue.encode('FamilyRecomputed', { familyId: f.id, columns: f.columns }, meta)],
            expectedRevision: 'any' as const,
          })),
        );
        for (const a of appended) if (!result.position || comparePositions(a.position, result.position) > 0) result.position = a.position;
        result.repaired.push(...stale);
      }
      result.checked += chunk.length;
      opts.progress?.(result.checked, Math.max(total, result.checked));
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  // In id order whichever chunk finished first.
  result.repaired.sort((a, b) => compareIds(a.id, b.id));
  return result;
}
