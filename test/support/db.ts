/**
 * A database of its own for a test file, cloned from the migrated template that global set-up made.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createPool, type Pool } from '../../src/platform/db';

export interface TestDatabase {
  url: string;
  name: string;
  pool: Pool;
  drop(): Promise<void>;
}

function adminUrl(): string {
  const url = process.env.TEST_PG_ADMIN_URL;
  if (!url) throw new Error('TEST_PG_ADMIN_URL unset: run the tests through jest (global set-up)');
  return url;
}

export function databaseUrl(name: string): string {
  const u = new URL(adminUrl());
  u.pathname = '/' + name;
  return u.toString();
}

export async function createTestDatabase(opts: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const name = `catalog_t_${randomBytes(5).toString('hex')}`;
  const template = opts.migrated === false ? 'template1' : process.env.TEST_PG_TEMPLATE!;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
        break;
      } catch (e) {
        // Two files cloning the template at the same instant: "source database is being accessed".
        if (attempt > 20 || !/being accessed by other users/.test(String(e))) throw e;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
  } finally {
    await admin.end();
  }
  const url = databaseUrl(name);
  const pool = createPool(url, 10, 'catalog-test');
  return {
    url,
    name,
    pool,
    async drop() {
      await pool.end();
      const a = new pg.Client({ connectionString: adminUrl() });
      await a.connect();
      try {
        await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await a.end();
      }
    },
  };
}
