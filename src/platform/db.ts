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

export function createPool(connectionString: string, max = 10, applicationName = 'catalog'): Pool {
  const pool = new pg.Pool({ connectionString, max, application_name: applicationName, connectionTimeoutMillis: 10_000 });
  // An idle client losing its connection must not crash the process; the next checkout reconnects.
  pool.on('error', () => undefined);
  return pool;
}

export function createClient(connectionString: string, applicationName = 'catalog'): pg.Client {
  return new pg.Client({ connectionString, application_name: applicationName, connectionTimeoutMillis: 10_000 });
}

export async function withTransaction<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
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
