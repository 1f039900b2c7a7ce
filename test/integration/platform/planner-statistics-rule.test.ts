/**
 * The rule by which a bulk step refreshes the planner's statistics (src/platform/planner-statistics.ts),
 * on a real server: a table changed past autovacuum's threshold is analysed; one of many steps in a
 * row (`repeated`) leaves a table analysed within autovacuum_naptime alone unless more rows changed
 * since than its statistics describe; a table of another schema is named by it.
 */
import pg from 'pg';
import { refreshPlannerStatistics } from '../../../src/platform/planner-statistics';
import { createTestDatabase, type TestDatabase } from '../../support/db';

let db: TestDatabase;
let c: pg.Client;

beforeAll(async () => {
  db = await createTestDatabase({ migrated: false });
  c = new pg.Client({ connectionString: db.url });
  await c.connect();
  await c.query(`CREATE SCHEMA shadow; CREATE TABLE shadow.t (id int PRIMARY KEY, v text)`);
});
afterAll(async () => {
  await c?.end();
  await db?.drop();
});

const insert = (from: number, n: number) => c.query(`INSERT INTO shadow.t SELECT g, 'x' FROM generate_series($1::int, $2::int) g`, [from, from + n - 1]);
/** Refreshes shadow.t as a bulk step would (`repeated`: one of many in a row), on the connection that wrote (its counts flushed first); answers what it did. */
const refresh = async (repeated: boolean) => (await refreshPlannerStatistics(c, ['t'], { schema: 'shadow', ownWrites: true, repeated })).map((r) => `${r.table} ${r.action}`);

it('analyses past the threshold; a repeated step skips a table analysed within the naptime unless more rows changed than its statistics describe', async () => {
  await insert(1, 1000);
  expect(await refresh(true)).toEqual(['shadow.t analyze']);
  // 300 rows more: past the threshold (50 + 10 % of 1 000), but the table was analysed a moment ago.
  await insert(1001, 300);
  expect(await refresh(true)).toEqual([]);
  // A single bulk step is not held back by the naptime.
  expect(await refresh(false)).toEqual(['shadow.t analyze']);
  // More rows changed than the statistics describe (1 300): analysed again at once.
  await insert(1301, 2000);
  expect(await refresh(true)).toEqual(['shadow.t analyze']);
  // Nothing changed since: nothing to do.
  expect(await refresh(false)).toEqual([]);
});

it('a table another session holds for its own ANALYZE or VACUUM is passed over, not waited for', async () => {
  await insert(5001, 2000);
  const other = new pg.Client({ connectionString: db.url });
  await other.connect();
  try {
    // The lock ANALYZE and VACUUM take; autovacuum's (or an anti-wraparound) vacuum would hold it.
    await other.query(`BEGIN; LOCK TABLE shadow.t IN SHARE UPDATE EXCLUSIVE MODE`);
    // Waiting for the lock would keep this from settling until the other session ends, which it
    // does only after: the refresh has to come back while the lock is held.
    await refresh(false);
    await other.query('ROLLBACK');
  } finally {
    await other.end();
  }
  // Once the lock is gone the table is refreshed as usual.
  expect(await refresh(false)).toEqual(['shadow.t analyze']);
});
