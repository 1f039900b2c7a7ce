/**
 * Synchronisation from the supplier simulator on loopback, through the service as built by
 * `createServices` with its projection runners: categories, the initial listing pass over N links,
 * the details of all N, then both again on the unchanged supplier (which must append nothing).
 *
 * Each figure runs from `sync.start` until the run has answered and the read models have applied
 * everything it appended (the run itself waits for them before it answers, bounded by COMMAND_WAIT_MS).
 */
import { type BenchContext, type Measure, type Suite, measure } from './harness';
import { type TimedRun, StatementProfile, formatCounts, startCatalogBench, syncCatalog, timedSync } from './catalog-setup';

export const syncSuite: Suite = {
  name: 'sync',
  title: 'supplier synchronisation (simulator on loopback)',
  flags: {
    'sync-links': { default: 20_000, help: 'links the simulator serves' },
  },

  async run(ctx: BenchContext) {
    const links = ctx.flag('sync-links');
    if (links < 50) throw new Error('sync: --sync-links must be at least 50');
    const b = await startCatalogBench(ctx, 'sync', links);
    const profile = new StatementProfile();
    const profiles: string[] = [];
    const profiled = (title: string, per: number, unit: string) => {
      profile.report(ctx, title, per, unit);
      if (!title.startsWith('categories')) profiles.push(`${title}: ${profile.summary(per, unit)}; readAll by prefixes (connection-seconds): ${profile.reads()}`);
      profile.reset();
    };
    profile.install();
    try {
      ctx.progress(`sync: ${links} links from ${b.sim.url}, batch size ${b.s.config.projections.batchSize}, pool ${b.s.config.databasePoolSize}`);
      const first = await syncCatalog(ctx, b, {
        before: () => profile.reset(),
        after: (kind, r) => profiled(`${kind} #1`, r.run.progress.done, kind === 'categories' ? 'item' : 'link'),
      });
      ctx.progress('sync: again, on the unchanged supplier');
      const goodsAgain = await timedSync(ctx, b, 'origin_goods');
      profiled('origin_goods #2', links, 'link');
      const detailsAgain = await timedSync(ctx, b, 'details');
      profiled('details #2', detailsAgain.run.progress.done, 'link');

      const c = first.categories;
      const rows: Measure[] = [
        measure(`categories + countries sync`, c.run.progress.done, c.seconds, 'items'),
        measure(`initial origin-goods sync of ${links} links`, links, first.origin_goods.seconds, 'links'),
        measure(`details sync of all ${first.details.run.progress.done} links on sale`, first.details.run.progress.done, first.details.seconds, 'details'),
        measure(`origin-goods re-sync, no-op: ${goodsAgain.eventsAppended} events appended`, links, goodsAgain.seconds, 'links'),
        measure(`details re-sync, no-op: ${detailsAgain.eventsAppended} events appended`, detailsAgain.run.progress.done, detailsAgain.seconds, 'details'),
      ];
      const runs: [string, TimedRun][] = [
        ['categories', c],
        ['origin_goods #1', first.origin_goods],
        ['details #1', first.details],
        ['origin_goods #2', goodsAgain],
        ['details #2', detailsAgain],
      ];
      const notOk = [goodsAgain, detailsAgain].filter((r) => r.eventsAppended !== 0).length;
      return {
        rows,
        notes: [
          `simulator: ${links} links (seed 1), no faults, in this process on ${b.sim.url}; service from createServices() with its projection runners ` +
            `(batch ${b.s.config.projections.batchSize}, poll ${b.s.config.projections.pollMs} ms), pool ${b.s.config.databasePoolSize}, page size ${b.s.config.upstreamPageSize}.`,
          `each figure: sync.start() → the run answered → the projections of its streams (catalog_tree, catalog) had applied everything it appended; ` +
            `the run itself answers only after they caught up (waitForProjections), bounded by COMMAND_WAIT_MS = ${b.s.config.commandWaitMs} ms.`,
          ...runs.map(
            ([name, r]) =>
              `run ${name}: ${r.run.progress.done} items, counts ${formatCounts(r.run.counts)}, errors ${r.run.errors.length}; ` +
              `${r.eventsAppended} events appended; answered ${r.answeredSeconds.toFixed(2)} s, read models caught up ${r.seconds.toFixed(2)} s; ${r.cpu}`,
          ),
          notOk
            ? `NOT A NO-OP: a re-sync on the unchanged supplier appended events (expected 0).`
            : `re-syncs on the unchanged supplier appended 0 events (es_events counted before and after).`,
          `statements below: every query of this process's pg clients, by connection (catalog = the service's pool, runner:<name> = a projection ` +
            `runner's own connection); seconds are connection-seconds from send to answer as this (busy) event loop saw them, summed over concurrent connections. ` +
            `Runners read events through the pool: readAll by stream prefixes.`,
          ...profiles.map((p) => `statements ${p}`),
        ],
      };
    } finally {
      profile.uninstall();
      await b.close();
    }
  },
};
