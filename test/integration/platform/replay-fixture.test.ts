/**
 * An old event log still replays (docs/architecture.md, Replaying an old log). The log in
 * test/fixtures/replay was written by the service of its day (`npm run replay-fixture`); loaded into
 * a fresh database, it must give, with today's code, the read models it gave then: once as the
 * projections apply it from the start, and again after every projection is rebuilt from it (the
 * catalog's links folded in SQL, in one range and in many).
 */
import { catalogProjection } from '../../../projections/catalog';
import { linkFold } from '../../../projections/catalog-fold';
import { createEventRegistry } from '../../../src/catalog/event-registry';
import { createLogger } from '../../../src/platform/log';
import { ProjectionEngine } from '../../../src/platform/projections/engine';
import { createTestDatabase, type TestDatabase } from '../../support/db';
import { postgresStore } from '../../support/event-store';
import { eventually } from '../../support/eventually';
import { loadEventLog, readEventsFile, readModelDifferences, readTablesFile, replayFixture } from '../../support/replay-fixture';

jest.setTimeout(300_000);

describe('replaying the fixture log', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it('gives the read models it gave when it was written, applied from the start and rebuilt', async () => {
    const events = readEventsFile();
    const expected = readTablesFile();
    expect(events.length).toBe(expected.events);
    await loadEventLog(db.pool, events);
    let live: string[] | null = null;
    await replayFixture(db, async () => {
      live = await readModelDifferences(db.pool, expected);
    });
    expect({ live }).toEqual({ live: [] });
    expect({ rebuilt: await readModelDifferences(db.pool, expected) }).toEqual({ rebuilt: [] });
  });

  it('folded in ranges of a few link streams, the catalog rebuilds to the same rows', async () => {
    const expected = readTablesFile();
    const es = postgresStore(db);
    const ranges: { after: string | null; last: string | null }[] = [];
    const def = {
      ...catalogProjection,
      sqlFold: {
        ...linkFold,
        rangeStreams: 7,
        foldRange: async (...args: Parameters<typeof linkFold.foldRange>) => {
          const range = await linkFold.foldRange(...args);
          ranges.push({ after: args[2], last: range.last });
          return range;
        },
      },
    };
    const engine = new ProjectionEngine(
      { pool: db.pool, store: es.store, registry: createEventRegistry(), databaseUrl: db.url, log: createLogger('silent'), batchSize: 500, pollMs: 20 },
      [def],
    );
    const lastRebuild = async () => (await db.pool.query(`SELECT last_rebuild_at::text, state FROM projection_checkpoints WHERE name = 'catalog'`)).rows[0];
    const was = String((await lastRebuild()).last_rebuild_at);
    await engine.startRunners();
    try {
      await engine.requestRebuild('catalog');
      await eventually(async () => {
        // A rebuild that failed says why, rather than leave the wait to time out.
        const status = (await engine.status()).find((p) => p.name === 'catalog');
        if (status?.lastError || status?.rebuildError) throw new Error(`catalog: ${JSON.stringify(status.lastError ?? status.rebuildError)}`);
        const cp = await lastRebuild();
        return cp.state === 'running' && String(cp.last_rebuild_at) !== was;
      }, 180_000);
    } finally {
      await engine.stopRunners();
      await es.close();
    }
    // Each range began where the one before it ended; the last took the rest.
    expect(ranges.length).toBeGreaterThan(3);
    expect(ranges.map((r) => r.after)).toEqual([null, ...ranges.slice(0, -1).map((r) => r.last)]);
    expect(ranges.at(-1)!.last).toBeNull();
    expect({ inRanges: await readModelDifferences(db.pool, expected) }).toEqual({ inRanges: [] });
  });
});
