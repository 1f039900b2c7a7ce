/**
 * Rebuild without downtime: shadow tables in schema `rebuild_<name>` fill from the start of the log
 * (the handlers' unqualified table names resolve there through `search_path`) while the live tables
 * keep serving and keep being updated; when the shadow has caught up with the live checkpoint, one
 * transaction swaps them. The projection's leader (./runner.ts) runs a rebuild's steps between its
 * live batches, on its own connection; the replay's batches go through the runner's batch apply, so
 * a poison event is found there as in live batches, and abandons the rebuild (`abandon`).
 */
import type pg from 'pg';
import { ident } from '../db';
import { CACHE_DOMAINS } from '../cache/public-cache';
import { type EventStore, type LogPosition, type RecordedEvent, START, comparePositions, positionToString } from '../event-store/port';
import type { Logger } from '../log';
import type { ProjectionDefinition, SqlFold } from './definition';
import { ensureCheckpointRow, toPosition } from './checkpoints';

/** A rebuild's batches go to the shadow tables in `schema`; derived state waits while `deferDerived`. */
export interface ShadowTarget {
  kind: 'shadow';
  schema: string;
  deferDerived: boolean;
  /** the first batch (or skip) from the log's start makes the shadow tables; false once a fold made them */
  fresh: boolean;
}

/** What a rebuild uses of the runner leading the projection: its reads, its batch apply, its transactions. */
export interface Replay {
  /** the rebuild's next events after `after`, no further than `upTo` (of these streams only: `streamPrefixes`) */
  read(after: LogPosition, upTo: LogPosition, streamPrefixes?: readonly string[]): Promise<RecordedEvent[]>;
  /** applies a batch to the shadow (a failing batch is narrowed down to its poison event) */
  apply(from: LogPosition, events: RecordedEvent[], target: ShadowTarget): Promise<void>;
  /** moves the rebuild's position over events that are none of the projection's */
  skipTo(from: LogPosition, to: LogPosition, target: ShadowTarget): Promise<void>;
  inTransaction<T>(fn: (db: pg.Client) => Promise<T>): Promise<T>;
  /** a transaction on a second connection, beside the runner's (settling runs two steps at once) */
  inOtherTransaction<T>(fn: (db: pg.Client) => Promise<T>): Promise<T>;
  /** NOTIFYs a commit (transactional: heard once the transaction commits) */
  notify(db: pg.ClientBase, position: LogPosition, domains: readonly string[], rebuilt: boolean): Promise<void>;
  /**
   * Outside any transaction, the planner's statistics (../planner-statistics.ts): of the shadow
   * tables as the replay fills them (`schema`), by autovacuum's rule; of the tables just swapped in,
   * every one, vacuumed too (`swapped`).
   */
  refreshStatistics(tables: readonly string[], at: { schema: string } | 'swapped'): Promise<void>;
  /** The log's planner statistics, by the same rule, where the store keeps them (../event-store/port.ts). */
  refreshLogStatistics(): Promise<void>;
}

export const shadowSchema = (name: string) => `rebuild_${name}`;
const retiredSchema = (name: string) => `retired_${name}`;

/**
 * Empty copies of the projection's tables (columns, defaults, indexes, and the columns' statistics
 * targets, which `LIKE … INCLUDING ALL` does not copy) in `schema`, which is made afresh.
 */
export async function createShadow(db: pg.ClientBase, schema: string, tables: readonly string[]): Promise<void> {
  await db.query(`DROP SCHEMA IF EXISTS ${ident(schema)} CASCADE`);
  await db.query(`CREATE SCHEMA ${ident(schema)}`);
  for (const t of tables) {
    await db.query(`CREATE TABLE ${ident(schema)}.${ident(t)} (LIKE public.${ident(t)} INCLUDING ALL)`);
    const targets = await db.query<{ column: string; target: number }>(
      `SELECT attname AS column, attstattarget::int AS target FROM pg_attribute
        WHERE attrelid = format('public.%I', $1::text)::regclass AND attnum > 0 AND NOT attisdropped AND attstattarget >= 0`,
      [t],
    );
    if (targets.rows.length) {
      await db.query(`ALTER TABLE ${ident(schema)}.${ident(t)} ${targets.rows.map((c) => `ALTER COLUMN ${ident(c.column)} SET STATISTICS ${Number(c.target)}`).join(', ')}`);
    }
    // The same for index expressions (migration 044), each copy found by its definition.
    const indexTargets = await db.query<{ index: string; column: number; target: number }>(
      `SELECT s.indexrelid::regclass::text AS index, a.attnum::int AS column, a.attstattarget::int AS target
         FROM pg_index p
         JOIN pg_attribute a ON a.attrelid = p.indexrelid AND coalesce(a.attstattarget, -1) >= 0
         JOIN pg_index s ON s.indrelid = format('%I.%I', $2::text, $1::text)::regclass
          AND ${INDEX_BODY('s.indexrelid')} = ${INDEX_BODY('p.indexrelid')}
        WHERE p.indrelid = format('public.%I', $1::text)::regclass`,
      [t, schema],
    );
    for (const x of indexTargets.rows) await db.query(`ALTER INDEX ${x.index} ALTER COLUMN ${Number(x.column)} SET STATISTICS ${Number(x.target)}`);
  }
}

