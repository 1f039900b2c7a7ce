/** The part of a requested partial update that differs from the current values. Pure. */
export function changedFields<T extends object>(current: T, requested: Partial<T>): Partial<T> {
  const out: Partial<T> = {};
  for (const key of Object.keys(requested) as (keyof T)[]) {
    const next = requested[key];
    if (next === undefined) continue;
    if (!sameValue(current[key], next)) out[key] = next;
  }
  return out;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  return a === b;
}
