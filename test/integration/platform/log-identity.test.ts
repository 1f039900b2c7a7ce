/**
 * The log's identity (docs/deployment.md): recorded in the log and in PostgreSQL at the first start,
 * a different log or a checkpoint past the log's end refused with the rebuild command named, and
 * `rebuild --all` (rebuildAll) making them one again. Also: one tick of a schedule is claimed once.
 */
import { checkLogIdentity, logIdOf, LogMismatchError, LOG_IDENTITY_STREAM } from '../../../src/platform/log-identity';
import { rebuildAll } from '../../../src/platform/projections/rebuild-all';
import { claimTick } from '../../../src/sync/scheduler';
import { eventually } from '../../support/eventually';
import { startTestService, type TestService } from '../../support/service';

jest.setTimeout(120_000);

describe('the log identity', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ workers: false, login: false });
  });
  afterAll(async () => {
    await svc.close();
  });

  it('is recorded at the first start, in the log and in PostgreSQL, and agrees afterwards', async () => {
    const { pool, store } = svc.services;
    const [a, b] = await Promise.all([checkLogIdentity(pool, store), checkLogIdentity(pool, store)]);
    expect(a.logId).toBe(b.logId);
    const events = await store.readStream(LOG_IDENTITY_STREAM);
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toEqual({ logId: a.logId });
    expect((await pool.query(`SELECT log_id, event_store FROM log_identity`)).rows).toEqual([{ log_id: a.logId, event_store: 'postgres' }]);
    await expect(checkLogIdentity(pool, store)).resolves.toEqual({ logId: a.logId, adopted: false });
  });

  it('refuses another log, naming the command that rebuilds', async () => {
    const { pool, store } = svc.services;
    const before = await logIdOf(store);
    await pool.query(`UPDATE log_identity SET log_id = gen_random_uuid()`);
    const err = await checkLogIdentity(pool, store).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LogMismatchError);
    expect((err as LogMismatchError).exitCode).toBe(2);
    expect((err as Error).message).toContain(before);
    expect((err as Error).message).toContain('catalog projections rebuild --all');
  });

  it('refuses a checkpoint beyond the end of the log', async () => {
    const { pool, store } = svc.services;
    await pool.query(`UPDATE log_identity SET log_id = $1`, [await logIdOf(store)]);
    await pool.query(
      `INSERT INTO projection_checkpoints (name, commit_pos, prepare_pos) VALUES ('catalog', 999999999999, 1)
         ON CONFLICT (name) DO UPDATE SET commit_pos = EXCLUDED.commit_pos, prepare_pos = EXCLUDED.prepare_pos`,
    );
    const err = await checkLogIdentity(pool, store).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LogMismatchError);
    expect((err as Error).message).toMatch(/beyond the end of the event log.*catalog at 999999999999\/1/);
    expect((err as Error).message).toContain('catalog projections rebuild --all');
  });

  it('rebuild --all empties the read models, resets the checkpoints, records the log and replays it', async () => {
    const { pool, store, engine, log } = svc.services;
    await pool.query(`UPDATE log_identity SET log_id = gen_random_uuid()`);
    // A row no event explains: gone after the rebuild.
    await pool.query(`INSERT INTO categories (id, name, raw_name, revision) VALUES (987654, 'stale', 'stale', 0)`);
    await pool.query(`UPDATE projection_checkpoints SET events_applied = 42`);
    const r = await rebuildAll({ pool, store, engine, log }, { pollMs: 50 });
    expect((await pool.query(`SELECT count(*)::int AS n FROM categories`)).rows[0].n).toBe(0);
    // This log holds no catalogue events (only its identity): nothing applied since the reset.
    expect((await pool.query(`SELECT max(events_applied)::int AS n FROM projection_checkpoints`)).rows[0].n).toBe(0);
    expect(r.logId).toBe(await logIdOf(store));
    await expect(checkLogIdentity(pool, store)).resolves.toMatchObject({ logId: r.logId });
    const cp = await pool.query(`SELECT name, state, last_error FROM projection_checkpoints ORDER BY name`);
    for (const row of cp.rows) expect(row).toMatchObject({ state: 'running', last_error: null });
  });

  it('rebuild --all refuses while a worker leads a projection', async () => {
    const { pool, store, engine, log } = svc.services;
    await engine.startRunners();
    try {
      await eventually(async () => (await engine.status()).every((p) => p.ledHere));
      await expect(rebuildAll({ pool, store, engine, log })).rejects.toMatchObject({ code: 'PROJECTION.WORKER_RUNNING', status: 409 });
    } finally {
      await engine.stopRunners();
    }
  });
});

describe('schedule claims', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ workers: false, login: false });
  });
  afterAll(async () => {
    await svc.close();
  });

  it('one tick is won by one claimant, whatever the number of processes firing it', async () => {
    const due = new Date('2026-11-25T10:00:00.400Z');
    const won = await Promise.all(['a:1', 'b:2', 'c:3', 'd:4'].map((by) => claimTick(svc.db.pool, 'categories', due, by)));
    expect(won.filter(Boolean)).toHaveLength(1);
    // The next tick, and the same time of another job, are claims of their own.
    expect(await claimTick(svc.db.pool, 'categories', new Date('2026-11-25T11:00:00Z'), 'b:2')).toBe(true);
    expect(await claimTick(svc.db.pool, 'goods', due, 'b:2')).toBe(true);
    const rows = await svc.db.pool.query(`SELECT claim FROM schedule_claims ORDER BY claim`);
    expect(rows.rows.map((r) => r.claim)).toEqual(['categories:2026-11-25T10:00:00.000Z', 'categories:2026-11-25T11:00:00.000Z', 'goods:2026-11-25T10:00:00.000Z']);
  });
});
