/**
 * PostgreSQL access: one pool per process for commands and reads; projection runners and
 * notification listeners take dedicated clients of their own.
 */
import pg from 'pg';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
export type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'> | Pick<pg.Client, 'query'>;

// int8 and numeric stay strings: ids are 64-bit and money is exact decimal, neither fits a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => v);
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => v);

/** Limits every session of the service runs under (DB_STATEMENT_TIMEOUT_MS, DB_IDLE_IN_TRANSACTION_TIMEOUT_MS). */
export interface SessionLimits {
  statementTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = { statementTimeoutMs: 60_000, idleInTransactionTimeoutMs: 60_000 };

/**
 * How every connection of the service is opened. A transaction left open holds back every event
 * reader of the cluster (the read fence, see event-store/postgres.ts), and a connection whose client
 * vanished (a half-open TCP connection) would keep its locks, a projection leader's advisory lock
 * among them, for hours: so sessions end an idle transaction and a runaway statement, and both ends
 * probe the connection (TCP keep-alive) to notice a peer that is gone within about a minute.
 * Search's typo tolerance (src/catalog/search.ts) takes a word as a typo of another from a word
 * similarity of 0.55 (pg_trgm's default, 0.6, misses one changed letter of a six-letter word); a
 * server without pg_trgm keeps the setting as a placeholder, unused.
 */
function connectionConfig(connectionString: string, applicationName: string, limits: SessionLimits): pg.ClientConfig {
  return {
    connectionString,
    application_name: applicationName,
    connectionTimeoutMillis: 10_000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    ...(limits.statementTimeoutMs ? { statement_timeout: limits.statementTimeoutMs } : {}),
    ...(limits.idleInTransactionTimeoutMs ? { idle_in_transaction_session_timeout: limits.idleInTransactionTimeoutMs } : {}),
    options: '-c tcp_keepalives_idle=30 -c tcp_keepalives_interval=10 -c tcp_keepalives_count=3 -c pg_trgm.word_similarity_threshold=0.55',
  };
}

export function createPool(connectionString: string, max = 10, applicationName = 'catalog', limits: SessionLimits = DEFAULT_SESSION_LIMITS): Pool {
  const pool = new pg.Pool({ ...connectionConfig(connectionString, applicationName, limits), max });
  // An idle client losing its connection must not crash the process; the next checkout reconnects.
  pool.on('error', () => undefined);
  // Nor a checked-out one between two queries (the server ended an idle transaction, an operator
  // terminated the backend): the pool listens only to idle clients, and an 'error' event nobody
  // listens to ends the process. The holder's next query fails instead.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

export function createClient(connectionString: string, applicationName = 'catalog', limits: SessionLimits = DEFAULT_SESSION_LIMITS): pg.Client {
  return new pg.Client(connectionConfig(connectionString, applicationName, limits));
}

/** `fn` in one transaction on one pooled connection; `begin` may ask for another isolation or read-only. */
export async function withTransaction<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>, begin = 'BEGIN'): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(begin);
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}

/** Quotes an identifier for SQL text (table and schema names built at run time). */
export function ident(name: string): string {
  return '"' + name.replace(/"/g, '""') + '"';
}
