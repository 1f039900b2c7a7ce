/**
 * A serving process's jobs thread (src/jobs/): the long operations run on a thread of their own and
 * answer as in process: the same results, the same AppErrors, a synchronisation's end heard; a
 * thread that dies fails what it was running with a 503 and is started again. Against a real
 * database and the supplier simulator over HTTP.
 */
import { loadConfig } from '../../../src/config';
import { JobsThread } from '../../../src/jobs/client';
import { createLogger } from '../../../src/platform/log';
import { Metrics } from '../../../src/platform/metrics';
import { startSimulator, type RunningSimulator } from '../../../src/sync/simulator';
import { createTestDatabase, type TestDatabase } from '../../support/db';
import { eventually } from '../../support/eventually';

jest.setTimeout(180_000);

describe('the jobs thread', () => {
  let db: TestDatabase;
  let sim: RunningSimulator;
  let thread: JobsThread;
  const log = createLogger('silent', 'test');

  beforeAll(async () => {
    db = await createTestDatabase();
    sim = await startSimulator({ links: 120, seed: 3 });
    const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: db.url, JWT_SECRET: 'x'.repeat(40), UPSTREAM_URL: sim.url, PROJECTION_POLL_MS: '50', LOG_LEVEL: 'silent' });
    // The worker role too, as in a process of role `all`: the projections run in the thread.
    thread = await JobsThread.start({ config, databaseUrl: db.url, worker: true, seedDemo: false }, log);
  });
  afterAll(async () => {
    await thread?.close();
    await sim.close();
    await db.drop();
  });

  it('a synchronisation answers its run id at once and its end when it has finished', async () => {
    const started = await thread.startSync('categories', { by: 'system:test' });
    expect(started.runId).toMatch(/^[0-9a-f-]{36}$/);
    const run = await started.finished;
    expect(run).toMatchObject({ runId: started.runId, state: 'succeeded' });
    const links = await thread.startSync('origin_goods', { by: 'system:test' });
    expect((await links.finished).state).toBe('succeeded');
    expect(Number((await db.pool.query(`SELECT count(*) AS n FROM origin_goods`)).rows[0].n)).toBe(120);
  });

  it('organisation answers its report and its run id, and an AppError crosses as itself', async () => {
    const runIds: string[] = [];
    const [first, second] = await Promise.allSettled([
      thread.organise('system:test', { onRun: (id) => runIds.push(id) }),
      new Promise((r) => setTimeout(r, 50)).then(() => thread.organise('system:test')),
    ]);
    expect(first.status).toBe('fulfilled');
    expect((first as PromiseFulfilledResult<{ created: number }>).value.created).toBeGreaterThan(0);
    expect(runIds).toHaveLength(1);
    // Organisation is one run at a time: the second, while the first ran, is the same 409 as in process.
    if (second.status === 'rejected') expect(second.reason).toMatchObject({ code: 'ORGANISE.ALREADY_RUNNING', status: 409 });
    const families = Number((await db.pool.query(`SELECT count(*) AS n FROM families`)).rows[0].n);
    expect(families).toBeGreaterThan(0);
  });

  it('a goods batch answers what it created and skipped', async () => {
    const ids = (await db.pool.query<{ id: string }>(`SELECT id::text FROM origin_goods WHERE family_id IS NOT NULL ORDER BY id LIMIT 3`)).rows.map((r) => r.id);
    const r = await thread.batchCreateGoods({ originGoodIds: [...ids, '999999999'] }, { by: 'system:test' });
    expect(r.created).toHaveLength(3);
    expect(r.skipped).toEqual([{ index: 3, originGoodId: '999999999', code: 'UNKNOWN_REFERENCE', message: expect.any(String) }]);
  });

  it('the thread’s counters are read for the process’s /metrics', async () => {
    const metrics = await thread.metrics();
    const runs = metrics.find((m) => m.name === 'catalog_sync_runs_total');
    expect(runs?.values.filter((v) => v.labels.outcome === 'succeeded').reduce((n, v) => n + v.value, 0)).toBe(2);
  });

  it('the process’s /metrics shows each thread’s heap apart: the main thread’s and the jobs thread’s', async () => {
    const main = new Metrics();
    main.addPeer(() => thread.metrics());
    const text = await main.text();
    for (const t of ['main', 'jobs']) {
      const line = text.split('\n').find((l) => l.startsWith(`catalog_thread_heap_bytes{thread="${t}",kind="used"} `));
      expect(Number(line?.split(' ').at(-1))).toBeGreaterThan(1024 * 1024);
    }
  });

  it('a thread that dies fails what it was running with a 503 and is started again', async () => {
    const running = thread.organise('system:test');
    const settled = running.then(
      () => null,
      (e: unknown) => e,
    );
    // Ended from outside, as an out-of-memory or a native crash would end it.
    await (thread as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    expect(await settled).toMatchObject({ code: 'JOBS.UNAVAILABLE', status: 503 });
    const report = await eventually(
      async () => {
        try {
          return await thread.organise('system:test');
        } catch {
          return null;
        }
      },
      60_000,
      250,
    );
    expect(report!.created).toBe(0);
  });
});
