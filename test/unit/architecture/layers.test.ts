/**
 * The layering rules of docs/architecture.md, held against the tree's own imports
 * (scripts/import-graph.ts; `npm run layers` prints the graph).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { importCycles, importEdges, layerOf, moduleOf, type ImportEdge } from '../../../scripts/import-graph';

const edges = importEdges(resolve(__dirname, '../../..'));
const internal = (e: ImportEdge) => /^(src|projections|web)(\/|$)/.test(e.to);
const show = (found: readonly ImportEdge[]) => found.map((e) => `${e.from} → ${e.to}`);

describe('the import graph', () => {
  it('is read from the tree (a broken reader would pass every rule below)', () => {
    expect(edges.length).toBeGreaterThan(500);
    expect(edges).toContainEqual({ from: 'src/services.ts', to: 'src/platform/db' });
    expect(edges.some((e) => e.from === 'projections/catalog.ts' && e.to.startsWith('src/catalog/'))).toBe(true);
  });

  it('has no import cycle, among modules (a slice, a file of src/) nor among layers', () => {
    expect(importCycles(edges, moduleOf)).toEqual([]);
    expect(importCycles(edges, layerOf)).toEqual([]);
  });

  it('finds a cycle when there is one (a broken finder would pass the rule above)', () => {
    const loop = [...edges, { from: 'src/platform/db.ts', to: 'src/catalog/goods/queries' }];
    const cycles = importCycles(loop, layerOf);
    expect(cycles.map((c) => c.nodes)).toContainEqual(expect.arrayContaining(['src/catalog', 'src/platform']));
    expect(cycles.flatMap((c) => c.via)).toContain('src/platform/db.ts → src/catalog/goods/queries');
  });

  it('platform imports nothing above it but the wire contract', () => {
    const up = edges.filter((e) => layerOf(e.from) === 'src/platform' && internal(e) && !['src/platform', 'src/contract'].includes(layerOf(e.to)));
    expect(show(up)).toEqual([]);
  });

  it('the wire contract imports nothing of ours: it is the bottom both the service and the browser apps stand on', () => {
    const from = edges.filter((e) => e.from.startsWith('src/contract/'));
    expect(from.some((e) => e.to === 'zod')).toBe(true);
    const found = from.filter((e) => internal(e) && !e.to.startsWith('src/contract/'));
    expect(show(found)).toEqual([]);
  });

  it('the catalog and the projections do not import the supplier synchronisation', () => {
    const found = edges.filter((e) => /^(src\/catalog|projections)\//.test(e.from) && e.to.startsWith('src/sync/'));
    expect(show(found)).toEqual([]);
  });

  it('nothing but a composition root imports a routes file or the composition (main, services, the HTTP app)', () => {
    const roots = ['src/main.ts', 'src/services.ts', 'src/http-app.ts', 'src/cli.ts', 'src/jobs-thread.ts', 'src/openapi.ts', 'src/catalog/admin-routes.ts', 'src/auth/module.ts'];
    const composition = ['src/main', 'src/services', 'src/http-app'];
    const found = edges.filter((e) => !roots.includes(e.from) && (/\/routes$/.test(e.to) || composition.includes(e.to)));
    expect(show(found)).toEqual([]);
  });

  it('pure files (decide, events, state, the domain rules) import neither express nor the database', () => {
    const pure = (f: string) => /\/(decide|events|state)\.ts$/.test(f) || f.startsWith('src/catalog/domain/');
    const found = edges.filter((e) => pure(e.from) && (/^(express|pg|pg-promise)$/.test(e.to) || /\/(db|sql|http)(\/|$)/.test(e.to)));
    expect(show(found)).toEqual([]);
  });

  it('the browser apps share code only through web/shared and the wire contract, and the server takes only that from web/', () => {
    const shared = (to: string) => to.startsWith('web/shared/') || to.startsWith('src/contract/');
    const found = edges.filter(
      (e) =>
        internal(e) &&
        ((/^web\/(admin|h5)\//.test(e.from) && !e.to.startsWith(layerOf(e.from)) && !shared(e.to)) ||
          (!e.from.startsWith('web/') && e.to.startsWith('web/') && !e.to.startsWith('web/shared/'))),
    );
    expect(show(found)).toEqual([]);
    expect(edges.some((e) => e.from.startsWith('web/admin/') && e.to.startsWith('src/contract/'))).toBe(true);
    expect(edges.some((e) => e.from.startsWith('web/h5/') && e.to.startsWith('src/contract/'))).toBe(true);
  });

  // Types only: the contract's zod schemas stay out of the browser bundles.
  it('the browser apps import the wire contract as types only', () => {
    const files = [...new Set(edges.filter((e) => e.from.startsWith('web/') && e.to.startsWith('src/contract/')).map((e) => e.from))];
    const valueImports = files.flatMap((f) =>
      [...readFileSync(resolve(__dirname, '../../..', f), 'utf8').matchAll(/^import\s+(?!type\s)[^;]*?from\s+'[^']*src\/contract\/[^']*';/gms)].map((m) => `${f}: ${m[0]}`),
    );
    expect(files.length).toBeGreaterThan(5);
    expect(valueImports).toEqual([]);
  });

  it('web/shared imports nothing of the apps nor of the server (the wire contract aside)', () => {
    const found = edges.filter((e) => e.from.startsWith('web/shared/') && internal(e) && !e.to.startsWith('web/shared/') && !e.to.startsWith('src/contract/'));
    expect(show(found)).toEqual([]);
  });

  // A page of either app imports no other page: what pages share is in the app's src/common.
  // Parts only one page uses sit beside it; no route names them.
  const apps: [string, string[]][] = [
    [
      'web/admin/src',
      [
        'web/admin/src/pages/good-fields',
        'web/admin/src/pages/link-detail',
        'web/admin/src/pages/family-matrix',
        'web/admin/src/pages/family-history',
        'web/admin/src/pages/good-history',
        'web/admin/src/pages/link-history',
        'web/admin/src/pages/batch-result',
        'web/admin/src/pages/batch-selection',
      ],
    ],
    ['web/h5/src', ['web/h5/src/pages/list-filters', 'web/h5/src/pages/detail-choice', 'web/h5/src/pages/detail-share', 'web/h5/src/pages/home-more']],
  ];
  it.each(apps)('a page of %s imports no other page: what pages share is in its common/', (app, parts) => {
    const pages = edges.filter((e) => e.from.startsWith(`${app}/pages/`));
    expect(pages.some((e) => e.to.startsWith(`${app}/common/`))).toBe(true);
    const found = pages.filter((e) => e.to.startsWith(`${app}/pages/`) && !parts.includes(e.to));
    expect(show(found)).toEqual([]);
  });
});
