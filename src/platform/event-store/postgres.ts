/**
 * The `postgres` event-store adapter (migrations/001_event-store.sql, 010, 013).
 *
 * Global order is (tx_id, seq), tx_id being the writing transaction's id (plus the log's epoch offset,
 * see 013_log-epoch.sql). Readers read only below the oldest running transaction
 * (`es_readable_below()`), so an event whose transaction took a lower seq but commits later is never
 * skipped: readers simply do not pass it until it has committed or aborted.
 */
import { AppError, isTransientDbError } from '../errors';
import type { Pool } from '../db';
import type { PgListener } from '../pg-listener';
import type { Logger } from '../log';
import { refreshPlannerStatistics } from '../planner-statistics';
import {
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  type FenceHolder,
  type FenceStatus,
  type LogLag,
  type LogPosition,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type StaleStream,
  type StreamAppend,
  EventStoreErrors,
  START,
  wrongRevision,
} from './port';

const CHANNEL = 'es_events';
// The text form of tx_id is selected under the same name: every ORDER BY must name es_events.tx_id,
// or PostgreSQL sorts by the output column, as text ("10000" < "9999"), skipping events.
const COLUMNS = `seq, tx_id::text AS tx_id, event_id, stream_id, revision, type, version, data, metadata, recorded_at`;
const READABLE = `tx_id < es_readable_below()`;

interface EventRow {
  seq: string;
  tx_id: string;
  event_id: string;
  stream_id: string;
  revision: string;
  type: string;
  version: number;
  data: unknown;
  metadata: EventMetadata;
  recorded_at: Date;
}

function toRecorded(r: EventRow): RecordedEvent {
  return {
    id: r.event_id,
    streamId: r.stream_id,
    revision: BigInt(r.revision),
    position: { commit: BigInt(r.tx_id), prepare: BigInt(r.seq) },
    type: r.type,
    version: r.version,
    data: r.data,
    metadata: r.metadata,
    recordedAt: r.recorded_at,
  };
}

/** START is (-1, -1); transaction ids start above 2, so (0, -1) is below every real event. */
/** Rows of the log a lag or a held-back count reads at most (port: lagAfter's cap; docs/api.md, Projections). */
export const LAG_WINDOW = 10_000;

function positionParams(p: LogPosition): [string, string] {
  return p.commit < 0n ? ['0', '-1'] : [p.commit.toString(), p.prepare.toString()];
}

function prefixPatterns(prefixes: readonly string[] | undefined): string[] | null {
  if (!prefixes || prefixes.length === 0) return null;
  return prefixes.map((p) => p.replace(/[\\%_]/g, (c) => '\\' + c) + '%');
}

const appendMode = (expected: ExpectedRevision) => (expected === 'any' || expected === 'no_stream' ? expected : 'exact');

/**
 * The stale streams an ES409 names, in the order of the append: es_append_many lists them all in
 * DETAIL (a JSON array of {stream, actual}); es_append names its one stream in HINT, its revision in
 * DETAIL.
 */
function staleOf(err: { detail?: string; hint?: string }, writes: readonly StreamAppend[]): StaleStream[] {
  let listed: { stream: string; actual: string }[];
  try {
    listed = err.detail?.startsWith('[') ? (JSON.parse(err.detail) as { stream: string; actual: string }[]) : [];
  } catch {
    listed = [];
  }
  if (listed.length === 0) listed = [{ stream: err.hint ?? writes[0]!.streamId, actual: err.detail ?? 'unknown' }];
  const actual = new Map(listed.map((l) => [l.stream, l.actual]));
  const named = writes.filter((w) => actual.has(w.streamId));
  // A conflict always names a stream of its append; were it not so, the first stands for it.
  return (named.length ? named : writes.slice(0, 1)).map((w) => ({ streamId: w.streamId, expected: String(w.expectedRevision), actual: actual.get(w.streamId) ?? 'unknown' }));
}

