/**
 * `npm start` builds the browser clients only when they changed (prestart: scripts/build-clients.js).
 * Run on a copy of the tree (its own dist/web: the other test files serve this tree's build), the
 * script builds once, then skips while the sources are the same, by content: an edit asks for a build,
 * and the same edit undone (a newer file time, the same bytes) does not; nor does a build read
 * another VITE_* variable or survive a missing client. What it builds is a production build whatever
 * NODE_ENV the environment has.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

jest.setTimeout(300_000);

const ROOT = path.resolve(__dirname, '../../..');
let tree: string;

const run = (args: string[] = [], env: Record<string, string> = {}) => {
  // Neither npm's variables nor the shell's VITE_* reach it: the copy decides, as npm start would.
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('npm_') && !k.startsWith('VITE_')));
  const r = spawnSync(process.execPath, ['scripts/build-clients.js', ...args], { cwd: tree, env: { ...base, ...env }, encoding: 'utf8', timeout: 240_000 });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
};

beforeAll(() => {
  tree = mkdtempSync(path.join(tmpdir(), 'catalog-clients-'));
  cpSync(path.join(ROOT, 'web'), path.join(tree, 'web'), { recursive: true });
  // The clients are type-checked against the wire contract's types.
  cpSync(path.join(ROOT, 'src/contract'), path.join(tree, 'src/contract'), { recursive: true });
  for (const f of ['package.json', 'package-lock.json']) cpSync(path.join(ROOT, f), path.join(tree, f));
  mkdirSync(path.join(tree, 'scripts'));
  cpSync(path.join(ROOT, 'scripts/build-clients.js'), path.join(tree, 'scripts/build-clients.js'));
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(tree, 'node_modules'));
});

afterAll(() => {
  if (tree) rmSync(tree, { recursive: true, force: true });
});

describe('the clients build before npm start', () => {
  it('is what prestart runs', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.prestart).toBe('node scripts/build-clients.js');
    expect(pkg.scripts['build:web']).toMatch(/vite build --config web\/admin\/vite\.config\.mts && vite build --config web\/h5\/vite\.config\.mts/);
  });

  it('builds both clients when there is no build, then not again while their sources are the same', () => {
    expect(run(['--check']).code).toBe(1);
    const first = run();
    expect(first.code).toBe(0);
    expect(first.out).not.toMatch(/up to date/);
    const page = path.join(tree, 'dist/web/admin/index.html');
    for (const client of ['admin', 'h5']) expect(existsSync(path.join(tree, 'dist/web', client, 'index.html'))).toBe(true);
    const built = statSync(page).mtimeMs;
    // Production bundles, though NODE_ENV says otherwise (jest's test here; a developer's development):
    // no JSX compiled for React's development build, which would come along at twice the size.
    expect(process.env.NODE_ENV).toBe('test');
    for (const client of ['admin', 'h5']) {
      const assets = path.join(tree, 'dist/web', client, 'assets');
      const scripts = readdirSync(assets).filter((f) => f.endsWith('.js'));
      expect(scripts.length).toBeGreaterThan(0);
      for (const f of scripts) expect(readFileSync(path.join(assets, f), 'utf8')).not.toMatch(/jsxDEV|isReactWarning/);
    }

    const second = run();
    expect(second).toEqual({ code: 0, out: 'browser clients up to date (dist/web); not rebuilt\n' });
    expect(statSync(page).mtimeMs).toBe(built);
    expect(run(['--check']).code).toBe(0);
  });

  it('asks for a build when a source changes, and not when the change is undone (contents, not file times)', () => {
    const css = path.join(tree, 'web/h5/src/style.css');
    const before = readFileSync(css);
    appendFileSync(css, '\n/* a change */\n');
    expect(run(['--check']).code).toBe(1);
    writeFileSync(css, before);
    expect(run(['--check']).code).toBe(0);
    // a new file counts too
    const extra = path.join(tree, 'web/admin/src/extra.ts');
    writeFileSync(extra, 'export const x = 1;\n');
    expect(run(['--check']).code).toBe(1);
    rmSync(extra);
    expect(run(['--check']).code).toBe(0);
    // and so does the wire contract the clients are type-checked against
    const contract = path.join(tree, 'src/contract/page.ts');
    const was = readFileSync(contract);
    appendFileSync(contract, '\n// a change\n');
    expect(run(['--check']).code).toBe(1);
    writeFileSync(contract, was);
    expect(run(['--check']).code).toBe(0);
  });

  it('asks for a build for another VITE_* setting, a changed lockfile, or a client missing from dist/web', () => {
    expect(run(['--check'], { VITE_API_BASE: '/api' }).code).toBe(1);
    const lock = path.join(tree, 'package-lock.json');
    const before = readFileSync(lock);
    appendFileSync(lock, '\n');
    expect(run(['--check']).code).toBe(1);
    writeFileSync(lock, before);
    expect(run(['--check']).code).toBe(0);
    rmSync(path.join(tree, 'dist/web/h5/index.html'));
    expect(run(['--check']).code).toBe(1);
  });
});
