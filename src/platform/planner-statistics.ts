/**
 * The planner's statistics of tables a bulk step rewrote, refreshed by the service itself, at the end
 * of the step (README, Operating it: Housekeeping after bulk steps).
 *
 * An organisation, a goods batch, a synchronisation or a rebuild's swap rewrites a large share of the
 * link, family and goods tables at once. Until the planner's statistics say so, queries are planned
 * for the tables as they were (row counts, value distributions), and until the dead row versions are
 * vacuumed, every read walks past them. Autovacuum would see to both, but only on its own schedule
 * (a minute apart at best, behind its thresholds) and not at all where it is off, where the same code
 * ran the later bulk steps markedly slower. So the step that did the rewrite refreshes what
 * it rewrote, by the very rule autovacuum applies (`autovacuum_analyze_threshold` + `…_scale_factor`
 * × rows, the server's settings), whether or not autovacuum runs: `ANALYZE`, or `VACUUM (ANALYZE)`
 * where dead rows outnumber live ones.
 *
 * The modifications counted are the larger of the server's (`n_mod_since_analyze`, which reaches the
 * statistics a moment after the writing transactions end) and what the step says it changed, so a
 * step that just finished is not missed. A step that says it changed nothing refreshes nothing: what
 * others wrote (whose counts may reach the statistics seconds after their transactions) is
 * autovacuum's to see to. A failure is logged, never the step's: statistics are an optimisation, not
 * a result.
 */
import { ident, type Queryable } from './db';
import type { Logger } from './log';

export interface StatisticsRefresh {
  table: string;
  action: 'analyze' | 'vacuum analyze';
  ms: number;
}

interface TableStats {
  relname: string;
  n_live_tup: string;
  n_dead_tup: string;
  n_mod_since_analyze: string;
  threshold: string;
  scale: string;
}

/**
 * Refreshes the statistics of those of `tables` a step rewrote enough of (`all`: every one of them,
 * e.g. tables just swapped in). `changedRows`: what the step changed, by its own count.
 */
export async function refreshPlannerStatistics(
  db: Queryable,
  tables: readonly string[],
  opts: { changedRows?: number; all?: boolean; log?: Logger } = {},
): Promise<StatisticsRefresh[]> {
  const done: StatisticsRefresh[] = [];
  if (tables.length === 0 || (!opts.all && opts.changedRows === 0)) return done;
  try {
    const stats = await db.query<TableStats>(
      `SELECT relname, n_live_tup, n_dead_tup, n_mod_since_analyze,
              current_setting('autovacuum_analyze_threshold') AS threshold, current_setting('autovacuum_analyze_scale_factor') AS scale
         FROM pg_stat_user_tables WHERE schemaname = current_schema() AND relname = ANY($1::text[])
        ORDER BY relname`,
      [tables],
    );
    for (const t of stats.rows) {
      const live = Number(t.n_live_tup);
      const dead = Number(t.n_dead_tup);
      const modified = Math.max(Number(t.n_mod_since_analyze), opts.changedRows ?? 0);
      if (!opts.all && modified < Number(t.threshold) + Number(t.scale) * live) continue;
      const action = dead > live && dead > Number(t.threshold) ? 'vacuum analyze' : 'analyze';
      const started = Date.now();
      await db.query(action === 'analyze' ? `ANALYZE ${ident(t.relname)}` : `VACUUM (ANALYZE) ${ident(t.relname)}`);
      done.push({ table: t.relname, action, ms: Date.now() - started });
    }
    if (done.length) opts.log?.info({ refreshed: done }, 'planner statistics refreshed after a bulk step');
  } catch (e) {
    opts.log?.warn({ err: e, tables }, 'could not refresh planner statistics after a bulk step');
  }
  return done;
}
