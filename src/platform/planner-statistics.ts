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
 * e.g. tables just swapped in). `changedRows`: what the step changed, by its own count (left out:
 * the server's count alone). `vacuum`: vacuum each one refreshed too (tables only one writer has
 * filled, whose visibility map is still empty). `schema`: the tables' schema, when not the current one.
 * `ownWrites`: the writes to count were made on `db` itself (a connection, not a pool).
 * `repeated`: the step is one of many in a row (a client's goods batches, a rebuild's replay), whose
 * every one would otherwise analyse the larger tables again: at 100 000 links that took a goods
 * batch of 97 requests from 50 s to 124 s.
 */
export async function refreshPlannerStatistics(
  db: Queryable,
  tables: readonly string[],
  opts: { changedRows?: number; all?: boolean; vacuum?: boolean; schema?: string; ownWrites?: boolean; repeated?: boolean; log?: Logger } = {},
): Promise<StatisticsRefresh[]> {
  const done: StatisticsRefresh[] = [];
  if (tables.length === 0 || (!opts.all && opts.changedRows === 0)) return done;
  try {
    // A backend hands its counts to the server's statistics at most once a second; a caller whose
    // writes were made on this same connection (`ownWrites`) has them handed over now, at the idle
    // moment between this statement and the next (PostgreSQL 15 and later).
    if (opts.ownWrites) await db.query(`SELECT pg_stat_force_next_flush()`);
    const stats = await db.query<TableStats & { schemaname: string; recent: boolean; described: number }>(
      `SELECT schemaname, relname, n_live_tup, n_dead_tup, n_mod_since_analyze,
              current_setting('autovacuum_analyze_threshold') AS threshold, current_setting('autovacuum_analyze_scale_factor') AS scale,
              coalesce(greatest(last_analyze, last_autoanalyze) > now() - current_setting('autovacuum_naptime')::interval, false) AS recent,
              (SELECT reltuples FROM pg_class WHERE oid = relid) AS described
         FROM pg_stat_user_tables WHERE schemaname = coalesce($2::text, current_schema()) AND relname = ANY($1::text[])
        ORDER BY relname`,
      [tables, opts.schema ?? null],
    );
    for (const t of stats.rows) {
      const live = Number(t.n_live_tup);
      const dead = Number(t.n_dead_tup);
      const modified = Math.max(Number(t.n_mod_since_analyze), opts.changedRows ?? 0);
      if (!opts.all && modified < Number(t.threshold) + Number(t.scale) * live) continue;
      // One of many steps in a row: a table is looked at again no sooner than autovacuum would
      // (autovacuum_naptime), unless more rows changed since than its statistics describe.
      if (opts.repeated && t.recent && modified < Number(t.described)) continue;
      const action = opts.vacuum || (dead > live && dead > Number(t.threshold)) ? 'vacuum analyze' : 'analyze';
      const name = opts.schema ? `${ident(t.schemaname)}.${ident(t.relname)}` : ident(t.relname);
      const started = Date.now();
      // SKIP_LOCKED: a table another ANALYZE or VACUUM holds (autovacuum's, an anti-wraparound one,
      // which runs even where autovacuum is off) is being seen to already; waiting for it would hold
      // the step, and a rebuild's every step, for as long as that takes.
      await db.query(action === 'analyze' ? `ANALYZE (SKIP_LOCKED) ${name}` : `VACUUM (SKIP_LOCKED, ANALYZE) ${name}`);
      done.push({ table: opts.schema ? `${t.schemaname}.${t.relname}` : t.relname, action, ms: Date.now() - started });
    }
    if (done.length) opts.log?.info({ refreshed: done }, 'planner statistics refreshed after a bulk step');
  } catch (e) {
    opts.log?.warn({ err: e, tables }, 'could not refresh planner statistics after a bulk step');
  }
  return done;
}
