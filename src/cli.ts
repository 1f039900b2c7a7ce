/**
 * Operator commands: `catalog <command>`. Each one runs the same code the service runs.
 */
import { Command } from 'commander';
import { loadConfig, ConfigError } from './config';
import { createLogger } from './platform/log';
import { openDatabase } from './main';
import { migrate } from './platform/migrate';

const program = new Command('catalog').description('Event-sourced product catalog service');

program
  .command('migrate')
  .description('apply pending database migrations')
  .action(async () => {
    const config = loadConfig();
    const log = createLogger(config.logLevel);
    const db = await openDatabase(config, log);
    try {
      const applied = await migrate({ databaseUrl: db.url, log: (m) => log.debug(m) });
      log.info({ applied }, applied.length ? `applied ${applied.length} migration(s)` : 'schema up to date');
    } finally {
      await db.stop();
    }
  });

program.parseAsync(process.argv).catch((e: unknown) => {
  if (e instanceof ConfigError) {
    process.stderr.write(e.message + '\n');
    process.exit(2);
  }
  process.stderr.write((e instanceof Error ? e.stack ?? e.message : String(e)) + '\n');
  process.exit(1);
});
