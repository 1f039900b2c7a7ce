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

/** Who holds the read fence back (docs/deployment.md): a backend, or a prepared transaction (`pid` null). */
export const fenceView = z.object({
  heldBackEvents: z.number().int(),
  /** how long the oldest held-back event has waited */
  heldBackSeconds: z.number(),
  holder: z
    .object({
      pid: z.number().int().nullable(),
      state: z.string(),
      ageSeconds: z.number(),
      applicationName: z.string().nullable(),
      database: z.string().nullable(),
      preparedGid: z.string().optional(),
    })
    .nullable(),
});
export type FenceView = z.infer<typeof fenceView>;

/** GET /projections: each projection, and the read fence (null: the event store has none). */
export const projectionList = z.object({ fence: fenceView.nullable(), items: z.array(projectionView) });

/** POST /projections/:name/rebuild */
export const rebuildAnswer = z.object({ name: z.string(), state: z.literal('rebuilding') });

/** POST /projections/:name/retry: whether it was failed, and so retried. */
export const retryAnswer = z.object({ name: z.string(), retried: z.boolean() });
