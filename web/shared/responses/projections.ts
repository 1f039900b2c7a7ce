/**
 * The projections as operators see them (docs/api.md, Shapes: Projections). The service keeps its own
 * status type: src/platform imports nothing above it (docs/architecture.md).
 */

export type ProjectionState = 'running' | 'rebuilding' | 'stopped' | 'failed';

export interface ProjectionView {
  name: string;
  state: ProjectionState;
  position: string;
  eventsApplied: number;
  /** events after its position for it: exact up to 10 000, an estimate beyond (`lagApproximate`) */
  lagEvents: number;
  lagApproximate: boolean;
  lagSeconds: number;
  /** the live projection's poison event, else the one that ended the last rebuild */
  lastError: Record<string, unknown> | null;
  /** the poison event that ended the last rebuild (the live projection ran on) */
  rebuildError: Record<string, unknown> | null;
  /** a failure being retried with back-off right now: {code, message, attempts, since} */
  retrying: Record<string, unknown> | null;
  lastRebuildAt: string | null;
  rebuild: { eventsDone: number; startedAt: string } | null;
}
