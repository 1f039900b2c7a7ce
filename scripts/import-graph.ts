/**
 * The import graph of the source tree, read from the files' own import statements (TypeScript's
 * pre-processor: no type checking, no build). `npm run layers` prints which module imports which;
 * test/unit/architecture/layers.test.ts holds the layering rules of docs/architecture.md against it.
 *
 * A module is a folder one level under its layer (`src/catalog/goods`, `src/platform/events`), or a
 * file standing directly in a layer (`src/main.ts`); a layer is `src/<folder>`, `projections` or
 * `web/<app>`.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const ROOTS = ['src', 'projections', 'web'];
const SOURCE = /\.(ts|tsx)$/;

export interface ImportEdge {
  /** importing file, relative to the repository, with forward slashes */
  from: string;
  /** imported file (resolved, without extension) or the package name */
  to: string;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'node_modules' && name !== 'dist') out.push(...sourceFiles(path));
    } else if (SOURCE.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

const posix = (p: string) => p.split(sep).join('/');

/** Every import of every source file under src/, projections/ and web/. */
export function importEdges(repo: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const root of ROOTS) {
    for (const file of sourceFiles(join(repo, root))) {
      const text = readFileSync(file, 'utf8');
      const from = posix(relative(repo, file));
      for (const ref of ts.preProcessFile(text, true, true).importedFiles) {
        const spec = ref.fileName;
        const to = spec.startsWith('.') ? posix(relative(repo, resolve(dirname(file), spec))).replace(/\.(js|ts|tsx)$/, '') : spec;
        edges.push({ from, to });
      }
    }
  }
  return edges;
}

/**
 * The import cycles among the nodes `group` maps files to (modules, layers): each strongly connected
 * set of more than one node, its members sorted, with one import of each edge between them as the
 * example a reader can follow. Only the project's own nodes count (packages cannot import back).
 */
export function importCycles(edges: readonly ImportEdge[], group: (path: string) => string): { nodes: string[]; via: string[] }[] {
  const own = (p: string) => ROOTS.includes(p.split('/')[0]!);
  const next = new Map<string, Set<string>>();
  const example = new Map<string, string>();
  for (const e of edges) {
    const a = group(e.from);
    const b = group(e.to);
    if (a === b || !own(e.to)) continue;
    (next.get(a) ?? next.set(a, new Set()).get(a)!).add(b);
    if (!example.has(`${a} ${b}`)) example.set(`${a} ${b}`, `${e.from} → ${e.to}`);
  }
  // Tarjan's strongly connected components.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: { nodes: string[]; via: string[] }[] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const members: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      onStack.delete(w);
      members.push(w);
      if (w === v) break;
    }
    if (members.length < 2) return;
    const set = new Set(members);
    const via = members.flatMap((a) => [...(next.get(a) ?? [])].filter((b) => set.has(b)).map((b) => example.get(`${a} ${b}`)!));
    found.push({ nodes: members.sort(), via: via.sort() });
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** `src/catalog/goods/routes.ts` → `src/catalog/goods`; `src/main.ts` → `src/main`; a package stays itself. */
export function moduleOf(path: string): string {
  const parts = path.replace(/\.(ts|tsx)$/, '').split('/');
  if (!ROOTS.includes(parts[0]!)) return path;
  if (parts[0] === 'projections') return parts.length > 2 ? parts.slice(0, 2).join('/') : 'projections';
  return parts.slice(0, Math.min(parts.length, 3)).join('/');
}

/** `src/catalog/goods` → `src/catalog`; `projections/x` → `projections`; a package stays itself. */
export function layerOf(path: string): string {
  const parts = path.split('/');
  if (parts[0] === 'projections') return 'projections';
  if (!ROOTS.includes(parts[0]!)) return path;
  return parts.length > 2 ? parts.slice(0, 2).join('/') : parts.join('/').replace(/\.(ts|tsx)$/, '');
}

/** From → the sorted set of what it imports (internal only), grouped by `group`. */
export function graph(edges: readonly ImportEdge[], group: (path: string) => string): Map<string, string[]> {
  const out = new Map<string, Set<string>>();
  for (const e of edges) {
    if (!ROOTS.some((r) => e.to.startsWith(`${r}/`) || e.to === r)) continue;
    const from = group(e.from);
    const to = group(e.to);
    if (from === to) continue;
    const set = out.get(from) ?? new Set<string>();
    set.add(to);
    out.set(from, set);
  }
  return new Map([...out].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, [...v].sort()]));
}

if (resolve(process.argv[1] ?? '') === __filename) {
  const repo = resolve(__dirname, '..');
  const byModule = process.argv.includes('--modules');
  const edges = importEdges(repo);
  const group = byModule ? moduleOf : layerOf;
  const lines = [...graph(edges, group)].map(([from, tos]) => `${from} → ${tos.join(', ')}`);
  const cycles = importCycles(edges, group).map((c) => `cycle: ${c.nodes.join(' ↔ ')}\n  ${c.via.join('\n  ')}`);
  process.stdout.write(`${[...lines, '', ...(cycles.length ? cycles : ['no import cycles'])].join('\n')}\n`);
}