/** An index's definition without its name and its table's: equal for an index and its shadow copy. */
const INDEX_BODY = (oid: string) => `regexp_replace(pg_get_indexdef(${oid}), '^CREATE (UNIQUE )?INDEX \\S+ ON \\S+ ', 'CREATE \\1INDEX ')`;

export class ShadowRebuild {
  private readonly name: string;

  constructor(
    private readonly opts: { definition: ProjectionDefinition; store: EventStore; log: Logger },
    private readonly replay: Replay,
  ) {
    this.name = opts.definition.name;
  }

  /**
   * One step of a requested rebuild, read on `db` (the runner's connection), the log read up to
   * `head`: a range of the SQL fold, a batch replayed, a step of settling, or the swap, each its own
   * short transaction (docs/architecture.md, Rebuilds and the log's readers). False when no rebuild is requested or
   * the swap could not be made yet. `liveFailed`: whether the live checkpoint was failed when read.
   */
  async step(db: pg.ClientBase, head: LogPosition, liveFailed: boolean): Promise<boolean> {
    const rebuild = await db.query<{
      commit_pos: string;
      prepare_pos: string;
      settle_after: string | null;
      settled: boolean;
      fold_commit_pos: string | null;
      fold_prepare_pos: string | null;
      fold_after: string | null;
      folded_commit_pos: string | null;
      folded_prepare_pos: string | null;
    }>(
      `SELECT commit_pos, prepare_pos, settle_after, settled, fold_commit_pos, fold_prepare_pos, fold_after, folded_commit_pos, folded_prepare_pos
         FROM projection_rebuilds WHERE name = $1`,
      [this.name],
    );
    const rb = rebuild.rows[0];
    if (!rb) return false;
    const from = toPosition(rb.commit_pos, rb.prepare_pos);
    const folded = rb.folded_commit_pos === null || rb.folded_prepare_pos === null ? null : toPosition(rb.folded_commit_pos, rb.folded_prepare_pos);
    const folding = rb.fold_commit_pos === null || rb.fold_prepare_pos === null ? null : toPosition(rb.fold_commit_pos, rb.fold_prepare_pos);
    const schema = shadowSchema(this.name);
    const def = this.opts.definition;
    const settle = def.settle;
    // Derived state waits for the end of the replay, until settling begins.
    const target: ShadowTarget = { kind: 'shadow', schema, deferDerived: !!settle && rb.settle_after === null && !rb.settled, fresh: folded === null };
    // The replay reads the log from its start, which nothing but the replay reads: a log grown by
    // small appends since its statistics were last taken plans every such read as a sort of all the
    // rest (the rebuild took 1.7 times as long at 100 000 links where autovacuum was off).
    await this.replay.refreshLogStatistics();
    if (folded === null && def.sqlFold && this.opts.store.kind === 'postgres' && comparePositions(from, START) === 0) {
      if (folding) {
        await this.foldRange(def.sqlFold, folding, rb.fold_after);
        return true;
      }
      if (comparePositions(head, START) > 0) {
        await this.startFold(def.sqlFold, head);
        return true;
      }
    }
    if (folded && def.sqlFold && comparePositions(from, folded) < 0) {
      // Up to the fold's position, only the streams it did not fold.
      const rest = def.streamPrefixes.filter((p) => !def.sqlFold!.streamPrefixes.includes(p));
      const events = rest.length ? await this.replay.read(from, folded, rest) : [];
      if (events.length) {
        await this.replay.apply(from, events, target);
        await this.replay.refreshStatistics(def.tables, { schema });
      } else {
        await this.replay.skipTo(from, folded, target);
      }
      return true;
    }
    const events = await this.replay.read(from, head);
    if (events.length) {
      await this.replay.apply(from, events, target);
      // The shadow tables grow from nothing and each row is rewritten several times on the way: with
      // statistics that still say "empty" every lookup of the replay is planned as a scan. The
      // replay refreshes them itself, by autovacuum's rule, rather than rely on a server whose
      // autovacuum may be off (it doubled the rebuild's time at 100 000 links, docs/benchmarks.md).
      await this.replay.refreshStatistics(this.opts.definition.tables, { schema });
      return true;
    }
    if (comparePositions(head, from) > 0) {
      await this.replay.skipTo(from, head, target);
      return true;
    }
    if (comparePositions(from, START) === 0) {
      // An empty log: an empty shadow still has to exist before it can be swapped in.
      await this.replay.inTransaction((tx) => createShadow(tx, schema, this.opts.definition.tables));
    }
    if (settle && !rb.settled) {
      // Settling in steps, each in its own short transaction: live batches keep running in between,
      // and no transaction holds readers back for long. Where the projection says where its next
      // step will end (`settleSplit`), two steps run at once, the second on a connection of its own:
      // a step is half in the server and half in JavaScript, so the two overlap.
      await this.replay.inTransaction(async (tx) => {
        await tx.query(`SELECT set_config('search_path', $1, true)`, [`${ident(schema)}, public`]);
        const split = def.settleSplit ? await def.settleSplit(tx, rb.settle_after) : null;
        const [first, second] = await Promise.all([
          settle(tx, rb.settle_after),
          split === null
            ? null
            : this.replay.inOtherTransaction(async (other) => {
                await other.query(`SELECT set_config('search_path', $1, true)`, [`${ident(schema)}, public`]);
                return settle(other, split);
              }),
        ]);
        const next = split === null ? first : second;
        await tx.query(`UPDATE projection_rebuilds SET settle_after = $2, settled = $3 WHERE name = $1`, [this.name, next ?? rb.settle_after, next === null]);
      });
      return true;
    }
    return this.swap(from, liveFailed);
  }

