/**
 * A running service for integration tests: its own database, projection workers, a real HTTP
 * server on loopback, and (unless given an UPSTREAM_URL) the built-in simulator.
 */
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../src/config';
import { buildApp, closeServices, createServices, type Services } from '../../src/main';
import type { DestinationStream } from 'pino';
import { createLogger } from '../../src/platform/log';
import { createHttpServer } from '../../src/platform/http/server';
import { EventStoreDbAdapter } from '../../src/platform/event-store/eventstoredb';
import { createTestDatabase, type TestDatabase } from './db';
import { FakeKurrentDbClient } from './fake-kurrentdb';
import { expectDocumented } from './openapi-check';

export interface TestService {
  url: string;
  services: Services;
  db: TestDatabase;
  /** the fake KurrentDB client the service's event store talks to (`eventStore: 'kurrentdb'`), else null */
  kurrent: FakeKurrentDbClient | null;
  /** As the administrator (logged in at start), unless `headers` says otherwise or `anonymous` is set. */
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>, opts?: { anonymous?: boolean }): Promise<{ status: number; body: any; headers: Headers }>;
  /** the administrator's access token */
  adminToken: string;
  close(): Promise<void>;
}

export const ADMIN = { username: 'admin', password: 'correct horse battery staple' };

/** Registers the first user (or logs in when one exists) and returns its access token. */
async function adminSession(url: string): Promise<string> {
  const post = (path: string) => fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
  await post('/auth/register');
  const login = await post('/auth/login');
  const cookie = login.headers.getSetCookie().find((c) => c.startsWith('svc_at='));
  if (!login.ok || !cookie) throw new Error(`test admin could not log in: ${login.status}`);
  return cookie.slice('svc_at='.length).split(';')[0]!;
}

/** The event stores a service runs on in tests: postgres, or the KurrentDB adapter over a fake of its client (no server here). */
export const EVENT_STORES = ['postgres', 'kurrentdb'] as const;
export type EventStoreKind = (typeof EVENT_STORES)[number];

export async function startTestService(
  opts: { env?: Record<string, string>; db?: TestDatabase; workers?: boolean; login?: boolean; logTo?: DestinationStream; eventStore?: EventStoreKind } = {},
): Promise<TestService> {
  const db = opts.db ?? (await createTestDatabase());
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: db.url,
    JWT_SECRET: 'test-secret-that-is-at-least-32-characters-long',
    PROJECTION_POLL_MS: '50',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    SIMULATOR_LINKS: '200',
    ...opts.env,
  });
  const log = createLogger(config.logLevel, 'catalog', opts.logTo);
  const kurrent = opts.eventStore === 'kurrentdb' ? new FakeKurrentDbClient({ live: true, realClock: true }) : null;
  const services = await createServices(config, log, db.url, kurrent ? { store: new EventStoreDbAdapter(kurrent) } : {});
  if (opts.workers !== false) await services.engine.startRunners();
  const server = createHttpServer(buildApp(services), config.http);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const ownDb = !opts.db;
  const adminToken = opts.login === false ? '' : await adminSession(url);
  return {
    url,
    services,
    db,
    kurrent,
    adminToken,
    async request(method, path, body, headers = {}, o = {}) {
      const auth: Record<string, string> = adminToken && !o.anonymous ? { authorization: `Bearer ${adminToken}` } : {};
      const res = await fetch(url + path, {
        method,
        headers: { ...auth, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      // Whatever the test asserts, the answer is what the OpenAPI document says.
      expectDocumented(config.apiPrefix, method, path, { status: res.status, headers: res.headers, text, redirected: res.redirected });
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        /* not JSON: keep the text */
      }
      return { status: res.status, body: parsed, headers: res.headers };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await closeServices(services);
      if (ownDb) await db.drop();
    },
  };
}

/** After a suite: no projection stopped on a poison event along the way (its error says which). */
export async function expectNoFailedProjections(svc: TestService): Promise<void> {
  const failed = await svc.db.pool.query(`SELECT name, last_error FROM projection_checkpoints WHERE last_error IS NOT NULL`);
  expect(failed.rows).toEqual([]);
}
