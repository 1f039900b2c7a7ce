/**
 * Orders ids as the server does (numerically): by length, then as strings. Ids have up to 19
 * digits, beyond what a JavaScript number holds exactly.
 */
export const compareIds = (a: string, b: string): number => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

/** Display order as the server lists it: sortOrder, then id. */
export const bySortOrder = (x: { id: string; sortOrder: number }, y: { id: string; sortOrder: number }): number => x.sortOrder - y.sortOrder || compareIds(x.id, y.id);

/** Categories in tree order (parents before their children, siblings by sortOrder then id), with their depth. */
export function treeOrder<C extends { id: string; parentId: string | null; sortOrder: number }>(items: readonly C[]): { c: C; depth: number }[] {
  const byParent = new Map<string, C[]>();
  for (const x of items) {
    const k = x.parentId ?? '';
    const xs = byParent.get(k);
    if (xs) xs.push(x);
    else byParent.set(k, [x]);
  }
  const out: { c: C; depth: number }[] = [];
  const seen = new Set<string>();
  const walk = (pid: string, depth: number) => {
    for (const x of [...(byParent.get(pid) ?? [])].sort(bySortOrder)) {
      if (seen.has(x.id)) continue;
      seen.add(x.id);
      out.push({ c: x, depth });
      walk(x.id, depth + 1);
    }
  };
  walk('', 0);
  // A child whose parent is gone (a half-synchronised tree) still shows, at the top level.
  for (const x of items) if (!seen.has(x.id)) out.push({ c: x, depth: 0 });
  return out;
}
