/**
 * Operator commands: `catalog <command>` (or `npm run catalog -- <command>`). Each runs the same code
 * the service runs.
 */
import { Command, Option } from 'commander';
import { SingleBar, Presets } from 'cli-progress';
import { assertSupplierConfigured, loadConfig, ConfigError, type Config } from './config';
import { createLogger, type Logger } from './platform/log';
import { openDatabase, createServices, closeServices, startService, type Role, type Services } from './main';
import { describeFence } from './platform/event-store/fence';
import { migrate } from './platform/migrate';
import { LogMismatchError, REBUILD_ALL_COMMAND, checkLogIdentity } from './platform/log-identity';
import { rebuildAll } from './platform/projections/rebuild-all';
import { START, positionToString } from './platform/event-store/port';
import { ProjectionRunner } from './platform/projections/runner';
import { PICTURES_PATH, startSimulator } from './sync/simulator';
import { userInfo } from 'node:os';
import { getRun, type SyncKind } from './sync/runs';
import { Organiser } from './catalog/organisation/organise';
import { historyCommand } from './catalog/history/command';
import { AppError } from './platform/errors';
import { createPool, type Pool } from './platform/db';
import { UserStore } from './auth/users';
import { argon2Hasher } from './auth/passwords';
import { UserOperations, checkNewPassword } from './auth/operator';
import { promptHidden, readPasswordFromStream } from './auth/password-input';
import { apiDocument } from './openapi';
import { writeFile } from 'node:fs/promises';

const program = new Command('catalog').description('Event-sourced product catalog service');

/** Opens the database (embedded or DATABASE_URL), applies migrations and builds the services. */
async function withServices<T>(fn: (s: Services, config: Config, log: Logger) => Promise<T>, opts: { logLevel?: string; checkLog?: boolean; supplier?: boolean } = {}): Promise<T> {
  const config = loadConfig();
  // Commands that may talk to the supplier (synchronise, seed) need one in production; reading
  // status or the log, and rebuilding read models, do not.
  if (opts.supplier !== false) assertSupplierConfigured(config);
  const log = createLogger(opts.logLevel ?? (config.logLevel === 'info' ? 'warn' : config.logLevel), 'catalog', undefined, config.logFormat);
  const db = await openDatabase(config, log);
  try {
    await migrate({ databaseUrl: db.url });
    const services = await createServices(config, log, db.url);
    try {
      // Commands that read or write the catalog refuse, as the service does, a log that is not the read models' own.
      if (opts.checkLog !== false) await checkLogIdentity(services.pool, services.store);
      return await fn(services, config, log);
    } finally {
      await closeServices(services);
    }
  } finally {
    await db.stop();
  }
}

program
  .command('serve')
  .description('run the service: the API, the worker (projections, scheduled synchronisations), or both (all)')
  .addOption(new Option('--role <role>', 'which roles this process runs').choices(['all', 'api', 'worker']).default('all'))
  .action(async (opts: { role: 'all' | 'api' | 'worker' }) => {
    const config = loadConfig();
    const log = createLogger(config.logLevel, 'catalog', undefined, config.logFormat);
    const roles: Role[] = opts.role === 'all' ? ['api', 'worker'] : [opts.role];
    // A signal during start-up stops it as soon as it is up, the same orderly way.
    let stopping: string | null = null;
    let firstSignalAt = 0;
    let running: Awaited<ReturnType<typeof startService>> | null = null;
    const shutdown = (signal: string) => {
      if (stopping) {
        // The same Ctrl-C can arrive twice (through npm); one pressed again later means: now.
        if (Date.now() - firstSignalAt < 1000) return;
        log.warn({ signal }, 'stopping now, without waiting for the work under way');
        running?.abort();
        process.exit(130);
      }
      stopping = signal;
      firstSignalAt = Date.now();
      if (!running) return void log.info({ signal }, 'stopping once started');
      log.info({ signal }, signal === 'SIGINT' ? 'shutting down (Ctrl-C again stops at once)' : 'shutting down');
      running.close().then(
        () => {
          log.info('stopped');
          process.exit(0);
        },
        (e) => {
          log.error({ err: e }, 'shutdown failed');
          process.exit(1);
        },
      );
    };
    // SIGHUP: the terminal closed; without this the embedded PostgreSQL would be left running.
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => shutdown(signal));
    running = await startService(config, log, roles);
    if (stopping) {
      const signal = stopping;
      stopping = null;
      shutdown(signal);
    }
  });