  /**
   * The fold's first step: makes the shadow tables and fixes the position every range folds up to
   * (the head now), or, when the fold declines this log, records the log's start as the folded
   * position (the replay reads everything then). Asked before anything is written, the question
   * only reads, so this transaction takes its id (and holds readers of the log back) only for the
   * few statements that make the tables.
   */
  private async startFold(fold: SqlFold, head: LogPosition): Promise<void> {
    const schema = shadowSchema(this.name);
    await this.replay.inTransaction(async (tx) => {
      const accepted = await fold.accepts(tx, head);
      await createShadow(tx, schema, this.opts.definition.tables);
      if (accepted) {
        await tx.query(`UPDATE projection_rebuilds SET fold_commit_pos = $2, fold_prepare_pos = $3, fold_after = NULL WHERE name = $1`, [
          this.name,
          head.commit.toString(),
          head.prepare.toString(),
        ]);
        this.opts.log.info({ position: positionToString(head) }, 'rebuild: folding streams in SQL');
      } else {
        await tx.query(`UPDATE projection_rebuilds SET folded_commit_pos = -1, folded_prepare_pos = -1 WHERE name = $1`, [this.name]);
        this.opts.log.info('rebuild: SQL fold declined; replaying every event');
      }
    });
  }

  /**
   * One range of the fold, in its own transaction, after the last stream folded (`after`), up to
   * the position fixed when the fold began: its rows, the events counted as done, and the cursor
   * moved past it, together, so a rebuild interrupted between two ranges goes on from the next one.
   * After the last range the fold's position is recorded, and the replay begins.
   */
  private async foldRange(fold: SqlFold, upTo: LogPosition, after: string | null): Promise<void> {
    const schema = shadowSchema(this.name);
    await this.replay.inTransaction(async (tx) => {
      await tx.query(`SELECT set_config('search_path', $1, true)`, [`${ident(schema)}, public`]);
      const range = await fold.foldRange(tx, upTo, after, fold.rangeStreams);
      await tx.query(`UPDATE projection_rebuilds SET fold_after = $2, events_done = events_done + $3 WHERE name = $1`, [this.name, range.last, range.events]);
      if (range.last === null) {
        await tx.query(`UPDATE projection_rebuilds SET folded_commit_pos = fold_commit_pos, folded_prepare_pos = fold_prepare_pos WHERE name = $1`, [this.name]);
        this.opts.log.info({ position: positionToString(upTo) }, 'rebuild: streams folded in SQL');
      } else {
        this.opts.log.debug({ after, last: range.last, events: range.events }, 'rebuild: a range of streams folded in SQL');
      }
    });
    await this.replay.refreshStatistics(this.opts.definition.tables, { schema });
  }