/** How often an append runs when PostgreSQL ends it to break a deadlock or a serialization conflict. */
const APPEND_ATTEMPTS = 5;
const RETRIED: Record<string, AppendRetryReason> = { '40P01': 'deadlock', '40001': 'serialization' };
export type AppendRetryReason = 'deadlock' | 'serialization';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class PostgresEventStore implements EventStore {
  readonly kind = 'postgres' as const;
  private announcing = false;
  private announceAgain = false;

  constructor(
    private readonly pool: Pool,
    private readonly listener: PgListener,
    /** hears each append that PostgreSQL ended and that runs again (catalog_event_store_append_retries_total) */
    private readonly onRetry: (reason: AppendRetryReason) => void = () => undefined,
  ) {}

  async appendToStream(streamId: string, events: readonly EventToAppend[], opts: { expectedRevision?: ExpectedRevision } = {}): Promise<AppendResult> {
    const expected = opts.expectedRevision ?? 'any';
    if (events.length === 0) {
      const rev = await this.streamRevision(streamId);
      return { nextRevision: rev ?? -1n, position: START };
    }
    const mode = appendMode(expected);
    const write = { streamId, events, expectedRevision: expected };
    try {
      const res = await this.appendQuery<{ next_revision: string; tx_id: string; seq: string }>(
        `SELECT next_revision, tx_id::text AS tx_id, seq FROM es_append($1, $2, $3, $4::uuid[], $5::text[], $6::int[], $7::jsonb[], $8::jsonb[])`,
        [
          streamId,
          mode,
          typeof expected === 'bigint' ? expected.toString() : null,
          events.map((e) => e.id),
          events.map((e) => e.type),
          events.map((e) => e.version),
          events.map((e) => JSON.stringify(e.data)),
          events.map((e) => JSON.stringify(e.metadata)),
        ],
      );
      const row = res.rows[0]!;
      this.announce();
      return { nextRevision: BigInt(row.next_revision), position: { commit: BigInt(row.tx_id), prepare: BigInt(row.seq) } };
    } catch (e) {
      // One stream: it is written already, or the conflict is thrown; nothing is left to send again.
      const again = await this.explainFailedAppend(e, [write], async () => new Map());
      return again.get(streamId)!;
    }
  }

  async appendToStreams(appends: readonly StreamAppend[]): Promise<AppendResult[]> {
    const writes = appends.filter((a) => a.events.length > 0);
    const results = writes.length ? await this.appendMany(writes) : new Map<string, AppendResult>();
    return Promise.all(appends.map((a) => results.get(a.streamId) ?? this.appendToStream(a.streamId, [])));
  }

  /** Writes the streams in one call of es_append_many: all of them, or (a conflict) none. */
  private async appendMany(writes: readonly StreamAppend[]): Promise<Map<string, AppendResult>> {
    const events = writes.flatMap((w) => w.events);
    try {
      const res = await this.appendQuery<{ stream_id: string; next_revision: string; tx_id: string; seq: string }>(
        `SELECT stream_id, next_revision, tx_id::text AS tx_id, seq
           FROM es_append_many($1::text[], $2::text[], $3::bigint[], $4::int[], $5::uuid[], $6::text[], $7::int[], $8::jsonb, $9::jsonb)`,
        [
          writes.map((w) => w.streamId),
          writes.map((w) => appendMode(w.expectedRevision)),
          writes.map((w) => (typeof w.expectedRevision === 'bigint' ? w.expectedRevision.toString() : null)),
          writes.map((w) => w.events.length),
          events.map((e) => e.id),
          events.map((e) => e.type),
          events.map((e) => e.version),
          JSON.stringify(events.map((e) => e.data)),
          JSON.stringify(events.map((e) => e.metadata)),
        ],
      );
      this.announce();
      return new Map(res.rows.map((r) => [r.stream_id, { nextRevision: BigInt(r.next_revision), position: { commit: BigInt(r.tx_id), prepare: BigInt(r.seq) } }]));
    } catch (e) {
      return this.explainFailedAppend(e, writes, (rest) => this.appendMany(rest));
    }
  }

  /**
   * Runs an append's statement. When PostgreSQL ended it to break a deadlock (40P01) or a
   * serialization conflict (40001), it runs it again, up to APPEND_ATTEMPTS times in all, after a
   * short random pause that grows: the statement is a transaction of its own, so nothing of the
   * attempt that failed remains. (Appends take their streams in stream-id order, migration 034, so
   * two appends do not deadlock one another; a transaction elsewhere that locks the same rows still can.)
   */
  private async appendQuery<R extends object>(sql: string, params: unknown[]) {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.pool.query<R>(sql, params);
      } catch (e) {
        const reason = RETRIED[(e as { code?: string }).code ?? ''];
        if (!reason || attempt >= APPEND_ATTEMPTS) throw e;
        this.onRetry(reason);
        await sleep(Math.random() * 10 * 2 ** attempt);
      }
    }
  }

  /**
   * A failed append is a conflict, or holds streams whose events are written already (a retry after
   * a lost answer, or a batch that repeats some of its writes): those are reported as written, and
   * the rest of the append, if any, goes to `again`. Otherwise it throws: WRONG_REVISION naming
   * every stale stream, or DUPLICATE_EVENT_ID.
   */
  private async explainFailedAppend(
    e: unknown,
    writes: readonly StreamAppend[],
    again: (rest: readonly StreamAppend[]) => Promise<Map<string, AppendResult>>,
  ): Promise<Map<string, AppendResult>> {
    const err = e as { code?: string; detail?: string; hint?: string };
    if (err.code === 'ES400') throw new Error(`a stream appears twice in one append: ${writes.map((w) => w.streamId).join(', ')}`);
    if (err.code !== 'ES409' && err.code !== '23505') throw this.mapError(e);
    const written = await this.alreadyAppended(writes);
    if (err.code === 'ES409') {
      const stale = staleOf(err, writes).filter((s) => !written.has(s.streamId));
      if (stale.length) throw wrongRevision(stale);
    } else if (written.size === 0) {
      throw AppError.conflict(EventStoreErrors.DUPLICATE_EVENT_ID, `an event id of this append already exists elsewhere`, {
        streamIds: writes.map((w) => w.streamId),
      });
    }
    const rest = writes.filter((w) => !written.has(w.streamId));
    return new Map([...written, ...(rest.length ? await again(rest) : [])]);
  }

  /** The appends whose events are all in their stream already, in order, with the results they had. */
  private async alreadyAppended(writes: readonly StreamAppend[]): Promise<Map<string, AppendResult>> {
    const res = await this.query<{ event_id: string; stream_id: string; revision: string; tx_id: string; seq: string }>(
      `SELECT event_id, stream_id, revision, tx_id::text AS tx_id, seq FROM es_events WHERE event_id = ANY($1::uuid[])`,
      [writes.flatMap((w) => w.events.map((e) => e.id))],
    );
    const byId = new Map(res.rows.map((r) => [r.event_id, r]));
    const out = new Map<string, AppendResult>();
    for (const w of writes) {
      const rows = w.events.map((e) => byId.get(e.id));
      const inPlace = rows.every((r, i) => r && r.stream_id === w.streamId && (i === 0 || BigInt(r.revision) === BigInt(rows[i - 1]!.revision) + 1n));
      if (!inPlace) continue;
      const last = rows[rows.length - 1]!;
      out.set(w.streamId, { nextRevision: BigInt(last.revision), position: { commit: BigInt(last.tx_id), prepare: BigInt(last.seq) } });
    }
    return out;
  }

  /**
   * Wakes readers (LISTEN es_events) after appends have committed: one NOTIFY per burst, sent after the
   * commits and outside them. A NOTIFY inside the appending transaction would take PostgreSQL's
   * cluster-wide notify lock through the commit's flush and make concurrent appends commit one by one.
   * Appends that finish while a NOTIFY is on its way get one more after it, so none goes unannounced.
   */
  private announce(): void {
    if (this.announcing) {
      this.announceAgain = true;
      return;
    }
    this.announcing = true;
    const send = (): void => {
      this.announceAgain = false;
      void this.pool
        .query(`SELECT pg_notify($1, '')`, [CHANNEL])
        .catch(() => undefined) // readers poll as a fallback
        .then(() => {
          if (this.announceAgain) send();
          else this.announcing = false;
        });
    };
    send();
  }

  async streamRevision(streamId: string): Promise<bigint | null> {
    const res = await this.query<{ revision: string }>(`SELECT revision FROM es_streams WHERE stream_id = $1`, [streamId]);
    return res.rows[0] ? BigInt(res.rows[0].revision) : null;
  }

  async readStream(streamId: string, opts: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const backwards = opts.direction === 'backwards';
    const params: unknown[] = [streamId];
    let where = `stream_id = $1`;
    if (opts.fromRevision !== undefined) {
      params.push(opts.fromRevision.toString());
      where += backwards ? ` AND revision <= $${params.length}` : ` AND revision >= $${params.length}`;
    }
    if (opts.until) {
      params.push(opts.until);
      where += ` AND recorded_at <= $${params.length}`;
    }
    let sql = `SELECT ${COLUMNS} FROM es_events WHERE ${where} ORDER BY revision ${backwards ? 'DESC' : 'ASC'}`;
    if (opts.maxCount !== undefined) {
      params.push(opts.maxCount);
      sql += ` LIMIT $${params.length}`;
    }
    const res = await this.query<EventRow>(sql, params);
    return res.rows.map(toRecorded);
  }

  async readAll(opts: ReadAllOptions): Promise<RecordedEvent[]> {
    const [xid, seq] = positionParams(opts.after);
    const patterns = prefixPatterns(opts.streamPrefixes);
    const params: unknown[] = [xid, seq, opts.limit];
    let where = '';
    if (patterns) where += ` AND stream_id LIKE ANY($${params.push(patterns)}::text[])`;
    if (opts.upTo) {
      const [uxid, useq] = positionParams(opts.upTo);
      where += ` AND (tx_id, seq) <= ($${params.push(uxid)}::bigint, $${params.push(useq)}::bigint)`;
    }
    const res = await this.query<EventRow>(
      `SELECT ${COLUMNS} FROM es_events
        WHERE (tx_id, seq) > ($1::bigint, $2::bigint) AND ${READABLE}${where}
        ORDER BY es_events.tx_id, es_events.seq
        LIMIT $3`,
      params,
    );
    return res.rows.map(toRecorded);
  }

  async headPosition(streamPrefixes?: readonly string[], opts: { committed?: boolean } = {}): Promise<LogPosition> {
    const patterns = prefixPatterns(streamPrefixes);
    const res = await this.query<{ tx_id: string; seq: string }>(
      `SELECT tx_id::text AS tx_id, seq FROM es_events WHERE ${opts.committed ? 'true' : READABLE} ${patterns ? 'AND stream_id LIKE ANY($1::text[])' : ''}
        ORDER BY es_events.tx_id DESC, es_events.seq DESC LIMIT 1`,
      patterns ? [patterns] : [],
    );
    const r = res.rows[0];
    return r ? { commit: BigInt(r.tx_id), prepare: BigInt(r.seq) } : START;
  }

  /**
   * Reads at most `cap` rows of the log after the position (its global-order index, whatever the
   * prefixes), so the cost is bounded at any lag: counting 800 000 rows per projection made every
   * status read take half a second. Within that window the count is exact; past it, the rows after
   * the position are taken from the sequence (the newest `seq` less the position's, which the
   * position carries) and the projection's share of them from the window: an estimate, `capped`.
   */
  async lagAfter(after: LogPosition, streamPrefixes?: readonly string[], cap = LAG_WINDOW): Promise<LogLag> {
    const [xid, seq] = positionParams(after);
    const patterns = prefixPatterns(streamPrefixes);
    const exact = !Number.isFinite(cap);
    const mine = patterns ? 'stream_id LIKE ANY($3::text[])' : 'true';
    // Every committed event counts, those the fence still holds back too: a stall is lag.
    const res = await this.query<{ scanned: string; n: string; oldest: Date | null; first: Date | null; newest: string | null }>(
      `SELECT count(*) AS scanned, count(*) FILTER (WHERE ${mine}) AS n,
              min(recorded_at) FILTER (WHERE ${mine}) AS oldest, min(recorded_at) AS first,
              (SELECT max(seq) FROM es_events)::text AS newest
         FROM (SELECT stream_id, recorded_at FROM es_events
                WHERE (tx_id, seq) > ($1::bigint, $2::bigint)
                ORDER BY tx_id, seq ${exact ? '' : `LIMIT ${Math.max(1, Math.floor(cap))}`}) w`,
      patterns ? [xid, seq, patterns] : [xid, seq],
    );
    const row = res.rows[0]!;
    const scanned = Number(row.scanned);
    const n = Number(row.n);
    if (exact || scanned < cap) return { events: n, capped: false, oldestRecordedAt: row.oldest };
    const rowsAfter = Math.max(scanned, Number(row.newest ?? 0) - Number(seq));
    // Behind by at least the window: the oldest of its own events seen, else the window's first.
    return { events: Math.max(n, Math.round((rowsAfter * n) / scanned)), capped: true, oldestRecordedAt: row.oldest ?? row.first };
  }

  /** The log's tables: events (inserted only) and streams (a row updated by every append). */
  async refreshStatistics(opts: { appended?: number; repeated?: boolean; log?: Logger } = {}): Promise<void> {
    await refreshPlannerStatistics(this.pool, ['es_events', 'es_streams'], { changedRows: opts.appended, repeated: opts.repeated, log: opts.log });
  }

  /**
   * The read fence: readers read below the oldest transaction still running anywhere in the cluster
   * (the fence), so one transaction left open (idle in transaction, a forgotten prepared transaction,
   * a slow batch) holds every reader back. Committed events at or above the fence, and the oldest
   * running transaction holding it: a session's, or a prepared one's.
   */
  async fence(): Promise<FenceStatus> {
    const held = await this.query<{ n: string; since: Date | null }>(
      `SELECT count(*) AS n, min(recorded_at) AS since FROM (SELECT recorded_at FROM es_events WHERE tx_id >= es_readable_below() LIMIT ${LAG_WINDOW}) h`,
    );
    const n = Number(held.rows[0]!.n);
    if (n === 0) return { heldBackEvents: 0, heldBackSince: null, holder: null };
    const holders = await this.query<{ pid: number | null; state: string; age: number; app: string | null; db: string | null; gid: string | null }>(
      `(SELECT pid, coalesce(state, 'unknown') AS state, extract(epoch FROM now() - xact_start)::float8 AS age, application_name AS app,
               datname::text AS db, NULL AS gid, age(backend_xid) AS xid_age
          FROM pg_stat_activity WHERE backend_xid IS NOT NULL AND pid <> pg_backend_pid())
       UNION ALL
       (SELECT NULL, 'prepared', extract(epoch FROM now() - prepared)::float8, NULL, database::text, gid, age(transaction)
          FROM pg_prepared_xacts)
       ORDER BY xid_age DESC LIMIT 1`,
    );
    const h = holders.rows[0];
    const holder: FenceHolder | null = h
      ? {
          pid: h.pid,
          state: h.state,
          ageSeconds: Math.round(h.age * 10) / 10,
          applicationName: h.app,
          database: h.db,
          ...(h.gid ? { preparedGid: h.gid } : {}),
        }
      : null;
    return { heldBackEvents: n, heldBackSince: held.rows[0]!.since, holder };
  }

  async watch(onAppend: () => void): Promise<() => Promise<void>> {
    return this.listener.subscribe(CHANNEL, () => onAppend());
  }

  /**
   * Run once at start-up, before anything is appended: when the log came from another cluster (a
   * restore, a promoted replica), raises the stamp offset so new events order after the stored ones.
   * Answers whether it had to.
   */
  async checkLogOrder(): Promise<boolean> {
    try {
      const r = await this.pool.query<{ before: string; after: string }>(`SELECT (SELECT tx_offset FROM es_log_epoch) AS before, es_check_epoch() AS after`);
      return r.rows[0]!.before !== r.rows[0]!.after;
    } catch (e) {
      // A schema not migrated yet (/readyz reports it): nothing can have been appended either.
      if (['42P01', '42883'].includes((e as { code?: string }).code ?? '')) return false;
      throw this.mapError(e);
    }
  }

  async ping(): Promise<void> {
    await this.query('SELECT 1 FROM es_streams LIMIT 1');
  }

  async close(): Promise<void> {
    // The pool and the listener belong to the composition root, which closes them.
  }

  private async query<R extends object>(sql: string, params: unknown[] = []) {
    try {
      return await this.pool.query<R>(sql, params);
    } catch (e) {
      throw this.mapError(e);
    }
  }

  private mapError(e: unknown): unknown {
    if (isTransientDbError(e)) return AppError.unavailable(EventStoreErrors.UNAVAILABLE, 'the event store is unavailable');
    return e;
  }
}