program
  .command('migrate')
  .description('apply pending database migrations')
  .action(async () => {
    const config = loadConfig();
    const log = createLogger(config.logLevel, 'catalog', undefined, config.logFormat);
    const db = await openDatabase(config, log);
    try {
      const applied = await migrate({ databaseUrl: db.url, log: (m) => log.debug(m) });
      log.info({ applied }, applied.length ? `applied ${applied.length} migration(s)` : 'schema up to date');
    } finally {
      await db.stop();
    }
  });

const projections = program.command('projections').description('projection status and rebuilds');

projections
  .command('status')
  .description("each projection's checkpoint, lag and state")
  .option('--json', 'print JSON')
  .action(async (opts: { json?: boolean }) => {
    await withServices(
      async (s) => {
        const [items, fence] = await Promise.all([s.engine.status(), s.engine.fence()]);
        if (opts.json) {
          process.stdout.write(JSON.stringify({ items, fence }, null, 2) + '\n');
          return;
        }
        if (fence?.heldBackEvents) process.stdout.write(describeFence(fence) + '\n');
        if (items.length === 0) process.stdout.write('no projections defined\n');
        for (const p of items) {
          process.stdout.write(
            `${p.name.padEnd(24)} ${p.state.padEnd(10)} position ${p.position.padEnd(20)} lag ${`${p.lagApproximate ? '~' : ''}${p.lagEvents}`.padStart(8)} events / ${p.lagSeconds.toFixed(1)} s` +
              (p.lastError ? `\n  last error: ${JSON.stringify(p.lastError)}` : '') +
              '\n',
          );
        }
      },
      { checkLog: false, supplier: false },
    );
  });

projections
  .command('rebuild [name]')
  .description('rebuild a projection from the start of the log into shadow tables, then swap them in; --all: every read model from scratch')
  .option('--all', `empty every read model, record this event log as theirs and replay it (after the log changed; stop every worker first)`)
  .action(async (name: string | undefined, o: { all?: boolean }) => {
    if (o.all) {
      await withServices(
        async (s, _config, log) => {
          const bar = new SingleBar({ format: 'rebuild --all [{bar}] {value}/{total} events', hideCursor: true }, Presets.shades_classic);
          bar.start(1, 0);
          try {
            const r = await rebuildAll(
              { pool: s.pool, store: s.store, engine: s.engine, log },
              { onProgress: (done, total) => (bar.setTotal(Math.max(total, 1)), bar.update(done)) },
            );
            bar.stop();
            process.stdout.write(
              `every read model rebuilt from event log ${r.logId}` +
                (r.previousLogId && r.previousLogId !== r.logId ? ` (they had been built from ${r.previousLogId})` : '') +
                '\n',
            );
          } finally {
            bar.stop();
          }
        },
        { checkLog: false, supplier: false },
      );
      return;
    }
    if (!name) throw new Error(`rebuild which projection? name one, or --all (${REBUILD_ALL_COMMAND})`);
    await withServices(async (s, config, log) => {
      const def = s.engine.definition(name);
      const before = (await s.engine.progress()).find((p) => p.name === name)!;
      // Counted once, exactly; the loop below reads only the checkpoint rows.
      const total = (await s.store.lagAfter(START, def.streamPrefixes, Number.POSITIVE_INFINITY)).events;
      await s.engine.requestRebuild(name);
      // Lead the rebuild here unless a running worker already leads this projection.
      const runner = new ProjectionRunner({
        definition: def,
        store: s.store,
        registry: s.registry,
        databaseUrl: s.databaseUrl,
        batchSize: config.projections.batchSize,
        pollMs: 200,
        log,
      });
      await runner.start();
      const bar = new SingleBar({ format: `rebuild ${name} [{bar}] {percentage}% | {value}/{total} events | {eta_formatted} left`, hideCursor: true }, Presets.shades_classic);
      bar.start(Math.max(total, 1), 0);
      try {
        for (;;) {
          const st = (await s.engine.progress()).find((p) => p.name === name)!;
          if (st.rebuild) {
            bar.setTotal(Math.max(total, st.rebuild.eventsDone, 1));
            bar.update(st.rebuild.eventsDone);
          }
          if (st.lastRebuildAt && st.lastRebuildAt !== before.lastRebuildAt && st.state === 'running') {
            bar.update(bar.getTotal());
            break;
          }
          if (st.state === 'failed') throw new Error(`rebuild failed: ${JSON.stringify(st.lastError)}`);
          await new Promise((r) => setTimeout(r, 250));
        }
      } finally {
        bar.stop();
        await runner.stop();
      }
      process.stdout.write(`${name} rebuilt and swapped in\n`);
    });
  });

