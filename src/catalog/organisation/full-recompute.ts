/**
 * An organisation's last step (docs/domain.md, Organisation): every family's aggregates recomputed.
 * The catalog projection already recomputed each family the run touched; this step checks every
 * family, touched or not, against a recompute of its rows as they are (the projection's own
 * computation, `checkFamilies`), so aggregates left wrong by anything (an older version's rules, a
 * row changed by hand) are put right. A family whose stamp proves its aggregates were computed from
 * exactly its present inputs under the present rules is right without recomputing it (migration
 * 029). The read models are only ever written by the projection: a family found stale gets a
 * `FamilyRecomputed` event, which makes the projection compute it again; the check itself records
 * only the stamps of families it recomputed and found right. A catalog whose aggregates are right
 * gets no event at all.
 */
import type { AdminDeps } from '../admin-commands';
import { withTransaction } from '../../platform/db';
import { type EventMetadata, type LogPosition, comparePositions } from '../../platform/event-store/port';
import { checkFamilies, recordStamps, unprovenFamilies } from '../families/recompute';
import { familyStreamId } from '../families/events';

/** The family rows it checks, and the store it appends the repairs to. */
export type RecomputeDeps = Pick<AdminDeps, 'pool' | 'store' | 'registry'>;

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
 * Checks every family: one query finds those whose stamp does not hold, then those are recomputed
 * in id order, a chunk per read-only snapshot: the projection writes a family's inputs and its
 * aggregates in one transaction, so within one snapshot a difference is real and not a batch half
 * seen. `beforeAppend` lets the caller stop first (organisation asserts its lock).
 */
export async function recomputeAllFamilies(
  s: RecomputeDeps,
  meta: EventMetadata,
  opts: { progress?: (done: number, total: number) => void; beforeAppend?: () => void } = {},
): Promise<FullRecompute> {
  const total = Number((await s.pool.query<{ n: string }>(`SELECT count(*) AS n FROM families`)).rows[0]!.n);
  const result: FullRecompute = { checked: 0, repaired: [], position: null };
  opts.progress?.(0, total);
  const unproven = await unprovenFamilies(s.pool);
  result.checked = Math.max(0, total - unproven.length);
  opts.progress?.(result.checked, total);
  for (let i = 0; i < unproven.length; i += CHUNK) {
    const ids = unproven.slice(i, i + CHUNK);
    const { stale, verified } = await withTransaction(s.pool, (client) => checkFamilies(client, ids), 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await recordStamps(s.pool, verified);
    if (stale.length) {
      opts.beforeAppend?.();
      // No expected revision: the event decides nothing from the family's state; it only has the
      // projection compute the family again from its rows as they are when it is applied, after
      // whatever was appended to the family meanwhile.
      const appended = await s.store.appendToStreams(
        stale.map((f) => ({
          streamId: familyStreamId(f.id),
          events: [s.registry.encode('FamilyRecomputed', { familyId: f.id, columns: f.columns }, meta)],
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
