/**
 * Schema migrations: numbered SQL files in `migrations/`, applied by node-pg-migrate at start-up and
 * by `catalog migrate`. node-pg-migrate takes an advisory lock and gives up at once when another
 * process holds it; two processes starting together must both succeed, so the loser waits and
 * tries again (it then finds nothing left to do).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { runner } from 'node-pg-migrate';
import type { Pool } from './db';

export const MIGRATIONS_DIR = path.resolve(__dirname, '../../migrations');
const TABLE = 'pgmigrations';
/** A migration is a numbered SQL file; the folder also holds its README and the schema snapshot. */
const MIGRATION_FILE = /^\d+.*\.sql$/;

export interface MigrateOptions {
  databaseUrl: string;
  log?: (msg: string) => void;
  /** how long to wait for another process's migration run */
  lockTimeoutMs?: number;
}

export async function migrate({ databaseUrl, log = () => undefined, lockTimeoutMs = 120_000 }: MigrateOptions): Promise<string[]> {
  const deadline = Date.now() + lockTimeoutMs;
  for (let attempt = 0; ; attempt++) {
    try {
      const applied = await runner({
        databaseUrl,
        dir: MIGRATIONS_DIR,
        // node-pg-migrate loads every file it does not ignore (anchored: ^…$).
        ignorePattern: `(?!${MIGRATION_FILE.source.slice(1)}).*`,
        migrationsTable: TABLE,
        direction: 'up',
        count: Infinity,
        checkOrder: true,
        log,
        logger: { debug: () => undefined, info: log, warn: log, error: log },
        verbose: false,
      });
      return applied.map((m) => m.name);
    } catch (e) {
      const busy = e instanceof Error && /Another migration is already running/.test(e.message);
      if (!busy || Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, Math.min(2000, 50 * 2 ** attempt)));
    }
  }
}

export function migrationFiles(): string[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((f) => MIGRATION_FILE.test(f))
    .map((f) => f.replace(/\.sql$/, ''))
    .sort();
}

/** Names of migration files not yet applied to the database (for /readyz). */
export async function pendingMigrations(pool: Pool): Promise<string[]> {
  const exists = await pool.query(`SELECT to_regclass($1) AS t`, [TABLE]);
  const applied = new Set<string>();
  if (exists.rows[0]?.t) {
    const rows = await pool.query<{ name: string }>(`SELECT name FROM ${TABLE}`);
    for (const r of rows.rows) applied.add(r.name);
  }
  return migrationFiles().filter((f) => !applied.has(f));
}