projections
  .command('retry <name>')
  .description('after fixing the code behind a poison event: apply it again')
  .action(async (name: string) => {
    await withServices(async (s) => {
      process.stdout.write((await s.engine.retry(name)) ? `${name}: retrying\n` : `${name} was not failed\n`);
    });
  });

const events = program.command('events').description('the event log');

events
  .command('tail')
  .description('print events as they are appended (JSON lines)')
  .option('--from-start', 'begin at the start of the log instead of its end')
  .option('--prefix <prefix...>', 'only streams with these id prefixes (e.g. link- family-)')
  .option('--limit <n>', 'stop after n events', (v) => Number(v))
  .action(async (opts: { fromStart?: boolean; prefix?: string[]; limit?: number }) => {
    await withServices(
      async (s) => {
        let after = opts.fromStart ? START : await s.store.headPosition(opts.prefix);
        let printed = 0;
        let wake: () => void = () => undefined;
        const stop = await s.store.watch(() => wake());
        let stopping = false;
        process.once('SIGINT', () => {
          stopping = true;
          wake();
        });
        try {
          while (!stopping && (opts.limit === undefined || printed < opts.limit)) {
            const batch = await s.store.readAll({ after, limit: 500, streamPrefixes: opts.prefix });
            for (const e of batch) {
              if (opts.limit !== undefined && printed >= opts.limit) break;
              process.stdout.write(
                JSON.stringify({
                  position: positionToString(e.position),
                  stream: e.streamId,
                  revision: e.revision.toString(),
                  type: e.type,
                  version: e.version,
                  data: e.data,
                  metadata: e.metadata,
                  recordedAt: e.recordedAt,
                }) + '\n',
              );
              printed++;
            }
            if (batch.length) after = batch[batch.length - 1]!.position;
            else await new Promise<void>((r) => ((wake = r), setTimeout(r, 1000)));
          }
        } finally {
          await stop();
        }
      },
      { checkLog: false, supplier: false },
    ); // it only reads the log
  });

historyCommand(program, withServices);

const SYNC_KINDS: Record<string, SyncKind> = { categories: 'categories', goods: 'origin_goods', details: 'details' };

program
  .command('sync <what>')
  .description('synchronise from the supplier: categories (and countries), goods (links), or details')
  .option('--only-unsynced', 'details: only links never synced')
  .option('--link <id>', 'details: one link, also when already synced')
  .option('--dry-run', 'report the diff without appending anything')
  .option('--confirm-delist', 'goods: delist every link missing from the listing, even past SYNC_DELIST_MAX_SHARE')
  .action(async (what: string, o: { onlyUnsynced?: boolean; link?: string; dryRun?: boolean; confirmDelist?: boolean }) => {
    const kind = SYNC_KINDS[what];
    if (!kind) throw new Error(`sync what? one of: ${Object.keys(SYNC_KINDS).join(', ')}`);
    const failed = await withServices(async (s) => {
      // Lead the projections here unless a running service does, so the read models catch up.
      await s.engine.startRunners();
      const { runId, finished } = await s.sync.start(kind, {
        dryRun: o.dryRun,
        onlyUnsynced: o.onlyUnsynced,
        linkId: o.link,
        confirmDelist: o.confirmDelist,
        by: `operator:${userInfo().username}`,
      });
      const bar = new SingleBar({ format: `sync ${what} [{bar}] {value}/{total} | {counts}`, hideCursor: true }, Presets.shades_classic);
      bar.start(1, 0, { counts: '' });
      let done = false;
      void finished.finally(() => (done = true));
      while (!done) {
        const r = await getRun(s.pool, runId);
        if (r) {
          bar.setTotal(Math.max(r.progress.total ?? r.progress.done, r.progress.done, 1));
          bar.update(r.progress.done, { counts: `created ${r.counts.created} changed ${r.counts.changed} delisted ${r.counts.delisted}` });
        }
        await Promise.race([finished, new Promise((r) => setTimeout(r, 250))]);
      }
      const run = await finished;
      bar.update(run.progress.done, { counts: '' });
      bar.stop();
      process.stdout.write(JSON.stringify({ runId, state: run.state, dryRun: run.dryRun, counts: run.counts, held: run.held, errors: run.errors.slice(0, 20) }, null, 2) + '\n');
      return run.state !== 'succeeded';
    });
    if (failed) process.exitCode = 1;
  });

