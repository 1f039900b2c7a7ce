/**
 * What read-model tables hold, as a canonical digest that two databases (or one before and after a
 * rebuild) can be compared by: a digest per row (the row as PostgreSQL prints it), then one of the
 * sorted row digests per table. The bench checks the rebuild with it (rows identical before and
 * after), and the replay test compares an old log's replay with the rows it gave when it was written
 * (docs/architecture.md, Replaying an old log).
 */
import type pg from 'pg';
import { ident } from '../db';

export interface TableDigest {
  rows: number;
  /** md5 of the sorted row digests; '-' for an empty table */
  digest: string;
}

/** Row text depends on these session settings; fixed so a digest means the same on every server. */
const CANONICAL = `SET LOCAL TimeZone = 'UTC'; SET LOCAL DateStyle = 'ISO, YMD'; SET LOCAL IntervalStyle = 'postgres'; SET LOCAL extra_float_digits = 1`;

async function canonically<T>(pool: pg.Pool, fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  const c = await pool.connect();
  try {
    await c.query('BEGIN READ ONLY');
    await c.query(CANONICAL);
    const out = await fn(c);
    await c.query('COMMIT');
    return out;
  } catch (e) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    c.release();
  }
}

/** Per table of `tables` (those that exist in `public`), its row count and digest. */
export async function tableDigests(pool: pg.Pool, tables: readonly string[]): Promise<Map<string, TableDigest>> {
  return canonically(pool, async (c) => {
    const out = new Map<string, TableDigest>();
    const present = await c.query<{ t: string }>(`SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public' AND table_name = ANY($1)`, [tables]);
    const have = new Set(present.rows.map((r) => r.t));
    for (const t of tables) {
      if (!have.has(t)) continue;
      // A digest per row, then of the sorted digests: the aggregate stays small on a large catalogue.
      const r = await c.query<{ n: string; h: string | null }>(
        `SELECT count(*) AS n, md5(string_agg(h, '' ORDER BY h)) AS h FROM (SELECT md5(x::text) AS h FROM public.${ident(t)} x) d`,
      );
      out.set(t, { rows: Number(r.rows[0]!.n), digest: r.rows[0]!.h ?? '-' });
    }
    return out;
  });
}

/** Every row of a table as text with its digest, sorted by digest (to show which rows differ). */
export async function tableRows(pool: pg.Pool, table: string): Promise<{ digest: string; row: string }[]> {
  return canonically(pool, async (c) => {
    const r = await c.query<{ digest: string; row: string }>(`SELECT md5(x::text) AS digest, x::text AS row FROM public.${ident(table)} x ORDER BY 1`);
    return r.rows;
  });
}
