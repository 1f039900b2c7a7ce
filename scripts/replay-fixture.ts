/**
 * The replay fixture (docs/architecture.md, Replaying an old log): test/fixtures/replay/.
 *
 *   npm run replay-fixture            a new log: today's service, driven over HTTP against the
 *                                     supplier simulator, writes a small catalogue's history; its
 *                                     log and the read models it gave are written to the fixture
 *   npm run replay-fixture -- --tables-only
 *                                     the log kept as it is: replayed with today's code, and only
 *                                     the read models' dump written again (after a change that
 *                                     means the same log gives other rows: review the diff)
 *
 * Needs DATABASE_URL (a server where it may create and drop a scratch database).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { Command } from 'commander';
import pg from 'pg';
import { createPool } from '../src/platform/db';
import { migrate } from '../src/platform/migrate';
import { loadConfig } from '../src/config';
import { startSimulator } from '../src/sync/simulator';
import { databaseUrl, type TestDatabase } from '../test/support/db';
import { startTestService } from '../test/support/service';
import {
  EVENTS_FILE,
  FIXTURE_DIR,
  FIXTURE_PICTURES,
  TABLES_FILE,
  dumpEventLog,
  dumpReadModels,
  loadEventLog,
  readEventsFile,
  replayEnv,
  replayFixture,
  writeEventsFile,
  writeFixtureHistory,
  writeTablesFile,
} from '../test/support/replay-fixture';

const program = new Command()
  .name('replay-fixture')
  .option('--tables-only', 'keep the log; replay it with this code and write the read models again')
  .option('--links <n>', 'links of the simulated supplier (a new log only)', '60')
  .option('--seed <n>', "the simulator's catalogue seed (a new log only)", '7')
  .parse();
const opts = program.opts<{ tablesOnly?: boolean; links: string; seed: string }>();

async function scratchDatabase(): Promise<TestDatabase> {
  const admin = loadConfig(process.env).databaseUrl;
  process.env.TEST_PG_ADMIN_URL = admin;
  const name = `catalog_fixture_${randomBytes(4).toString('hex')}`;
  const run = async (sql: string) => {
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await run(`CREATE DATABASE ${name}`);
  const url = databaseUrl(name);
  await migrate({ databaseUrl: url });
  const pool = createPool(url, 5, 'catalog-fixture');
  return {
    url,
    name,
    pool,
    async drop() {
      await pool.end();
      await run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

async function main(): Promise<void> {
  mkdirSync(FIXTURE_DIR, { recursive: true });
  const db = await scratchDatabase();
  try {
    if (opts.tablesOnly) {
      await loadEventLog(db.pool, readEventsFile());
      await replayFixture(db);
    } else {
      const sim = await startSimulator({ links: Number(opts.links), seed: Number(opts.seed), pictures: FIXTURE_PICTURES });
      try {
        const svc = await startTestService({ db, env: replayEnv(sim.url) });
        try {
          await writeFixtureHistory(svc, sim);
        } finally {
          await svc.close();
        }
      } finally {
        await sim.close();
      }
      writeEventsFile(await dumpEventLog(db.pool));
    }
    const dump = await dumpReadModels(db.pool);
    writeTablesFile(dump);
    const rows = Object.entries(dump.tables).map(([t, d]) => `${t} ${d.rows}`);
    console.log(`${opts.tablesOnly ? 'replayed' : 'wrote'} ${dump.events} events (${EVENTS_FILE}); read models: ${rows.join(', ')} (${TABLES_FILE})`);
  } finally {
    await db.drop();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