program
  .command('organise')
  .alias('organize')
  .description('organise links into families: parse names, derive tags, auto-group, consolidate; prints the report')
  .option('--group-only', 'only the auto-group step')
  .action(async (o: { groupOnly?: boolean }) => {
    await withServices(async (s) => {
      await s.engine.startRunners();
      const organiser = new Organiser(s);
      const bar = new SingleBar({ format: 'organise {phase} [{bar}] {value}/{total}', hideCursor: true }, Presets.shades_classic);
      bar.start(1, 0, { phase: 'parse' });
      const timer = setInterval(() => {
        const p = organiser.progress;
        bar.setTotal(Math.max(p.total, 1));
        bar.update(p.done, { phase: p.phase ?? '' });
      }, 250);
      try {
        const report = await organiser.organise(`operator:${userInfo().username}`, { groupOnly: o.groupOnly });
        bar.update(bar.getTotal(), { phase: 'done' });
        bar.stop();
        process.stdout.write(JSON.stringify(report, null, 2) + '\n');
      } finally {
        clearInterval(timer);
        bar.stop();
      }
    });
  });

/** Opens the database and applies migrations, without the rest of the services (no supplier, no event log). */
async function withDatabase<T>(fn: (pool: Pool) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, 'catalog', undefined, config.logFormat);
  const db = await openDatabase(config, log);
  try {
    await migrate({ databaseUrl: db.url });
    const pool = createPool(db.url, 2, 'catalog-cli', config.databaseSession);
    try {
      return await fn(pool);
    } finally {
      await pool.end();
    }
  } finally {
    await db.stop();
  }
}

const userOperations = (pool: Pool) => new UserOperations(new UserStore(pool), argon2Hasher);

const users = program.command('users').description('the users who may sign in: list, delete, reset a password');

users
  .command('list')
  .description('every user: id, name, role, when created and last changed')
  .option('--json', 'print JSON')
  .action(async (o: { json?: boolean }) => {
    const all = await withDatabase((pool) => userOperations(pool).list());
    if (o.json) return void process.stdout.write(JSON.stringify(all, null, 2) + '\n');
    if (all.length === 0) return void process.stdout.write('no users (the first to call POST /auth/register becomes the administrator)\n');
    for (const u of all) process.stdout.write(`${u.id.padEnd(20)} ${u.username.padEnd(24)} ${u.role.padEnd(6)} created ${u.createdAt}  changed ${u.updatedAt}\n`);
  });

users
  .command('delete <username>')
  .description('delete a user; every token issued to it is refused from then on')
  .option('--force', 'also when it is the last user (registration opens again to whoever comes first)')
  .action(async (username: string, o: { force?: boolean }) => {
    const user = await withDatabase((pool) => userOperations(pool).delete(username, { force: o.force }));
    process.stdout.write(`deleted user ${user.username} (${user.id}); its tokens are revoked\n`);
  });

users
  .command('reset-password <username>')
  .description("set a user's password (asked twice on a terminal, never echoed); every token issued before is revoked")
  .option('--password-stdin', 'read the new password from piped standard input (one trailing line break is dropped)')
  .action(async (username: string, o: { passwordStdin?: boolean }) => {
    const user = await withDatabase(async (pool) => {
      const ops = userOperations(pool);
      // An unknown name is said before anyone types a password for it.
      await ops.find(username);
      return ops.resetPassword(username, await newPasswordFromOperator(o.passwordStdin === true));
    });
    process.stdout.write(`password of ${user.username} (${user.id}) reset; its earlier tokens are revoked\n`);
  });