  /**
   * A rebuild that meets a poison event is abandoned; the live tables stay as they were and keep
   * running (the new code cannot replay the log, the old one still can).
   */
  async abandon(error: Record<string, unknown>, target: ShadowTarget): Promise<void> {
    this.opts.log.error({ error }, 'poison event: rebuild abandoned, the live projection runs on');
    await this.replay.inTransaction(async (db) => {
      await db.query(
        `UPDATE projection_checkpoints SET rebuild_error = $2, state = CASE WHEN last_error IS NULL THEN 'running' ELSE 'failed' END, updated_at = now()
          WHERE name = $1`,
        [this.name, error],
      );
      await db.query(`DELETE FROM projection_rebuilds WHERE name = $1`, [this.name]);
      await db.query(`DROP SCHEMA IF EXISTS ${ident(target.schema)} CASCADE`);
    });
  }

  /**
   * The projection's tables' shape in `schema`, as comparable text: columns (type, nullability,
   * default, and a generated column's expression), columns' statistics targets, indexes and CHECK
   * constraints (names of indexes and constraints aside). Anything a migration can change that `LIKE … INCLUDING ALL`
   * copies belongs here, or a swap during that migration would bring the old shape back.
   */
  private async tableShape(db: pg.ClientBase, schema: string): Promise<string> {
    const r = await db.query<{ shape: string | null }>(
      `SELECT string_agg(x, E'\\n' ORDER BY x) AS shape FROM (
         SELECT format('column %s.%s %s %s %s %s %s', table_name, column_name, data_type, is_nullable, coalesce(column_default, ''),
                       is_generated, coalesce(generation_expression, '')) AS x
           FROM information_schema.columns WHERE table_schema = $1 AND table_name = ANY($2)
         UNION ALL
         SELECT format('index %s %s', tablename, regexp_replace(indexdef, '^CREATE (UNIQUE )?INDEX \\S+ ON \\S+ ', 'CREATE \\1INDEX ON ' || tablename || ' '))
           FROM pg_indexes WHERE schemaname = $1 AND tablename = ANY($2)
         UNION ALL
         SELECT format('statistics %s.%s %s', t.relname, a.attname, a.attstattarget)
           FROM pg_attribute a JOIN pg_class t ON t.oid = a.attrelid JOIN pg_namespace n ON n.oid = t.relnamespace
          WHERE n.nspname = $1 AND t.relname = ANY($2) AND a.attnum > 0 AND NOT a.attisdropped AND a.attstattarget >= 0
         UNION ALL
         SELECT format('statistics %s %s column %s %s', t.relname, ${INDEX_BODY('i.indexrelid')}, a.attnum, a.attstattarget)
           FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
           JOIN pg_attribute a ON a.attrelid = i.indexrelid AND a.attstattarget >= 0
          WHERE n.nspname = $1 AND t.relname = ANY($2)
         UNION ALL
         SELECT format('constraint %s %s %s', t.relname, c.contype, pg_get_constraintdef(c.oid))
           FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
          WHERE n.nspname = $1 AND t.relname = ANY($2) AND c.contype = 'c') shape`,
      [schema, this.opts.definition.tables],
    );
    return r.rows[0]?.shape ?? '';
  }

  /**
   * Swaps the caught-up shadow tables in, in one transaction; then refreshes their planner
   * statistics and vacuums them: nothing has vacuumed the new tables yet, so their visibility maps
   * are empty and every first read of a row would set its hint bits (the cold list read took half as
   * long again where autovacuum was off).
   */
  private async swap(shadowAt: LogPosition, liveFailed: boolean): Promise<boolean> {
    let swapped = false;
    const moved = await this.swapIn(shadowAt, liveFailed, () => (swapped = true));
    if (swapped) await this.replay.refreshStatistics(this.opts.definition.tables, 'swapped');
    return moved;
  }

