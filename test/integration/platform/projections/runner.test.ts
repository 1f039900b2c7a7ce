import { createLogger } from '../../../../src/platform/log';
import { eventMetadata } from '../../../../src/platform/events/registry';
import { START, comparePositions, positionToString } from '../../../../src/platform/event-store/port';
import { ProjectionRunner, type ProjectionCommitNotice } from '../../../../src/platform/projections/runner';
import { ProjectionEngine, ProjectionNotifications } from '../../../../src/platform/projections/engine';
import type { ProjectionDefinition, SqlFold } from '../../../../src/platform/projections/definition';
import { requestRebuild } from '../../../../src/platform/projections/rebuild';
import { createTestDatabase, type TestDatabase } from '../../../support/db';
import { postgresStore } from '../../../support/event-store';
import { eventually } from '../../../support/eventually';
import { TALLY_TABLES_SQL, appendTallies, tallyRegistry, tallyProjection, tallySnapshot } from '../../../support/tally-projection';

const log = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');

describe('projection runner', () => {
  let db: TestDatabase;
  let es: ReturnType<typeof postgresStore>;
  const runners: ProjectionRunner[] = [];

  const runner = (definition: ProjectionDefinition = tallyProjection(), batchSize = 50) => {
    const r = new ProjectionRunner({ definition, store: es.store, registry: tallyRegistry(), databaseUrl: db.url, batchSize, pollMs: 50, log });
    runners.push(r);
    return r;
  };
  const checkpoint = async () => {
    const r = await db.pool.query(`SELECT commit_pos, prepare_pos, state, last_error, events_applied, last_rebuild_at FROM projection_checkpoints WHERE name = 'tally'`);
    const row = r.rows[0];
    return { ...row, position: row ? { commit: BigInt(row.commit_pos), prepare: BigInt(row.prepare_pos) } : START };
  };
  // Caught up with what the test appended. (Not "with the readable head": a transaction anywhere on
  // the server can hold readers, and so the head, back for a moment.)
  let target = START;
  const caughtUp = async () => comparePositions((await checkpoint()).position, target) >= 0;
  const appended = async (p: Promise<{ sum: number; last: typeof START }>) => {
    const r = await p;
    target = r.last;
    return r.sum;
  };

  beforeEach(async () => {
    db = await createTestDatabase();
    await db.pool.query(TALLY_TABLES_SQL);
    es = postgresStore(db);
  });
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((r) => r.stop()));
    await es.close();
    await db.drop();
  });

  it('applies every event exactly once and commits the checkpoint with the rows', async () => {
    const sum = await appended(appendTallies(es.store, 120));
    await runner().start();
    await eventually(caughtUp);
    const snap = await tallySnapshot(db.pool);
    expect(snap.tally.reduce((a, r) => a + Number(r.total), 0)).toBe(sum);
    expect(snap.log).toHaveLength(120);
    expect(Number((await checkpoint()).events_applied)).toBe(120);
  });

  it('moves its checkpoint past other streams’ events, so a quiet projection does not rescan them', async () => {
    const sum = await appended(appendTallies(es.store, 10));
    const registry = tallyRegistry();
    let other = START;
    for (let i = 0; i < 25; i++) {
      other = (await es.store.appendToStream(`other-${i}`, [registry.encode('Tallied', { n: 1 }, eventMetadata('system:test', 'Elsewhere'))])).position;
    }
    await runner().start();
    await eventually(async () => comparePositions((await checkpoint()).position, other) >= 0);
    const snap = await tallySnapshot(db.pool);
    expect(snap.log).toHaveLength(10);
    expect(snap.tally.reduce((a, r) => a + Number(r.total), 0)).toBe(sum);
    expect(Number((await checkpoint()).events_applied)).toBe(10);
  });

  it('a batch delivered twice changes nothing the second time', async () => {
    await appendTallies(es.store, 30);
    const events = (await eventually(async () => {
      const read = await es.store.readAll({ after: START, limit: 100, streamPrefixes: ['tally-'] });
      return read.length === 30 ? read : null;
    }))!;
    const r = runner();
    // Drive the runner by hand (connected and leading, but not looping).
    await (r as unknown as { connect(): Promise<void> }).connect();
    expect(await r.applyBatch(START, events)).toBe(true);
    const once = await tallySnapshot(db.pool);
    expect(await r.applyBatch(START, events)).toBe(false);
    expect(await r.applyBatch(START, events.slice(0, 10))).toBe(false);
    expect(await tallySnapshot(db.pool)).toEqual(once);
    expect(once.log).toHaveLength(30);
  });

  it('killed mid-batch many times at random points, it ends equal to a fresh rebuild', async () => {
    const sum = await appended(appendTallies(es.store, 400));
    await runner(tallyProjection({ slowMs: 1 }), 9).start();
    let kills = 0;
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    // Terminate the runner's connection while its batch transactions are open.
    while (!(await caughtUp()) && kills < 25) {
      await new Promise((r) => setTimeout(r, 5 + rnd() * 40));
      const k = await db.pool.query(
        `SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity
          WHERE application_name = 'catalog-projection:tally' AND datname = current_database() AND state <> 'idle'`,
      );
      kills += k.rows.filter((x) => x.killed).length;
    }
    expect(kills).toBeGreaterThanOrEqual(5);
    await eventually(caughtUp, 60_000);
    const afterCrashes = await tallySnapshot(db.pool);
    expect(afterCrashes.log).toHaveLength(400);
    expect(afterCrashes.tally.reduce((a, r) => a + Number(r.total), 0)).toBe(sum);

    const engine = new ProjectionEngine({ pool: db.pool, store: es.store, registry: tallyRegistry(), databaseUrl: db.url, log, batchSize: 100, pollMs: 50 }, [tallyProjection()]);
    const before = (await checkpoint()).last_rebuild_at;
    await engine.requestRebuild('tally');
    await eventually(async () => (await checkpoint()).last_rebuild_at !== before, 60_000);
    expect(await tallySnapshot(db.pool)).toEqual(afterCrashes);
  });

  it('two runners on one projection: one leads and advances; the other takes over when it stops', async () => {
    const sum1 = await appended(appendTallies(es.store, 60));
    const a = runner();
    const b = runner();
    await a.start();
    await b.start();
    await eventually(caughtUp);
    expect([a.isLeader(), b.isLeader()].filter(Boolean)).toHaveLength(1);
    const leader = a.isLeader() ? a : b;
    const standby = leader === a ? b : a;
    await leader.stop();
    const sum2 = await appended(appendTallies(es.store, 40, 10, 60));
    await eventually(caughtUp);
    expect(standby.isLeader()).toBe(true);
    const snap = await tallySnapshot(db.pool);
    expect(snap.log).toHaveLength(100);
    expect(snap.tally.reduce((s, r) => s + Number(r.total), 0)).toBe(sum1 + sum2);
  });

  it('a poison event stops the projection with the event and error recorded; a retry after the fix resumes', async () => {
    const registry = tallyRegistry();
    await appended(appendTallies(es.store, 5));
    const poison = registry.encode('Poisoned', {}, eventMetadata('system:test', 'Poison'));
    await es.store.appendToStream('tally-x', [poison]);
    await appended(appendTallies(es.store, 3, 10, 5));
    let broken = true;
    const engine = new ProjectionEngine({ pool: db.pool, store: es.store, registry, databaseUrl: db.url, log, batchSize: 50, pollMs: 50 }, [
      tallyProjection({ poison: () => broken }),
    ]);
    await engine.startRunners();
    try {
      await eventually(async () => (await checkpoint()).state === 'failed');
      const cp = await checkpoint();
      expect(cp.last_error).toMatchObject({ eventId: poison.id, type: 'Poisoned', streamId: 'tally-x', message: 'cannot tally a poisoned event' });
      // The five events before it are committed; none after it.
      expect((await tallySnapshot(db.pool)).log).toHaveLength(5);
      const [status] = await engine.status();
      expect(status).toMatchObject({ name: 'tally', state: 'failed', lagEvents: 4 });
      expect(status!.lastError).toMatchObject({ eventId: poison.id });
      broken = false;
      expect(await engine.retry('tally')).toBe(true);
      await eventually(caughtUp);
      expect((await tallySnapshot(db.pool)).log).toHaveLength(8);
      expect((await engine.status())[0]).toMatchObject({ state: 'running', lagEvents: 0, lastError: null });
    } finally {
      await engine.stopRunners();
    }
  });

  it('a poison event met by a rebuild ends the rebuild; the live projection runs on and waits are answered', async () => {
    const registry = tallyRegistry();
    await appended(appendTallies(es.store, 5));
    await es.store.appendToStream('tally-x', [registry.encode('Poisoned', {}, eventMetadata('system:test', 'Poison'))]);
    await appended(appendTallies(es.store, 3, 10, 5));
    // The live projection got past the event with the code of its day; the code now rebuilding fails on it.
    let broken = false;
    const notifications = new ProjectionNotifications(db.pool, es.listener, [tallyProjection()], log);
    await notifications.start();
    const engine = new ProjectionEngine({ pool: db.pool, store: es.store, registry, databaseUrl: db.url, log, batchSize: 4, pollMs: 20 }, [
      tallyProjection({ poison: () => broken }),
    ]);
    await engine.startRunners();
    try {
      await eventually(caughtUp);
      broken = true;
      await engine.requestRebuild('tally');
      await eventually(async () => (await engine.status())[0]!.rebuildError !== null, 20_000);
      const [status] = await engine.status();
      expect(status).toMatchObject({ state: 'running', rebuild: null, lastError: { type: 'Poisoned', during: 'rebuild' }, rebuildError: { type: 'Poisoned' } });
      expect((await checkpoint()).last_error).toBeNull();
      expect((await db.pool.query(`SELECT to_regclass('rebuild_tally.t_tally_log') AS t`)).rows[0].t).toBeNull();
      // The live projection still applies new events, and a command waiting on it is answered.
      await appended(appendTallies(es.store, 2, 10, 8));
      expect(await notifications.waitFor(target, ['tally-1'], 10_000)).toBe(true);
      expect((await tallySnapshot(db.pool)).log).toHaveLength(10);
    } finally {
      await engine.stopRunners();
      await notifications.stop();
    }
  });

  it('a batch that times out or meets a lock is retried with back-off and shown as retrying, never poison; the leader keeps its lead', async () => {
    await appended(appendTallies(es.store, 6));
    // Someone holds the projection's table: every batch waits for the lock until its statement times out.
    const holder = await db.pool.connect();
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE t_tally IN ACCESS EXCLUSIVE MODE');
    const r = new ProjectionRunner({
      definition: tallyProjection(),
      store: es.store,
      registry: tallyRegistry(),
      databaseUrl: db.url,
      batchSize: 50,
      pollMs: 50,
      log,
      sessionLimits: { statementTimeoutMs: 200, idleInTransactionTimeoutMs: 0 },
    });
    runners.push(r);
    try {
      await r.start();
      const retrying = await eventually(async () => {
        const row = (await db.pool.query(`SELECT retrying, last_error FROM projection_checkpoints WHERE name = 'tally'`)).rows[0];
        return row?.retrying?.attempts >= 2 ? row : null;
      }, 20_000);
      expect(retrying.retrying).toMatchObject({ code: '57014', since: expect.any(String) });
      expect(retrying.last_error).toBeNull();
      expect(r.isLeader()).toBe(true);
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
    await eventually(caughtUp, 20_000);
    const cp = (await db.pool.query(`SELECT retrying, last_error, state FROM projection_checkpoints WHERE name = 'tally'`)).rows[0];
    expect(cp).toMatchObject({ retrying: null, last_error: null, state: 'running' });
    expect((await tallySnapshot(db.pool)).log).toHaveLength(6);
  });

  it('a command waiting on a projection stopped on a poison event gets a 503 naming it, before or while it waits', async () => {
    const registry = tallyRegistry();
    const notifications = new ProjectionNotifications(db.pool, es.listener, [tallyProjection()], log);
    await notifications.start();
    try {
      await appended(appendTallies(es.store, 2));
      // While it waits: the runner meets the poison event after the wait began.
      const poison = registry.encode('Poisoned', {}, eventMetadata('system:test', 'Poison'));
      const { position } = await es.store.appendToStream('tally-x', [poison]);
      const waiting = notifications.waitFor(position, ['tally-x'], 20_000);
      const rejected = expect(waiting).rejects.toMatchObject({ code: 'PROJECTION.FAILED', status: 503, message: expect.stringContaining('tally') });
      const r = runner();
      await r.start();
      await rejected;
      // Before it waits: the projection is known to have stopped.
      await expect(notifications.waitFor(position, ['tally-x'], 20_000)).rejects.toMatchObject({ code: 'PROJECTION.FAILED' });
    } finally {
      await notifications.stop();
    }
  });

  it('a migration that changes a table while a rebuild runs restarts the rebuild: the new shape is what gets swapped in', async () => {
    await appended(appendTallies(es.store, 40));
    const engine = new ProjectionEngine({ pool: db.pool, store: es.store, registry: tallyRegistry(), databaseUrl: db.url, log, batchSize: 5, pollMs: 20 }, [
      tallyProjection({ slowMs: 5 }),
    ]);
    await engine.startRunners();
    try {
      await eventually(caughtUp);
      await engine.requestRebuild('tally');
      await eventually(async () => (await db.pool.query(`SELECT to_regclass('rebuild_tally.t_tally_log') AS t`)).rows[0].t !== null, 10_000, 5);
      // A deployment's migration, while the shadow fills: a column and an index on the live table.
      await db.pool.query(`ALTER TABLE t_tally ADD COLUMN note text NOT NULL DEFAULT ''`);
      await db.pool.query(`CREATE INDEX t_tally_total ON t_tally (total)`);
      await eventually(async () => (await checkpoint()).last_rebuild_at !== null && (await engine.status())[0]!.state === 'running', 60_000);
      const columns = await db.pool.query(`SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 't_tally' ORDER BY 1`);
      expect(columns.rows.map((c) => c.column_name)).toEqual(['events', 'note', 'stream', 'total']);
      const indexes = await db.pool.query(`SELECT indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename = 't_tally'`);
      expect(indexes.rows.some((i) => / \(total\)$/.test(i.indexdef))).toBe(true);
      expect((await tallySnapshot(db.pool)).log).toHaveLength(40);
    } finally {
      await engine.stopRunners();
    }
  });

  it('a migration that changes a generated column’s expression or adds a CHECK while a rebuild runs restarts it: the new definitions survive the swap', async () => {
    // A generated column the shadow copies as it is when the rebuild starts.
    await db.pool.query(`ALTER TABLE t_tally ADD COLUMN doubled integer GENERATED ALWAYS AS (total * 2) STORED`);
    try {
      await appended(appendTallies(es.store, 40));
      const engine = new ProjectionEngine({ pool: db.pool, store: es.store, registry: tallyRegistry(), databaseUrl: db.url, log, batchSize: 5, pollMs: 20 }, [
        tallyProjection({ slowMs: 5 }),
      ]);
      await engine.startRunners();
      try {
        await eventually(caughtUp);
        await engine.requestRebuild('tally');
        await eventually(async () => (await db.pool.query(`SELECT to_regclass('rebuild_tally.t_tally') AS t`)).rows[0].t !== null, 10_000, 5);
        // A deployment's migration while the shadow fills: the same columns, another expression, and a CHECK.
        await db.pool.query(`ALTER TABLE t_tally DROP COLUMN doubled, ADD COLUMN doubled integer GENERATED ALWAYS AS (total * 3) STORED`);
        await db.pool.query(`ALTER TABLE t_tally ADD CONSTRAINT t_tally_total_known CHECK (total >= 0)`);
        await eventually(async () => (await checkpoint()).last_rebuild_at !== null && (await engine.status())[0]!.state === 'running', 60_000);
        const generated = await db.pool.query(
          `SELECT generation_expression FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 't_tally' AND column_name = 'doubled'`,
        );
        expect(generated.rows[0].generation_expression).toMatch(/\* 3/);
        const checks = await db.pool.query(`SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = 'public.t_tally'::regclass AND contype = 'c'`);
        expect(checks.rows.map((c) => c.def)).toEqual(['CHECK ((total >= 0))']);
        const rows = await db.pool.query(`SELECT bool_and(doubled = total * 3) AS ok FROM t_tally`);
        expect(rows.rows[0].ok).toBe(true);
      } finally {
        await engine.stopRunners();
      }
    } finally {
      await db.pool.query(`ALTER TABLE t_tally DROP CONSTRAINT IF EXISTS t_tally_total_known, DROP COLUMN IF EXISTS doubled`);
    }
  });

  it('a swap that cannot have the live tables (a long read holds them) gives up after its lock timeout and tries again', async () => {
    await appended(appendTallies(es.store, 10));
    const engine = new ProjectionEngine({ pool: db.pool, store: es.store, registry: tallyRegistry(), databaseUrl: db.url, log, batchSize: 50, pollMs: 20 }, [tallyProjection()]);
    await engine.startRunners();
    const reader = await db.pool.connect();
    try {
      await eventually(caughtUp);
      await reader.query('BEGIN');
      await reader.query('SELECT count(*) FROM t_tally');
      await engine.requestRebuild('tally');
      const waiting = await eventually(async () => {
        const row = (await db.pool.query(`SELECT retrying FROM projection_checkpoints WHERE name = 'tally'`)).rows[0];
        return row.retrying?.code === '55P03' ? row.retrying : null;
      }, 20_000);
      expect(waiting.message).toMatch(/lock timeout/);
      expect((await engine.status())[0]!.state).toBe('rebuilding');
      await reader.query('COMMIT');
      await eventually(async () => (await checkpoint()).last_rebuild_at !== null && (await engine.status())[0]!.state === 'running', 30_000);
      expect((await tallySnapshot(db.pool)).log).toHaveLength(10);
    } finally {
      await reader.query('ROLLBACK').catch(() => undefined);
      reader.release();
      await engine.stopRunners();
    }
  });

  it('a rebuild settles two steps at once, the second on a connection of its own, each row once', async () => {
    await appended(appendTallies(es.store, 60, 9));
    await db.pool.query(`CREATE TABLE t_settled (stream text NOT NULL, pid integer NOT NULL, after text)`);
    // Settling "recomputes" two streams a step, recording each with the connection it ran on.
    const STEP = 2;
    const def: ProjectionDefinition = {
      ...tallyProjection(),
      async settle(tx, after) {
        const r = await tx.query<{ stream: string }>(`SELECT stream FROM t_tally WHERE stream > $1 ORDER BY stream LIMIT $2`, [after ?? '', STEP]);
        if (!r.rows.length) return null;
        await tx.query(`INSERT INTO public.t_settled (stream, pid, after) SELECT s, pg_backend_pid(), $2 FROM unnest($1::text[]) AS s`, [r.rows.map((x) => x.stream), after]);
        return r.rows[r.rows.length - 1]!.stream;
      },
      async settleSplit(tx, after) {
        const r = await tx.query<{ stream: string }>(`SELECT stream FROM t_tally WHERE stream > $1 ORDER BY stream OFFSET $2 LIMIT 1`, [after ?? '', STEP - 1]);
        if (!r.rows[0]) return null;
        const more = await tx.query(`SELECT 1 FROM t_tally WHERE stream > $1 LIMIT 1`, [r.rows[0].stream]);
        return more.rows.length ? r.rows[0].stream : null;
      },
    };
    const engine = new ProjectionEngine({ pool: db.pool, store: es.store, registry: tallyRegistry(), databaseUrl: db.url, log, batchSize: 10, pollMs: 20 }, [def]);
    await engine.startRunners();
    try {
      await eventually(caughtUp);
      const live = await tallySnapshot(db.pool);
      await engine.requestRebuild('tally');
      await eventually(async () => (await engine.status())[0]!.state === 'running' && (await checkpoint()).last_rebuild_at !== null, 60_000);
      expect(await tallySnapshot(db.pool)).toEqual(live);
      const settled = (await db.pool.query<{ stream: string; pid: number }>(`SELECT stream, pid FROM t_settled ORDER BY stream`)).rows;
      expect(settled.map((r) => r.stream)).toEqual(live.tally.map((r) => r.stream));
      expect(new Set(settled.map((r) => r.pid)).size).toBeGreaterThanOrEqual(2);
    } finally {
      await engine.stopRunners();
    }
  });

  it('a rebuild folds in ranges, each its own transaction, while live batches go on, and resumes from its cursor after a restart', async () => {
    // Ten streams of ten tallies; the fold takes three streams a range: 0-2, 3-5, 6-8, then the rest.
    await appended(appendTallies(es.store, 100));
    await db.pool.query(`CREATE TABLE t_fold_ranges (after text, last text, xact text NOT NULL)`);
    const RANGE = `stream_id LIKE 'tally-%' AND stream_id > $3 AND ($4::text IS NULL OR stream_id <= $4) AND (tx_id < $1 OR (tx_id = $1 AND seq <= $2))`;
    // The first process fails in its second range and every one after (having written part of it), and stops.
    let stopped: (() => void) | null = null;
    const stoppedAt = new Promise<void>((resolve) => (stopped = resolve));
    const tallyFold = (stopAtRange: number): SqlFold => {
      let ranges = 0;
      return {
        streamPrefixes: ['tally-'],
        rangeStreams: 3,
        accepts: async () => true,
        async foldRange(tx, upTo, after, streams) {
          const from = after ?? '';
          const at = [upTo.commit.toString(), upTo.prepare.toString(), from];
          const bound = await tx.query<{ stream_id: string }>(
            `SELECT stream_id FROM public.es_streams WHERE stream_id LIKE 'tally-%' AND stream_id > $1 ORDER BY stream_id OFFSET $2 LIMIT 1`,
            [from, streams - 1],
          );
          const last = bound.rows[0]?.stream_id ?? null;
          await tx.query(
            `INSERT INTO t_tally (stream, total, events)
             SELECT stream_id, sum((data->>'n')::int), count(*) FROM public.es_events WHERE ${RANGE} GROUP BY stream_id`,
            [...at, last],
          );
          const n = await tx.query(`INSERT INTO t_tally_log (event_id, stream, n) SELECT event_id, stream_id, (data->>'n')::int FROM public.es_events WHERE ${RANGE}`, [
            ...at,
            last,
          ]);
          await tx.query(`INSERT INTO public.t_fold_ranges (after, last, xact) VALUES ($1, $2, pg_current_xact_id()::text)`, [after, last]);
          if (stopAtRange > 0 && ++ranges >= stopAtRange) {
            stopped!();
            throw new Error('the process stops here');
          }
          return { last, events: n.rowCount ?? 0 };
        },
      };
    };
    const first = runner({ ...tallyProjection(), sqlFold: tallyFold(2) });
    await first.start();
    await eventually(caughtUp);
    await requestRebuild(db.pool, 'tally');
    await stoppedAt;
    // Mid-fold, the live projection still applies what is appended (after the fold's position).
    await appended(appendTallies(es.store, 20, 10, 100));
    await eventually(caughtUp);
    await first.stop();
    const live = await tallySnapshot(db.pool);
    expect(live.log).toHaveLength(120);
    const cursor = await db.pool.query(`SELECT fold_after, fold_commit_pos IS NOT NULL AS fixed, folded_commit_pos, events_done::int AS done FROM projection_rebuilds`);
    expect(cursor.rows).toEqual([{ fold_after: 'tally-2', fixed: true, folded_commit_pos: null, done: 30 }]);

    await runner({ ...tallyProjection(), sqlFold: tallyFold(0) }).start();
    await eventually(async () => (await checkpoint()).state === 'running' && (await checkpoint()).last_rebuild_at !== null, 60_000);
    // Every event once: the ranges after the restart fold up to the position fixed before it, and
    // the replay applies the twenty appended since.
    expect(await tallySnapshot(db.pool)).toEqual(live);
    expect((await checkpoint()).events_applied).toBe('120');
    const ranges = (await db.pool.query<{ after: string | null; last: string | null; xact: string }>(`SELECT after, last, xact FROM t_fold_ranges`)).rows;
    expect(ranges.map((r) => [r.after, r.last])).toEqual([
      [null, 'tally-2'],
      ['tally-2', 'tally-5'],
      ['tally-5', 'tally-8'],
      ['tally-8', null],
    ]);
    expect(new Set(ranges.map((r) => r.xact)).size).toBe(4);
  });

  it('rebuilds without downtime: the live tables serve and advance meanwhile, then one swap', async () => {
    await appended(appendTallies(es.store, 100));
    const notifications = new ProjectionNotifications(db.pool, es.listener, [tallyProjection()], log);
    const notices: ProjectionCommitNotice[] = [];
    notifications.onCommit((n) => notices.push(n));
    await notifications.start();
    const engine = new ProjectionEngine({ pool: db.pool, store: es.store, registry: tallyRegistry(), databaseUrl: db.url, log, batchSize: 10, pollMs: 20 }, [
      tallyProjection({ slowMs: 10 }),
    ]);
    await engine.startRunners();
    try {
      await eventually(caughtUp);
      await engine.requestRebuild('tally');
      expect((await engine.status())[0]!.state).toBe('rebuilding');
      const shadowExists = async () => (await db.pool.query(`SELECT to_regclass('rebuild_tally.t_tally_log') AS t`)).rows[0].t !== null;
      const liveCount = async () => (await db.pool.query(`SELECT count(*)::int AS n FROM t_tally_log`)).rows[0].n as number;
      await eventually(shadowExists, 10_000, 5);
      // While the shadow fills, the live table answers and keeps taking new events.
      await appended(appendTallies(es.store, 20, 10, 100));
      await eventually(async () => (await liveCount()) === 120, 10_000, 5);
      expect(await shadowExists()).toBe(true);
      await eventually(async () => (await engine.status())[0]!.state === 'running' && (await checkpoint()).last_rebuild_at !== null, 60_000);
      const snap = await tallySnapshot(db.pool);
      expect(snap.log).toHaveLength(120);
      expect((await db.pool.query(`SELECT to_regclass('rebuild_tally.t_tally_log') AS t`)).rows[0].t).toBeNull();
      await eventually(() => notices.some((n) => n.rebuilt && Object.keys(n.domains).sort().join() === 'goods,matrix,meta'));
      // A command waiting for the last position is released.
      expect(await notifications.waitFor(target, ['tally-3'], 5000)).toBe(true);
      expect(notices.find((n) => n.projection === 'tally' && n.position === positionToString(target))).toBeDefined();
    } finally {
      await engine.stopRunners();
      await notifications.stop();
    }
  });
});
