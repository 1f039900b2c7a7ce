import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase, type TestDatabase } from '../../support/db';

const run = promisify(execFile);
const BIN = path.resolve(__dirname, '../../../bin/catalog.js');

async function catalog(args: string[], env: Record<string, string>) {
  try {
    // Production mode (the default) with a database of its own: the simulator must be asked for.
    const r = await run(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH!, LOG_LEVEL: 'warn', UPSTREAM_SIMULATOR: 'true', ...env }, timeout: 60_000 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

describe('the catalog command', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase({ migrated: false });
  });
  afterAll(async () => {
    await db.drop();
  });

  it('a bad configuration value stops it with a message naming the variable', async () => {
    const r = await catalog(['migrate'], { DATABASE_URL: db.url, PORT: 'eighty', PUBLIC_CACHE_TTL_MS: '-1' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/PORT/);
    expect(r.stderr).toMatch(/PUBLIC_CACHE_TTL_MS/);
  });

  it('migrate applies the schema, twice at once without trouble, then finds nothing to do', async () => {
    const [a, b] = await Promise.all([catalog(['migrate'], { DATABASE_URL: db.url }), catalog(['migrate'], { DATABASE_URL: db.url })]);
    expect([a.code, b.code]).toEqual([0, 0]);
    const applied = await db.pool.query(`SELECT count(*)::int AS n FROM pgmigrations`);
    expect(applied.rows[0].n).toBeGreaterThanOrEqual(5);
    expect((await catalog(['migrate'], { DATABASE_URL: db.url })).code).toBe(0);
  });

  it('in production, a command that talks to the supplier refuses to start without one (exit 2)', async () => {
    const r = await catalog(['sync', 'categories'], { DATABASE_URL: db.url, UPSTREAM_SIMULATOR: '' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/UPSTREAM_URL: required in production/);
  });

  it('projections status lists every projection with its position and lag', async () => {
    const r = await catalog(['projections', 'status', '--json'], { DATABASE_URL: db.url, SIMULATOR_LINKS: '50' });
    expect(r.code).toBe(0);
    const status = JSON.parse(r.stdout);
    expect(status.items.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['catalog_tree', 'catalog']));
    for (const p of status.items) expect(p).toMatchObject({ lagEvents: 0, lastError: null });
  });

  it('sync and events tail run against the same database', async () => {
    const sync = await catalog(['sync', 'categories'], { DATABASE_URL: db.url, SIMULATOR_LINKS: '50' });
    expect(sync.code).toBe(0);
    expect(sync.stdout).toMatch(/"state": "succeeded"/);
    const tail = await catalog(['events', 'tail', '--from-start', '--prefix', 'country-', '--limit', '2'], { DATABASE_URL: db.url, SIMULATOR_LINKS: '50' });
    expect(tail.code).toBe(0);
    const lines = tail.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ type: 'CountryMirrored', metadata: { why: 'SyncCategories' } });
  });
});
