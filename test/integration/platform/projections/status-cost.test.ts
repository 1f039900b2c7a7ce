/**
 * Projection status at a large lag (docs/api.md, Projections): the lag reads a bounded window of the
 * log and estimates past it, flagged `lagApproximate`; `rebuild --all` counts the log once at the
 * start and follows the checkpoints' `events_applied` after that, never the log. (What either costs
 * at 800 000 events is a bench figure: `npm run bench -- --only status`.)
 */
import { rebuildAll } from '../../../../src/platform/projections/rebuild-all';
import type { LogLag, LogPosition } from '../../../../src/platform/event-store/port';
import { startTestService, type TestService } from '../../../support/service';

jest.setTimeout(120_000);

const EVENTS = 30_000;
/** A log like the catalog's: mostly links, then families and goods, a few of the rest. */
const MIX = `CASE WHEN g % 20 < 13 THEN 'link-' WHEN g % 20 < 16 THEN 'family-' WHEN g % 20 < 18 THEN 'good-' WHEN g % 20 = 18 THEN 'tag-' ELSE 'category-' END`;

describe('projection status at a large lag', () => {
  let svc: TestService;
  /** The exact number of events of these prefixes, counted here. */
  const exact = async (prefixes: readonly string[]) =>
    Number((await svc.db.pool.query(`SELECT count(*) AS n FROM es_events WHERE stream_id LIKE ANY($1::text[])`, [prefixes.map((p) => `${p}%`)])).rows[0].n);

  beforeAll(async () => {
    svc = await startTestService({ workers: false });
    // Events of a type no projection handles: a replay reads and skips them, as it would others' events.
    for (let from = 0; from < EVENTS; from += 10_000) {
      await svc.db.pool.query(
        `INSERT INTO es_events (event_id, stream_id, revision, type, version, data, metadata)
         SELECT gen_random_uuid(), ${MIX} || (g % 997), g / 997 + $1::bigint * 1000, 'StatusLoad', 1, '{}'::jsonb,
                jsonb_build_object('by', 'system:test', 'why', 'Load', 'correlationId', gen_random_uuid()::text, 'at', '2026-01-01T00:00:00.000Z')
           FROM generate_series($2::bigint, $3::bigint) AS g ORDER BY g`,
        [from / 10_000, from, from + 9_999],
      );
    }
    await svc.db.pool.query(`UPDATE projection_checkpoints SET commit_pos = -1, prepare_pos = -1`);
  });
  afterAll(async () => {
    await svc.close();
  });

  it('reads a window of the log per projection: past 10 000 events the lag is an estimate, flagged, close to the count', async () => {
    const status = await svc.services.engine.status();
    for (const p of status) {
      const def = svc.services.engine.definition(p.name);
      const count = await exact(def.streamPrefixes);
      const got = { name: p.name, lagApproximate: p.lagApproximate, nearCount: Math.abs(p.lagEvents - count) <= count * 0.05 + 10 };
      expect(got).toEqual({ name: p.name, lagApproximate: true, nearCount: true });
      expect(p.lagSeconds).toBeGreaterThan(0);
    }
    const view = await svc.request('GET', '/projections');
    expect(view.status).toBe(200);
    for (const item of view.body.items) expect(item).toMatchObject({ lagApproximate: true, lagEvents: expect.any(Number) });
    // Within the window the count is exact and not flagged.
    const near = await svc.services.store.lagAfter({ commit: -1n, prepare: -1n }, ['tag-'], Number.POSITIVE_INFINITY);
    expect(near).toMatchObject({ events: await exact(['tag-']), capped: false });
  });

  it('rebuild --all counts the log once at the start and then follows the checkpoints alone', async () => {
    const { pool, store, engine, log } = svc.services;
    const counted: number[] = [];
    const lagAfter = store.lagAfter.bind(store);
    store.lagAfter = (after: LogPosition, prefixes?: readonly string[], cap?: number): Promise<LogLag> => {
      counted.push(cap ?? -1);
      return lagAfter(after, prefixes, cap);
    };
    const status = engine.status.bind(engine);
    let statusReads = 0;
    engine.status = () => (statusReads++, status());
    const seen: [number, number][] = [];
    try {
      await rebuildAll({ pool, store, engine, log }, { pollMs: 5, onProgress: (done, total) => seen.push([done, total]) });
    } finally {
      store.lagAfter = lagAfter;
      engine.status = status;
    }
    const defs = engine.definitions();
    const total = (await Promise.all(defs.map((d) => exact(d.streamPrefixes)))).reduce((a, b) => a + b, 0);
    expect(seen.length).toBeGreaterThan(3); // it polled, many times
    expect(counted).toEqual(defs.map(() => Number.POSITIVE_INFINITY)); // one exact count per projection, at the start
    expect(statusReads).toBe(0);
    expect(seen[0]![1]).toBe(total);
    expect(seen.at(-1)).toEqual([total, total]);
    for (const [done, t] of seen) expect(done).toBeLessThanOrEqual(t);
  });
});
