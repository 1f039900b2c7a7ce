/**
 * An old event log still replays (docs/architecture.md, Replaying an old log). The log in
 * test/fixtures/replay was written by the service of its day (`npm run replay-fixture`); loaded into
 * a fresh database, it must give, with today's code, the read models it gave then: once as the
 * projections apply it from the start, and again after every projection is rebuilt from it.
 */
import { createTestDatabase, type TestDatabase } from '../../support/db';
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
});
