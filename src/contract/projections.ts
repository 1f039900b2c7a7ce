/** The projections as operators see them (docs/api.md, Shapes: Projections). */
import { z } from 'zod';

export const projectionState = z.enum(['running', 'rebuilding', 'stopped', 'failed']);
export type ProjectionState = z.infer<typeof projectionState>;

const detail = z.record(z.string(), z.unknown());

export const projectionView = z
  .object({
    name: z.string(),
    state: projectionState,
    position: z.string(),
    eventsApplied: z.number().int(),
    /** events after its position for it: exact up to 10 000, an estimate beyond (`lagApproximate`) */
    lagEvents: z.number().int(),
    lagApproximate: z.boolean(),
    lagSeconds: z.number(),
    /** the live projection's poison event, else the one that ended the last rebuild */
    lastError: detail.nullable(),
    /** the poison event that ended the last rebuild (the live projection ran on) */
    rebuildError: detail.nullable(),
    /** a failure being retried with back-off right now: {code, message, attempts, since} */
    retrying: detail.nullable(),
    lastRebuildAt: z.string().nullable(),
    rebuild: z.object({ eventsDone: z.number().int(), startedAt: z.string() }).nullable(),
  })
  .meta({ id: 'Projection' });
export type ProjectionView = z.infer<typeof projectionView>;
