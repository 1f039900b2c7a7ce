/**
 * Composition root: config → database → event store → roles (api, worker, scheduler).
 */
import type { Config } from './config';
import { startEmbeddedPostgres } from './platform/embedded-db';
import type { Logger } from './platform/log';

export interface OpenDatabase {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
}

/** DATABASE_URL when set; otherwise the embedded server under the data directory. */
export async function openDatabase(config: Config, log: Logger): Promise<OpenDatabase> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: false, stop: async () => undefined };
  log.info({ dataDir: config.dataDir, port: config.embeddedPgPort }, 'DATABASE_URL unset: starting the embedded PostgreSQL');
  const embedded = await startEmbeddedPostgres({
    dataDir: config.dataDir,
    port: config.embeddedPgPort,
    log: (m) => log.debug({ component: 'embedded-pg' }, m),
  });
  return { url: embedded.url, embedded: true, stop: embedded.stop };
}
