/**
 * HTTP helpers for the auth and security-envelope tests: services on a database of their own, apps
 * built by `buildApp` served on loopback, and cookie handling for global fetch.
 *
 * Every `app()` call builds a fresh application on the same services, so each gets fresh in-memory
 * throttle counters: a test that logs in does not eat the next test's login budget.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Router } from 'express';
import { loadConfig } from '../../src/config';
import { buildApp, closeServices, createServices, type Services } from '../../src/main';
import { createLogger } from '../../src/platform/log';
import { createHttpServer } from '../../src/platform/http/server';
import { createTestDatabase, type TestDatabase } from './db';
import { expectDocumented } from './openapi-check';

export const TEST_SECRET = 'auth-test-secret-that-is-at-least-32-characters';
export const ADMIN = { username: 'admin', password: 'correct horse battery staple' };

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
  /** name → the Set-Cookie line for it */
  setCookies: Record<string, string>;
}

export interface TestApp {
  url: string;
  /** fetch relative to the app; JSON-encodes a non-string, non-FormData body */
  call(method: string, path: string, opts?: { body?: unknown; headers?: Record<string, string> }): Promise<Answer>;
}

export interface AuthHarness {
  db: TestDatabase;
  services: Services;
  app(opts?: { env?: Record<string, string>; extraRoutes?: Router }): Promise<TestApp>;
  close(): Promise<void>;
}

export const cookieValue = (setCookie: string | undefined) => (setCookie ? decodeURIComponent(setCookie.split(';')[0]!.split('=').slice(1).join('=')) : undefined);

export async function startAuthHarness(env: Record<string, string> = {}): Promise<AuthHarness> {
  const db = await createTestDatabase();
  const baseEnv = {
    NODE_ENV: 'test',
    DATABASE_URL: db.url,
    JWT_SECRET: TEST_SECRET,
    // Any address: no test here talks to the supplier, and naming one keeps the simulator from starting.
    UPSTREAM_URL: 'http://127.0.0.1:9/',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...env,
  };
  const config = loadConfig(baseEnv);
  const services = await createServices(config, createLogger(config.logLevel), db.url);
  const servers: http.Server[] = [];
  return {
    db,
    services,
    async app(opts = {}) {
      // The throttles count per database, across every app of the harness: each new app starts a
      // fresh window, as a new deployment's first minute would, so tests do not eat each other's budget.
      await db.pool.query(`DELETE FROM rate_limit_hits`);
      const s: Services = opts.env ? { ...services, config: loadConfig({ ...baseEnv, ...opts.env }) } : services;
      const server = createHttpServer(buildApp(s, { extraRoutes: opts.extraRoutes }), s.config.http);
      servers.push(server);
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      return {
        url,
        async call(method, path, { body, headers = {} } = {}) {
          const json = body !== undefined && typeof body !== 'string' && !(body instanceof FormData);
          const res = await fetch(url + path, {
            method,
            headers: { ...(json ? { 'content-type': 'application/json' } : {}), ...headers },
            body: body === undefined ? undefined : json ? JSON.stringify(body) : (body as string | FormData),
          });
          const text = await res.text();
          // Whatever the test asserts, the answer is what the OpenAPI document says.
          expectDocumented(s.config.apiPrefix, method, path, { status: res.status, headers: res.headers, text, redirected: res.redirected });
          let parsed: unknown;
          try {
            parsed = text ? JSON.parse(text) : null;
          } catch {
            parsed = text;
          }
          const setCookies: Record<string, string> = {};
          for (const line of res.headers.getSetCookie()) setCookies[line.split('=')[0]!] = line;
          return { status: res.status, headers: res.headers, body: parsed, text, setCookies };
        },
      };
    },
    async close() {
      for (const s of servers) s.closeAllConnections();
      await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
      await closeServices(services);
      await db.drop();
    },
  };
}

/** Logs in and answers the two tokens as they came in the cookies, plus a Cookie header carrying both. */
export async function login(app: TestApp, creds = ADMIN): Promise<{ access: string; refresh: string; cookie: string; answer: Answer }> {
  const answer = await app.call('POST', '/auth/login', { body: creds });
  if (answer.status !== 200) throw new Error(`login failed: ${answer.status} ${answer.text}`);
  const access = cookieValue(answer.setCookies.svc_at)!;
  const refresh = cookieValue(answer.setCookies.svc_rt)!;
  return { access, refresh, cookie: `svc_at=${access}; svc_rt=${refresh}`, answer };
}

export async function registerAdmin(app: TestApp, creds = ADMIN): Promise<void> {
  const r = await app.call('POST', '/auth/register', { body: creds });
  if (r.status !== 201) throw new Error(`registration failed: ${r.status} ${r.text}`);
}
