#!/usr/bin/env node
/**
 * Builds the browser clients (`npm run build:web`) unless dist/web already holds a build of exactly
 * these sources: `npm start` runs it first (prestart), so a start with unchanged clients starts at
 * once instead of rebuilding both for a quarter of a minute.
 *
 * "Exactly these sources" is decided by content, not by file times (a checkout, a stash or a copy
 * leaves times that say nothing): a hash of every file under web/ (the proxy's configuration aside)
 * and src/contract/ (the answers' types the clients are type-checked against), the lockfile (the versions of Vite, React and the rest), the build script itself and the VITE_*
 * variables a build reads, kept in dist/web/.sources after a build that succeeded.
 *
 *   node scripts/build-clients.js            build when needed
 *   node scripts/build-clients.js --check    exit 1 when a build is needed, 0 when not; builds nothing
 *   node scripts/build-clients.js --force    build whatever the stamp says
 */
const { createHash } = require('node:crypto');
const { spawnSync } = require('node:child_process');
const { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const CLIENTS = ['admin', 'h5'];

/** Every file under `root`/`dir`, as paths relative to `root`, in a stable order. */
function filesUnder(root, dir) {
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(path.join(root, d), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const rel = path.join(d, e.name);
      if (e.isDirectory()) walk(rel);
      else if (e.isFile()) out.push(rel);
    }
  };
  walk(dir);
  return out;
}

/** What a build of the clients depends on, as one hash. `env`: the environment the build would see. */
function sourcesHash(root = ROOT, env = process.env) {
  const hash = createHash('sha256');
  const proxy = path.join('web', 'proxy') + path.sep;
  const files = [...filesUnder(root, 'web').filter((f) => !f.startsWith(proxy)), ...filesUnder(root, path.join('src', 'contract'))];
  for (const f of [...files, 'package-lock.json', path.join('scripts', 'build-clients.js')]) {
    const full = path.join(root, f);
    hash.update(`${f}\0`);
    hash.update(existsSync(full) ? readFileSync(full) : 'missing');
    hash.update('\0');
  }
  for (const k of Object.keys(env)
    .filter((k) => k.startsWith('VITE_'))
    .sort())
    hash.update(`${k}=${env[k]}\0`);
  return hash.digest('hex');
}

const stampFile = (root) => path.join(root, 'dist', 'web', '.sources');

/** Whether dist/web holds both clients, built from these sources with this environment. */
function upToDate(root = ROOT, env = process.env) {
  if (!CLIENTS.every((c) => existsSync(path.join(root, 'dist', 'web', c, 'index.html')))) return false;
  const stamp = stampFile(root);
  return existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === sourcesHash(root, env);
}

/** Records that dist/web now holds a build of these sources (after a build that succeeded). */
function writeStamp(root = ROOT, env = process.env) {
  writeFileSync(stampFile(root), sourcesHash(root, env) + '\n');
}

/** Forgets the stamp: a build is under way, and one cut short must not be taken for complete. */
function clearStamp(root = ROOT) {
  rmSync(stampFile(root), { force: true });
}

function main(argv) {
  const check = argv.includes('--check');
  const force = argv.includes('--force');
  if (!force && upToDate()) {
    process.stdout.write('browser clients up to date (dist/web); not rebuilt\n');
    return 0;
  }
  if (check) {
    process.stdout.write('browser clients need a build\n');
    return 1;
  }
  // The hash of the sources as they are now: a file edited while the build runs makes the next start build again.
  const hash = sourcesHash();
  clearStamp();
  const npm = process.env.npm_execpath;
  const build = npm
    ? spawnSync(process.execPath, [npm, 'run', 'build:web'], { cwd: ROOT, stdio: 'inherit' })
    : spawnSync('npm', ['run', 'build:web'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) return build.status ?? 1;
  writeFileSync(stampFile(ROOT), hash + '\n');
  return 0;
}

module.exports = { sourcesHash, upToDate, writeStamp, clearStamp };

if (require.main === module) process.exitCode = main(process.argv.slice(2));
