/**
 * What an organisation run answers and records (docs/api.md, OrganiseReport and OrganiseRun): its
 * report, its progress, and where runs are recorded as they go (./runs.ts).
 */
import type { Dimension } from '../domain/tags';
import type { OrganiseKind, OrganiseProgress, OrganiseReport as SharedOrganiseReport } from '../../contract/organise';

// What the status and runs endpoints answer, declared once for the service and the admin client.
export type OrganiseReport = SharedOrganiseReport<Dimension>;
export type { OrganiseKind, OrganiseProgress };

export const emptyReport = (): OrganiseReport => ({
  parsed: 0,
  derived: 0,
  attached: 0,
  created: 0,
  merged: 0,
  unchanged: 0,
  repaired: 0,
  unparseable: [],
  incomplete: [],
  lockedSkipped: [],
  review: [],
});

/** Where runs are recorded as they go (./runs.ts keeps them in the database, for every process to read). */
export interface OrganiseRunRecorder {
  /** A run starts, under the organisation lock; `read` says where it is at any time. */
  open(kind: OrganiseKind, by: string, read: () => { progress: OrganiseProgress; report: OrganiseReport | null }): Promise<RecordedRun>;
}

export interface RecordedRun {
  readonly id: string;
  /** Records how the run ended (as `read` says); called before the lock is let go. */
  finish(): Promise<void>;
}
