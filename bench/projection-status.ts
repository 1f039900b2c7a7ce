/**
 * What an operator's status read costs at a large lag: `ProjectionEngine.status()` (GET /projections,
 * `catalog projections status`, /metrics) and `progress()` (what `rebuild --all` and a rebuild's
 * progress bar poll), every projection of the service at the start of a log of `--status-events`
 * events (800 000 by default: the log of a 100 000-link catalog), and caught up at its end.
 *
 * The baseline is what a status read cost before the lag was bounded: an exact count of every
 * projection's events after its position (`lagAfter(…, Infinity)`), which `rebuild --all` ran every
 * 250 ms. The log is written server-side, like the catalog's by stream kind (mostly links), with an
 * event type no projection handles; nothing is applied.
 */
import { createPool } from '../src/platform/db';
import { START } from '../src/platform/event-store/port';
import { PostgresEventStore } from '../src/platform/event-store/postgres';
import { createEventRegistry } from '../src/catalog/event-registry';
import { PgListener } from '../src/platform/pg-listener';
import { ProjectionEngine } from '../src/platform/projections/engine';
import { allProjections } from '../projections';
import { type Suite, median, timed, value } from './harness';

const MIX = `CASE WHEN g % 20 < 13 THEN 'link-' WHEN g % 20 < 16 THEN 'family-' WHEN g % 20 < 18 THEN 'good-' WHEN g % 20 = 18 THEN 'tag-' ELSE 'category-' END`;
const ROUNDS = 5;

const ms = (s: number) => `${(s * 1000).toFixed(s < 0.01 ? 2 : 1)} ms`;
const spread = (xs: number[]) => `median ${ms(median(xs))} (${xs.length} rounds, ${ms(Math.min(...xs))}–${ms(Math.max(...xs))})`;

export const projectionStatusSuite: Suite = {
  name: 'status',
  title: 'projection status and rebuild polling at a large lag',
  flags: {
    'status-events': { default: 800_000, help: 'events in the log the status is read against' },
  },
  async run(ctx) {
    const events = ctx.flag('status-events');
    const db = await ctx.freshDatabase('status');
    const pool = createPool(db.url, 4, 'catalog-bench');
    const listener = new PgListener(db.url);
    const store = new PostgresEventStore(pool, listener);
    const definitions = allProjections();
    const engine = new ProjectionEngine({ pool, store, registry: createEventRegistry(), databaseUrl: db.url, log: ctx.log, batchSize: 2000, pollMs: 1000 }, definitions);
    try {
      ctx.progress(`writing ${events} events`);
      for (let from = 0; from < events; from += 50_000) {
        const to = Math.min(events, from + 50_000) - 1;
        await pool.query(
          `INSERT INTO es_events (event_id, stream_id, revision, type, version, data, metadata)
           SELECT gen_random_uuid(), ${MIX} || (g % 100003), g / 100003, 'BenchStatusLoad', 1, '{}'::jsonb,
                  jsonb_build_object('by', 'system:bench', 'why', 'BenchLoad', 'correlationId', gen_random_uuid()::text, 'at', '2026-01-01T00:00:00.000Z')
             FROM generate_series($1::bigint, $2::bigint) AS g ORDER BY g`,
          [from, to],
        );
      }
      await pool.query(`ANALYZE es_events`);
      for (const d of definitions) await pool.query(`INSERT INTO projection_checkpoints (name) VALUES ($1) ON CONFLICT (name) DO NOTHING`, [d.name]);
      const setCheckpoints = async (at: { commit: bigint; prepare: bigint }) =>
        pool.query(`UPDATE projection_checkpoints SET commit_pos = $1, prepare_pos = $2`, [at.commit.toString(), at.prepare.toString()]);

      const rounds = async (fn: () => Promise<unknown>) => {
        await fn(); // warm: plans and pages
        const out: number[] = [];
        for (let i = 0; i < ROUNDS; i++) out.push((await timed(fn)).seconds);
        return out;
      };

      await setCheckpoints(START);
      ctx.progress('status at the start of the log');
      const statusBehind = await rounds(() => engine.status());
      const lags = await engine.status();
      const fence = await rounds(() => engine.fence());
      const poll = await rounds(() => engine.progress());
      ctx.progress('exact counts (the status read before the lag was bounded)');
      const exact = await rounds(async () => {
        for (const d of definitions) await store.lagAfter(START, d.streamPrefixes, Number.POSITIVE_INFINITY);
      });
      await setCheckpoints(await store.headPosition(undefined, { committed: true }));
      ctx.progress('status caught up');
      const statusCaughtUp = await rounds(() => engine.status());

      const behind = lags.map((p) => `${p.name} ${p.lagApproximate ? '~' : ''}${p.lagEvents}`).join(', ');
      return {
        rows: [
          value(`status(), ${definitions.length} projections ${events.toLocaleString('en-US')} events behind (GET /projections' items)`, spread(statusBehind)),
          value('fence() (GET /projections, beside the items)', spread(fence)),
          value('progress() (what rebuild --all and a rebuild poll)', spread(poll)),
          value("baseline: exact counts of every projection's lag (the status read before)", spread(exact)),
          value('status(), every projection caught up', spread(statusCaughtUp)),
        ],
        notes: [
          `${events.toLocaleString('en-US')} events (65 % link-, 15 % family-, 10 % good-, 5 % tag-, 5 % category- streams); lags reported: ${behind}`,
          'status reads at most 10 000 rows of the log per projection and estimates past them (lagApproximate); rebuild --all counts once at its start and then polls progress()',
        ],
      };
    } finally {
      await listener.close();
      await pool.end();
    }
  },
};
