/** Builds a postgres event store over a test database, with the process-wide listener it needs. */
import { PgListener } from '../../src/platform/pg-listener';
import { PostgresEventStore } from '../../src/platform/event-store/postgres';
import type { TestDatabase } from './db';

export function postgresStore(db: TestDatabase): { store: PostgresEventStore; listener: PgListener; close(): Promise<void> } {
  const listener = new PgListener(db.url);
  const store = new PostgresEventStore(db.pool, listener);
  return { store, listener, close: () => listener.close() };
}
