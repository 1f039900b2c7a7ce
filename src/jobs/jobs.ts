/**
 * The long operations an administrator starts over HTTP: organisation, synchronisations and goods
 * batches. They run CPU-heavy stretches (planning, parsing, hashing, encoding thousands of events)
 * that would hold the event loop answering shoppers, so a serving process runs them in a thread of
 * its own (../jobs-thread.ts, started by ./client.ts); tests and the command line run them in process.
 * The routes take these functions, whichever side runs them.
 */
import type { Actor } from '../platform/commands';
import type { OrganiseReport } from '../catalog/organisation/organise';
import type { BatchAnswer } from '../contract/goods';
import type { BatchGoodsBody } from '../catalog/goods/requests';
import type { SyncParams } from '../sync/service';
import type { SyncKind, SyncRunView } from '../sync/runs';

export interface Jobs {
  /** organise (or only auto-group); `onRun` hears the id of the run's record once it is written */
  organise(by: string, opts?: { groupOnly?: boolean; onRun?: (runId: string) => void }): Promise<OrganiseReport>;
  /** starts a synchronisation: answers its run id at once, and when it has finished */
  startSync(kind: SyncKind, params: SyncParams): Promise<{ runId: string; finished: Promise<SyncRunView> }>;
  /** creates the goods of a batch request and waits until the read models show them */
  batchCreateGoods(body: BatchGoodsBody, actor: Actor): Promise<BatchAnswer>;
}
