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
import { withTransaction } from '../../platform/db';
import { type EventMetadata, type LogPosition, comparePositions } from '../../platform/event-store/port';
import { staleFamilies } from '../../../projections/catalog-recompute';
import { familyStreamId } from '../families/events';

/** Families checked per snapshot (and streams per multi-stream append). */
const CHUNK = 500;

export interface FullRecompute {
  /** families checked */
  checked: number;
  /** families whose stored aggregates differed, by id, with the columns that did */
  repaired: { id: string; columns: string[] }[];
  /** the last append's position, when there was one: the caller waits for the projection to reach it */
  position: LogPosition | null;
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
  for (let after = '-1'; ; ) {
    const { ids, stale } = await withTransaction(
      s.pool,
      async (client) => {
        const ids = (await client.query<{ id: string }>(`SELECT id FROM families WHERE id > $1 ORDER BY id LIMIT $2`, [after, CHUNK])).rows.map((r) => r.id);
        return { ids, stale: ids.length ? await staleFamilies(client, ids) : [] };
      },
      'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY',
    );
    if (ids.length === 0) break;
    after = ids[ids.length - 1]!;
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
    result.checked += ids.length;
    opts.progress?.(result.checked, Math.max(total, result.checked));
  }
  return result;
}