/** From piped standard input when asked, else from a prompt; never from an argument (shell history, `ps`). */
async function newPasswordFromOperator(fromStdin: boolean): Promise<string> {
  if (!process.stdin.isTTY) {
    if (!fromStdin) throw AppError.badRequest('USER.PASSWORD_REFUSED', 'no terminal to ask on: pipe the password with --password-stdin');
    return readPasswordFromStream(process.stdin);
  }
  // A terminal, with or without --password-stdin: asked without echo, never read as typed (echoed) lines.
  const first = await promptHidden('new password: ', process.stdin, process.stderr);
  // Checked before asking again, so a too-short password is not typed twice for nothing.
  checkNewPassword(first);
  const again = await promptHidden('again: ', process.stdin, process.stderr);
  if (again !== first) throw AppError.badRequest('USER.PASSWORD_REFUSED', 'the two passwords differ; nothing changed');
  return first;
}

program
  .command('openapi')
  .description('write the OpenAPI 3.1 description of every route (the one /docs serves in development)')
  .option('--out <file>', 'where to write it; - for standard output', 'openapi.json')
  .action(async (o: { out: string }) => {
    // Only API_PREFIX matters (the paths carry it); no database, no supplier.
    const text = JSON.stringify(apiDocument(loadConfig().apiPrefix), null, 2) + '\n';
    if (o.out === '-') return void process.stdout.write(text);
    await writeFile(o.out, text);
    process.stderr.write(`wrote ${o.out}\n`);
  });

program
  .command('simulator')
  .description('serve the built-in supplier simulator (the contract of docs/supplier.md)')
  .option('--links <n>', 'number of links (50 to 200000)', (v) => Number(v), 2000)
  .option('--seed <s>', 'catalog seed', (v) => Number(v), 1)
  .option('--port <p>', 'port', (v) => Number(v), 4010)
  .option('--host <h>', 'interface', '127.0.0.1')
  .option('--token <t>', 'require this bearer token')
  .option('--public-url <url>', 'where browsers reach it, for the addresses of its pictures (default: its own address)')
  .option('--latency <ms>', 'delay every response', (v) => Number(v), 0)
  .option('--rate-limit-every <n>', 'answer every nth request with 429', (v) => Number(v), 0)
  .option('--truncate-every <n>', 'truncate every nth JSON body', (v) => Number(v), 0)
  .action(
    async (o: { links: number; seed: number; port: number; host: string; token?: string; publicUrl?: string; latency: number; rateLimitEvery: number; truncateEvery: number }) => {
      if (o.publicUrl !== undefined && !/^https?:\/\/[^/\s]+/.test(o.publicUrl)) throw new ConfigError(['--public-url: expected an http(s) address such as http://localhost:4010']);
      const sim = await startSimulator({
        links: o.links,
        seed: o.seed,
        port: o.port,
        host: o.host,
        token: o.token,
        ...(o.publicUrl !== undefined ? { pictures: `${o.publicUrl.replace(/\/+$/, '')}${PICTURES_PATH}` } : {}),
      });
      sim.faults.latencyMs = o.latency;
      sim.faults.rateLimitEvery = o.rateLimitEvery;
      sim.faults.truncateEvery = o.truncateEvery;
      process.stdout.write(`supplier simulator: ${o.links} links (seed ${o.seed}) at ${sim.url}; pictures at ${sim.catalog.pictures.base}/\n`);
      process.once('SIGINT', () => void sim.close().then(() => process.exit(0)));
      process.once('SIGTERM', () => void sim.close().then(() => process.exit(0)));
    },
  );

program.parseAsync(process.argv).catch((e: unknown) => {
  if (e instanceof ConfigError || e instanceof LogMismatchError) {
    process.stderr.write(e.message + '\n');
    process.exit(e instanceof LogMismatchError ? e.exitCode : 2);
  }
  // An operator's mistake, not a failure: something named that does not exist (a user, a projection): 3; refused input: 4.
  if (e instanceof AppError && e.status < 500) {
    process.stderr.write(`${e.code}: ${e.message}\n`);
    process.exit(e.status === 404 ? 3 : 4);
  }
  process.stderr.write((e instanceof Error ? (e.stack ?? e.message) : String(e)) + '\n');
  process.exit(1);
});
