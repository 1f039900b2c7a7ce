/**
 * The `postgres` event-store adapter (migrations/001_event-store.sql).
 *
 * Global order is (tx_id, seq). Readers read only below the oldest running transaction
 * (`pg_snapshot_xmin`), so an event whose transaction took a lower seq but commits later is never
 * skipped: readers simply do not pass it until it has committed or aborted.
 */
import { AppError, isTransientDbError } from '../errors';
import type { Pool } from '../db';
import type { PgListener } from '../pg-listener';
import {
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  type LogLag,
  type LogPosition,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  EventStoreErrors,
  START,
} from './port';

const CHANNEL = 'es_events';
// The text form of tx_id is selected under the same name: every ORDER BY must name es_events.tx_id,
// or PostgreSQL sorts by the output column, as text ("10000" < "9999"), skipping events.
const COLUMNS = `seq, tx_id::text AS tx_id, event_id, stream_id, revision, type, version, data, metadata, recorded_at`;
const READABLE = `tx_id < pg_snapshot_xmin(pg_current_snapshot())`;

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
function positionParams(p: LogPosition): [string, string] {
  return p.commit < 0n ? ['0', '-1'] : [p.commit.toString(), p.prepare.toString()];
}

function prefixPatterns(prefixes: readonly string[] | undefined): string[] | null {
  if (!prefixes || prefixes.length === 0) return null;
  return prefixes.map((p) => p.replace(/[\\%_]/g, (c) => '\\' + c) + '%');
}

export class PostgresEventStore implements EventStore {
  readonly kind = 'postgres' as const;

  constructor(
    private readonly pool: Pool,
    private readonly listener: PgListener,
  ) {}

  async appendToStream(
    streamId: string,
    events: readonly EventToAppend[],
    opts: { expectedRevision?: ExpectedRevision } = {},
  ): Promise<AppendResult> {
    const expected = opts.expectedRevision ?? 'any';
    if (events.length === 0) {
      const rev = await this.streamRevision(streamId);
      return { nextRevision: rev ?? -1n, position: START };
    }
    const mode = expected === 'any' || expected === 'no_stream' ? expected : 'exact';
    try {
      const res = await this.pool.query<{ next_revision: string; tx_id: string; seq: string }>(
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
      return { nextRevision: BigInt(row.next_revision), position: { commit: BigInt(row.tx_id), prepare: BigInt(row.seq) } };
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code === 'ES409' || code === '23505') {
        // Either a real conflict or the same events sent again (a retry): the latter is a no-op.
        const again = await this.alreadyAppended(streamId, events);
        if (again) return again;
        if (code === '23505') {
          throw AppError.conflict(EventStoreErrors.DUPLICATE_EVENT_ID, `an event id of this append already exists elsewhere`, { streamId });
        }
        const actual = (e as { detail?: string }).detail ?? 'unknown';
        throw AppError.conflict(EventStoreErrors.WRONG_REVISION, `stream ${streamId} is at revision ${actual}, expected ${String(expected)}`, {
          streamId,
          expected: String(expected),
          actual,
        });
      }
      throw this.mapError(e);
    }
  }

  /** The append's events are all in this stream already, in order: report that append's result. */
  private async alreadyAppended(streamId: string, events: readonly EventToAppend[]): Promise<AppendResult | null> {
    const res = await this.pool.query<{ event_id: string; stream_id: string; revision: string; tx_id: string; seq: string }>(
      `SELECT event_id, stream_id, revision, tx_id::text AS tx_id, seq FROM es_events WHERE event_id = ANY($1::uuid[]) ORDER BY revision`,
      [events.map((e) => e.id)],
    );
    if (res.rows.length !== events.length) return null;
    for (let i = 0; i < events.length; i++) {
      const r = res.rows[i]!;
      if (r.stream_id !== streamId || r.event_id !== events[i]!.id) return null;
      if (i > 0 && BigInt(r.revision) !== BigInt(res.rows[i - 1]!.revision) + 1n) return null;
    }
    const last = res.rows[res.rows.length - 1]!;
    return { nextRevision: BigInt(last.revision), position: { commit: BigInt(last.tx_id), prepare: BigInt(last.seq) } };
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
      where += ` AND (tx_id, seq) <= ($${params.push(uxid)}::xid8, $${params.push(useq)}::bigint)`;
    }
    const res = await this.query<EventRow>(
      `SELECT ${COLUMNS} FROM es_events
        WHERE (tx_id, seq) > ($1::xid8, $2::bigint) AND ${READABLE}${where}
        ORDER BY es_events.tx_id, es_events.seq
        LIMIT $3`,
      params,
    );
    return res.rows.map(toRecorded);
  }

  async headPosition(streamPrefixes?: readonly string[]): Promise<LogPosition> {
    const patterns = prefixPatterns(streamPrefixes);
    const res = await this.query<{ tx_id: string; seq: string }>(
      `SELECT tx_id::text AS tx_id, seq FROM es_events WHERE ${READABLE} ${patterns ? 'AND stream_id LIKE ANY($1::text[])' : ''}
        ORDER BY es_events.tx_id DESC, es_events.seq DESC LIMIT 1`,
      patterns ? [patterns] : [],
    );
    const r = res.rows[0];
    return r ? { commit: BigInt(r.tx_id), prepare: BigInt(r.seq) } : START;
  }

  async lagAfter(after: LogPosition, streamPrefixes?: readonly string[], cap = 1_000_000): Promise<LogLag> {
    const [xid, seq] = positionParams(after);
    const patterns = prefixPatterns(streamPrefixes);
    const res = await this.query<{ n: string; oldest: Date | null }>(
      `SELECT count(*) AS n, min(recorded_at) AS oldest FROM (
         SELECT recorded_at FROM es_events
          WHERE (tx_id, seq) > ($1::xid8, $2::bigint) AND ${READABLE}
            ${patterns ? 'AND stream_id LIKE ANY($4::text[])' : ''}
          ORDER BY tx_id, seq LIMIT $3) pending`,
      patterns ? [xid, seq, cap, patterns] : [xid, seq, cap],
    );
    const n = Number(res.rows[0]!.n);
    return { events: n, capped: n >= cap, oldestRecordedAt: res.rows[0]!.oldest };
  }

  async watch(onAppend: () => void): Promise<() => Promise<void>> {
    return this.listener.subscribe(CHANNEL, () => onAppend());
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