  private async swapIn(shadowAt: LogPosition, liveFailed: boolean, onSwapped: () => void): Promise<boolean> {
    const def = this.opts.definition;
    return this.replay.inTransaction(async (db) => {
      const live = await db.query<{ commit_pos: string; prepare_pos: string; failed: boolean }>(
        `SELECT commit_pos, prepare_pos, last_error IS NOT NULL AS failed FROM projection_checkpoints WHERE name = $1 FOR UPDATE`,
        [this.name],
      );
      const row = live.rows[0]!;
      const livePos = toPosition(row.commit_pos, row.prepare_pos);
      if (row.failed !== liveFailed) return false;
      // Swap only when the shadow holds exactly what the live tables hold: no event of this projection's
      // streams lies between the two positions (or the live side is stuck on a poison event the new
      // code has just got past). The checkpoint becomes the later of the two.
      let swapAt = shadowAt;
      if (!row.failed && comparePositions(livePos, shadowAt) !== 0) {
        const [lo, hi] = comparePositions(livePos, shadowAt) < 0 ? [livePos, shadowAt] : [shadowAt, livePos];
        const between = await this.opts.store.readAll({ after: lo, upTo: hi, limit: 1, streamPrefixes: def.streamPrefixes });
        if (between.length) return false;
        swapAt = hi;
      }
      const rb = await db.query<{ events_done: string }>(`SELECT events_done FROM projection_rebuilds WHERE name = $1 FOR UPDATE`, [this.name]);
      if (!rb.rows[0]) return false;
      // A migration changed a table after the shadow was made: swapping would bring the old shape
      // back. The rebuild starts again, in tables of the new shape.
      if ((await this.tableShape(db, 'public')) !== (await this.tableShape(db, shadowSchema(this.name)))) {
        this.opts.log.warn('the live tables changed shape while the rebuild ran; starting the rebuild again');
        await db.query(
          `UPDATE projection_rebuilds SET commit_pos = -1, prepare_pos = -1, events_done = 0, settle_after = NULL, settled = false,
                  fold_commit_pos = NULL, fold_prepare_pos = NULL, fold_after = NULL, folded_commit_pos = NULL, folded_prepare_pos = NULL,
                  started_at = now() WHERE name = $1`,
          [this.name],
        );
        await db.query(`DROP SCHEMA IF EXISTS ${ident(shadowSchema(this.name))} CASCADE`);
        return true;
      }
      // Readers of the live tables wait for the swap; it waits for them no longer than this, then
      // gives up and tries again (lock not available is retried with back-off, never poison).
      await db.query(`SET LOCAL lock_timeout = '2s'`);
      const shadow = ident(shadowSchema(this.name));
      const retired = ident(retiredSchema(this.name));
      if (def.tables.length) {
        await db.query(`LOCK TABLE ${def.tables.map((t) => `public.${ident(t)}`).join(', ')} IN ACCESS EXCLUSIVE MODE`);
      }
      await db.query(`DROP SCHEMA IF EXISTS ${retired} CASCADE`);
      await db.query(`CREATE SCHEMA ${retired}`);
      for (const t of def.tables) {
        await db.query(`ALTER TABLE public.${ident(t)} SET SCHEMA ${retired}`);
        await db.query(`ALTER TABLE ${shadow}.${ident(t)} SET SCHEMA public`);
      }
      await db.query(`DROP SCHEMA ${retired} CASCADE`);
      await db.query(`DROP SCHEMA IF EXISTS ${shadow} CASCADE`);
      await db.query(
        `UPDATE projection_checkpoints
            SET commit_pos = $2, prepare_pos = $3, events_applied = $4, state = 'running', last_error = NULL, rebuild_error = NULL,
                last_rebuild_at = clock_timestamp(), updated_at = now()
          WHERE name = $1`,
        [this.name, swapAt.commit.toString(), swapAt.prepare.toString(), rb.rows[0].events_done],
      );
      await db.query(`DELETE FROM projection_rebuilds WHERE name = $1`, [this.name]);
      // Every domain: a rule change can alter anything the public reads.
      await this.replay.notify(db, swapAt, CACHE_DOMAINS, true);
      this.opts.log.info({ position: positionToString(swapAt) }, 'rebuild swapped in');
      onSwapped();
      return true;
    });
  }
}

/**
 * Asks the projection's leader (whichever process it is in) to rebuild: it fills shadow tables from
 * the start of the log and swaps them in when caught up. Asking again restarts the rebuild.
 */
export async function requestRebuild(db: Pick<pg.ClientBase, 'query'>, name: string): Promise<void> {
  await ensureCheckpointRow(db, name);
  await db.query(
    `INSERT INTO projection_rebuilds (name) VALUES ($1)
     ON CONFLICT (name) DO UPDATE SET commit_pos = -1, prepare_pos = -1, events_done = 0, started_at = now(), settle_after = NULL, settled = false,
                                      fold_commit_pos = NULL, fold_prepare_pos = NULL, fold_after = NULL, folded_commit_pos = NULL, folded_prepare_pos = NULL`,
    [name],
  );
  await db.query(`UPDATE projection_checkpoints SET state = 'rebuilding', rebuild_error = NULL, updated_at = now() WHERE name = $1`, [name]);
}
