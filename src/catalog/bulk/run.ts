/**
 * Running a bulk change (docs/api.md, Bulk changes): each item of the selection, one at a time, by
 * its own ordinary command; an item its command refuses is skipped with the command's code and
 * message, and the others go on. Items do not wait for the read models one by one: the run waits
 * once, for its last append, before it says it has succeeded. A small selection is answered when
 * done; a large one is answered at once with its run, whose progress GET /bulk-runs/:runId reads.
 */
import type { Actor } from '../../platform/commands';
import { AppError } from '../../platform/errors';
import type { LogPosition } from '../../platform/event-store/port';
import type { AdminDeps } from '../admin-commands';
import type { BulkRun, BulkTarget } from '../../contract/bulk';
import { laterOf, type ItemDone } from './actions';
import { BulkRunRecord, readBulkRun } from './runs';

/** Selections up to this many items are answered when done (200); larger ones at once (202). */
export const INLINE_ITEMS = 50;

export interface BulkJob {
  target: BulkTarget;
  /** what the run records as its action */
  action: object;
  ids: readonly string[];
  apply: (id: string) => Promise<ItemDone>;
  /** the read models the items change, waited for once at the end (`good-0`, …) */
  waitFor: readonly string[];
  /** after every item (a replacement's delete); its refusal fails the run */
  last?: () => Promise<void>;
}

/** Starts the run; `finished` settles with the run as recorded at its end (rejects only when that record cannot be read). */
export async function startBulk(deps: AdminDeps, actor: Actor, job: BulkJob): Promise<{ runId: string; inline: boolean; finished: Promise<BulkRun> }> {
  const record = await BulkRunRecord.open(deps.pool, job.target, job.action, actor.by, job.ids.length);
  // What went wrong is recorded in the run (go); the run's row is then what there is to answer.
  const finished = go(deps, record, job)
    .catch(() => undefined)
    .then(() => readBulkRun(deps.pool, record.id));
  return { runId: record.id, inline: job.ids.length <= INLINE_ITEMS, finished };
}

async function go(deps: AdminDeps, record: BulkRunRecord, job: BulkJob): Promise<void> {
  let last: LogPosition | null = null;
  try {
    for (const [index, id] of job.ids.entries()) {
      try {
        const r = await job.apply(id);
        last = laterOf(last, r.position);
        record.results.push({ index, id, outcome: 'done', changed: r.changed });
      } catch (e) {
        if (!(e instanceof AppError) || e.status >= 500) throw e;
        record.results.push({ index, id, outcome: 'skipped', code: e.code, message: e.message });
      }
    }
    if (last) while (!(await deps.waitForProjections(last, job.waitFor)));
    await job.last?.();
    await record.finish(null);
  } catch (e) {
    // A refusal (the replaced resource's delete) or a dependency away (503) says its code; anything else is INTERNAL.
    const error = e instanceof AppError ? { code: e.code, message: e.message } : { code: 'INTERNAL', message: 'internal error' };
    await record.finish(error).catch(() => undefined);
    if (!(e instanceof AppError)) throw e;
  }
}
