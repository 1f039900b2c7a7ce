/** Whether a client's "full new order" is exactly a reordering of what exists, and the decision on it. Pure. */
import type { AnyEvent } from './events/registry';
import { AppError, type ErrorCode } from './errors';

export interface PermutationProblems {
  /** existing ids the order leaves out */
  missing: string[];
  /** ids in the order that do not exist (or are deleted) */
  unknown: string[];
  /** ids given more than once */
  duplicated: string[];
}

/** null when `given` is a permutation of `existing`; otherwise what is wrong with it. */
export function permutationProblems(existing: readonly string[], given: readonly string[]): PermutationProblems | null {
  const known = new Set(existing);
  const seen = new Set<string>();
  const duplicated = new Set<string>();
  const unknown = new Set<string>();
  for (const id of given) {
    if (seen.has(id)) duplicated.add(id);
    seen.add(id);
    if (!known.has(id)) unknown.add(id);
  }
  const missing = existing.filter((id) => !seen.has(id));
  if (missing.length === 0 && unknown.size === 0 && duplicated.size === 0) return null;
  return { missing, unknown: [...unknown], duplicated: [...duplicated] };
}

export const sameOrder = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The decision on a full new order: `requested` must name every id of `current` (the live members
 * in their present order) exactly once, else 400 `rejection.code` listing what is wrong; the order
 * they already have appends nothing; otherwise one event, `reordered(requested)`, of the caller's type.
 */
export function decideReorder<E extends AnyEvent>(
  current: readonly string[],
  requested: readonly string[],
  rejection: { code: ErrorCode; message: string },
  reordered: (ids: string[]) => E,
): E[] {
  const problems = permutationProblems(current, requested);
  if (problems) throw AppError.badRequest(rejection.code, rejection.message, problems);
  if (sameOrder(current, requested)) return [];
  return [reordered([...requested])];
}
