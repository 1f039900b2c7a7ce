/** Organisation runs as the admin API answers them (docs/api.md, OrganiseRun). */
import { z } from 'zod';

export const organiseKind = z.enum(['organise', 'auto_group']);
export type OrganiseKind = z.infer<typeof organiseKind>;

/** Why a link's name could not be read: the part, the rule it broke, and the text where reading stopped. */
export const linkNameProblem = z
  .object({ part: z.enum(['country', 'logistics', 'productName', 'sku']), reason: z.string(), text: z.string().optional() })
  .meta({ id: 'LinkNameProblem' });
export type LinkNameProblem = z.infer<typeof linkNameProblem>;

/**
 * A family left for manual review (`LOCKED`, `MANUAL`, `HAS_GOODS`, `HAS_OVERRIDES`, `CHANGED`), or a
 * link organisation left alone because its family changed after the run read it
 * (`MEMBERSHIP_CHANGED`; `familyId`: where it is now, null for none): organisation never overrides
 * an administrator's move.
 */
export const reviewEntry = z.union([
  z.object({ familyId: z.string(), reason: z.string() }),
  z.object({ linkId: z.string(), familyId: z.string().nullable(), reason: z.literal('MEMBERSHIP_CHANGED') }),
]);
export type ReviewEntry = z.infer<typeof reviewEntry>;

const count = z.number().int().min(0);

/** What a finished run reports. */
export const organiseReport = z
  .object({
    parsed: count,
    derived: count,
    attached: count,
    created: count,
    merged: count,
    unchanged: count,
    /** families whose stored aggregates the closing full recompute found wrong (and had recomputed) */
    repaired: count,
    /** `problem`: which part of the name could not be read; absent in runs recorded before it was reported */
    unparseable: z.array(z.object({ id: z.string(), name: z.string(), problem: linkNameProblem.optional() })),
    incomplete: z.array(z.object({ id: z.string(), name: z.string(), missing: z.array(z.string()) })),
    lockedSkipped: z.array(z.object({ id: z.string(), familyId: z.string() })),
    /** families (and links) for an administrator to look at; docs/api.md, OrganiseReport */
    review: z.array(reviewEntry),
  })
  .meta({ id: 'OrganiseReport' });

/**
 * What a finished run reports. `D` names the dimensions a link can miss: the server's own
 * dimension type, a plain string to the clients.
 */
export type OrganiseReport<D extends string = string> = Omit<z.infer<typeof organiseReport>, 'incomplete'> & {
  incomplete: { id: string; name: string; missing: D[] }[];
};

export const organisePhase = z.enum(['parse', 'group', 'consolidate', 'recompute']).nullable();

export const organiseProgress = z.object({
  state: z.enum(['idle', 'running', 'succeeded', 'failed']),
  phase: organisePhase,
  done: count,
  total: count,
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  error: z.string().nullable(),
});
export type OrganiseProgress = z.infer<typeof organiseProgress>;

export const organiseRunState = z.enum(['running', 'succeeded', 'failed']);
export type OrganiseRunState = z.infer<typeof organiseRunState>;

/** The report's numbers, and the sizes of its lists. */
export type OrganiseCounts = { [K in keyof OrganiseReport]: number };
const organiseCounts = z.object(
  Object.fromEntries(Object.keys(organiseReport.shape).map((k) => [k, count.optional()])) as Record<keyof OrganiseReport, z.ZodOptional<typeof count>>,
);

export const organiseRunView = z
  .object({
    runId: z.string(),
    kind: organiseKind,
    state: organiseRunState,
    phase: organisePhase,
    done: count,
    total: count,
    startedBy: z.string(),
    startedAt: z.string(),
    finishedAt: z.string().nullable(),
    error: z.string().nullable(),
    counts: organiseCounts,
  })
  .meta({ id: 'OrganiseRun' });
export type OrganiseRunView = z.infer<typeof organiseRunView>;

/** GET /product-families/organize/status: the running or else the latest run; `idle` before the first. */
export const organiseStatus = z.union([organiseRunView, organiseProgress.omit({ state: true }).extend({ state: z.literal('idle'), runId: z.null() })]);
export type OrganiseStatus = z.infer<typeof organiseStatus>;

/** POST /product-families/organize and /auto-group: the report, and the id of the run's record. */
export const organiseAnswer = organiseReport.extend({ runId: z.string().nullable() });

/** GET /product-families/organize/runs/:runId: the run with its report (null until it has succeeded). */
export const organiseRunWithReport = organiseRunView.extend({ report: organiseReport.nullable() });
