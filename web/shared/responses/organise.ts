/** Organisation runs as the admin API answers them (docs/api.md, OrganiseRun). */

export type OrganiseKind = 'organise' | 'auto_group';

/**
 * What a finished run reports. `D` names the dimensions a link can miss: the server's own
 * dimension type, a plain string to the clients.
 */
export interface OrganiseReport<D extends string = string> {
  parsed: number;
  derived: number;
  attached: number;
  created: number;
  merged: number;
  unchanged: number;
  /** families whose stored aggregates the closing full recompute found wrong (and had recomputed) */
  repaired: number;
  /** `problem`: which part of the name could not be read (src/catalog/domain/names.ts, LinkNameProblem); absent in runs recorded before it was reported */
  unparseable: { id: string; name: string; problem?: LinkNameProblem }[];
  incomplete: { id: string; name: string; missing: D[] }[];
  lockedSkipped: { id: string; familyId: string }[];
  /** families (and links) for an administrator to look at; docs/api.md, OrganiseReport */
  review: ReviewEntry[];
}

/** Why a link's name could not be read: the part, the rule it broke, and the text where reading stopped. */
export interface LinkNameProblem {
  part: 'country' | 'logistics' | 'productName' | 'sku';
  reason: string;
  text?: string;
}

/**
 * A family left for manual review (`LOCKED`, `MANUAL`, `HAS_GOODS`, `HAS_OVERRIDES`, `CHANGED`), or a
 * link organisation left alone because its family changed after the run read it
 * (`MEMBERSHIP_CHANGED`; `familyId`: where it is now, null for none): organisation never overrides
 * an administrator's move.
 */
export type ReviewEntry = { familyId: string; reason: string } | { linkId: string; familyId: string | null; reason: 'MEMBERSHIP_CHANGED' };

export interface OrganiseProgress {
  state: 'idle' | 'running' | 'succeeded' | 'failed';
  phase: 'parse' | 'group' | 'consolidate' | 'recompute' | null;
  done: number;
  total: number;
  startedAt: string | null;
  finishedAt: string | null;
  error: string | null;
}

export type OrganiseRunState = 'running' | 'succeeded' | 'failed';

/** The report's numbers, and the sizes of its lists. */
export type OrganiseCounts = { [K in keyof OrganiseReport]: number };

export interface OrganiseRunView {
  runId: string;
  kind: OrganiseKind;
  state: OrganiseRunState;
  phase: OrganiseProgress['phase'];
  done: number;
  total: number;
  startedBy: string;
  startedAt: string;
  finishedAt: string | null;
  error: string | null;
  counts: Partial<OrganiseCounts>;
}

/** GET /product-families/organize/status: the running or else the latest run; `idle` before the first. */
export type OrganiseStatus = OrganiseRunView | (Omit<OrganiseProgress, 'state'> & { state: 'idle'; runId: null });
