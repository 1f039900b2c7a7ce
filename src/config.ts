/**
 * The only reader of the environment. Everything else receives a parsed, typed `Config`.
 * A bad value stops start-up with a message naming the variable.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off', '']).transform((v) => ['true', '1', 'yes', 'on'].includes(v));

const positiveInt = z.coerce.number().int().positive();

/** `30m`, `2h`, `45s`, `7d` or a number of seconds: the forms jsonwebtoken's `expiresIn` accepts. */
const duration = z.string().regex(/^\d+(ms|s|m|h|d)?$/, 'expected a duration such as 30m, 2h, 45s or 7d');

const byteSize = z
  .string()
  .regex(/^\d+(b|kb|mb)?$/i, 'expected a size such as 1mb, 512kb or 1048576')
  .transform((v) => {
    const m = /^(\d+)(b|kb|mb)?$/i.exec(v)!;
    const unit = (m[2] ?? 'b').toLowerCase();
    return Number(m[1]) * (unit === 'mb' ? 1024 * 1024 : unit === 'kb' ? 1024 : 1);
  });

/**
 * `/`, `/api`, `/v2-api/`: what a browser joins API paths to. A path on the page's own origin only:
 * the pages' CSP allows no other, and the session cookies are SameSite=Lax.
 */
const clientApiBase = z.string().regex(/^\/(?!\/)[^\s"'<>\\]*$/, 'expected a path on the same origin, such as /api');

/**
 * The schemes of a KurrentDB (or EventStoreDB) connection string, as the client's adapter reads them
 * (src/platform/event-store/connection-string.ts, which the platform keeps for itself: it imports
 * nothing from outside it). The client is given it as kurrentdb://.
 */
const EVENTSTORE_URL_SCHEME = /^(esdb|kurrentdb|kurrent|kdb)(\+discover)?:\/\//i;

const schema = z.object({
  NODE_ENV: z.enum(['production', 'development', 'test']).default('production'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  // Where browsers reach this service (or the proxy in front of it): the start-up banner's addresses
  // and those of the demo's pictures. Unset: this service's own address.
  PUBLIC_URL: z
    .string()
    .regex(/^https?:\/\/[^/\s?#]+(\/[^\s?#]*)?$/, 'expected an http(s) address such as http://localhost:8080')
    .transform((v) => v.replace(/\/+$/, ''))
    .optional(),
  DATA_DIR: z.string().min(1).default('.data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'expected a postgres:// URL')
    .optional(),
  DATABASE_POOL_SIZE: positiveInt.default(10),
  // Limits on the service's own database sessions; 0 turns one off.
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).default(60_000),
  DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: z.coerce.number().int().min(0).default(60_000),
  // How long the read fence may be held back before /readyz says degraded.
  FENCE_DEGRADED_AFTER_S: positiveInt.default(60),
  // Unset: the data folder's own port (54329 unless taken; src/platform/embedded-db.ts, embeddedPort).
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  EVENT_STORE: z.enum(['postgres', 'eventstoredb']).default('postgres'),
  EVENTSTORE_URL: z.string().regex(EVENTSTORE_URL_SCHEME, 'expected a kurrentdb:// (or kurrent://, kdb://, esdb://, each also +discover) URL').optional(),
  UPSTREAM_URL: z.string().url().optional(),
  // Production without UPSTREAM_URL refuses to start unless the built-in simulator is asked for.
  UPSTREAM_SIMULATOR: bool.default(false),
  UPSTREAM_TOKEN: z.string().optional(),
  UPSTREAM_PAGE_SIZE: z.coerce.number().int().min(1).max(500).default(500),
  SIMULATOR_LINKS: z.coerce.number().int().min(50).max(200_000).default(3000),
  SIMULATOR_SEED: z.coerce.number().int().min(0).default(1),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  TOKEN_EXPIRES_IN: duration.default('30m'),
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  TRUST_PROXY: z.string().default('false'),
  // Above the idle timeout of whatever keeps connections to the service (60 s for nginx's upstream
  // keepalive and most load balancers), so the service never closes a connection the other side is
  // about to reuse (src/platform/http/server.ts). Node requires headers to arrive within its request
  // timeout (300 s).
  HTTP_KEEP_ALIVE_TIMEOUT_MS: positiveInt.default(65_000),
  HTTP_HEADERS_TIMEOUT_MS: positiveInt.max(300_000).default(66_000),
  BODY_LIMIT: byteSize.default(1024 * 1024),
  UPLOAD_DIR: z.string().min(1).optional(),
  // Where uploaded files are kept: postgres (every process serves every file) or disk (UPLOAD_DIR).
  UPLOAD_STORAGE: z.enum(['postgres', 'disk']).default('postgres'),
  UPLOAD_MAX_BYTES: positiveInt.default(5 * 1024 * 1024),
  API_PREFIX: z
    .string()
    .default('')
    .refine((v) => v === '' || /^\/[A-Za-z0-9._~\-/]*[^/]$/.test(v), 'expected a path such as /v2-api (no trailing slash)'),
  // The browser clients' API base, told to them at run time (src/web-apps.ts); unset: their build's.
  ADMIN_API_BASE: clientApiBase.optional(),
  H5_API_BASE: clientApiBase.optional(),
  // Where the storefront's 客服 button leads (a product page's bottom bar); unset: no such button.
  H5_CONTACT_URL: z
    .string()
    .regex(/^(https?:\/\/[^\s"'<>]+|tel:\+?[0-9][0-9\- ]*[0-9]|mailto:[^\s"'<>@]+@[^\s"'<>]+)$/, 'expected an https://, tel: or mailto: address')
    .optional(),
  PUBLIC_CACHE_DISABLED: bool.default(false),
  PUBLIC_CACHE_TTL_MS: positiveInt.default(60_000),
  PUBLIC_CACHE_MAX_ENTRIES: positiveInt.default(5000),
  // Bytes of cached answers per process; they live outside the V8 heap, so the heap cap does not bound them.
  PUBLIC_CACHE_MAX_BYTES: byteSize.default(128 * 1024 * 1024),
  // Scheduled synchronisations (run by the worker role, once across processes); `off` turns one off.
  CATEGORY_SYNC_CRON: z.string().min(3).default('0 * * * *'),
  GOODS_SYNC_CRON: z.string().min(3).default('30 2 * * *'),
  DETAILS_SYNC_CRON: z.string().min(3).default('0 3 * * *'),
  // A complete listing pass that would delist more than this share of the listed links delists
  // nothing until an operator confirms (an empty listing included).
  SYNC_DELIST_MAX_SHARE: z.coerce.number().min(0).max(1).default(0.2),
  // A running synchronisation whose process stopped beating for this long was abandoned.
  SYNC_ABANDONED_AFTER_S: positiveInt.default(120),
  PROJECTION_BATCH_SIZE: positiveInt.default(2000),
  PROJECTION_POLL_MS: positiveInt.default(1000),
  COMMAND_WAIT_MS: positiveInt.default(10_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // pretty: readable lines (pino-pretty); json: one JSON object a line; auto: pretty on a terminal in development.
  LOG_FORMAT: z.enum(['auto', 'pretty', 'json']).default('auto'),
  // GET /metrics (Prometheus) for a scraper presenting this bearer token; unset: no /metrics.
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
});

/** `off`, or an expression node-cron accepts (5 fields, or 6 with seconds first). */
function cronOrOff(name: string, raw: string, problems: string[]): string | null {
  if (raw.trim().toLowerCase() === 'off') return null;
  try {
    // node-cron validates lazily; a broken expression must stop start-up instead.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const cron = require('node-cron') as { validate(expr: string): boolean };
    if (!cron.validate(raw)) problems.push(`${name}: not a valid cron expression (or off)`);
  } catch {
    /* node-cron missing is an install problem, reported where the scheduler starts */
  }
  return raw;
}

export interface Config {
  env: 'production' | 'development' | 'test';
  host: string;
  port: number;
  /** where browsers reach the service (PUBLIC_URL, no trailing slash); unset: its own address */
  publicUrl: string | undefined;
  dataDir: string;
  /** Unset: the embedded PostgreSQL under `dataDir` is started. */
  databaseUrl: string | undefined;
  databasePoolSize: number;
  /** statement and idle-in-transaction timeouts of the service's own sessions, in ms (0: none) */
  databaseSession: { statementTimeoutMs: number; idleInTransactionTimeoutMs: number };
  /** seconds the read fence may be held back before /readyz says degraded */
  fenceDegradedAfterS: number;
  /** the bearer token a Prometheus scraper presents at GET /metrics; unset: no /metrics */
  metricsToken: string | undefined;
  /** the embedded PostgreSQL's port as configured; unset: the data folder's own, 54329 unless taken */
  embeddedPgPort: number | undefined;
  eventStore: { kind: 'postgres' } | { kind: 'eventstoredb'; url: string };
  /** unset: the built-in supplier simulator (in production only with UPSTREAM_SIMULATOR=true) */
  upstream: { url: string; token: string | undefined } | undefined;
  /** links per listing page asked of the supplier (its maximum is 500) */
  upstreamPageSize: number;
  /** delisting guard and abandoned-run detection of synchronisations */
  sync: { delistMaxShare: number; abandonedAfterS: number };
  /** the built-in supplier simulator used when `upstream` is unset; `requested`: UPSTREAM_SIMULATOR=true */
  simulator: { links: number; seed: number; requested: boolean };
  jwt: { secret: string | undefined; accessExpiresIn: string };
  corsOrigins: string[];
  trustProxy: boolean | number | string;
  /** the HTTP listener's connection timeouts, in ms (src/platform/http/server.ts) */
  http: { keepAliveTimeoutMs: number; headersTimeoutMs: number };
  bodyLimitBytes: number;
  uploadDir: string;
  /** postgres: files in the database, served by every process; disk: files under `uploadDir` */
  uploadStorage: 'postgres' | 'disk';
  uploadMaxBytes: number;
  apiPrefix: string;
  /** API bases the served browser clients use instead of their build's (undefined: the build's) */
  clientApiBases: { admin: string | undefined; h5: string | undefined };
  /** where the storefront's 客服 button leads (https:, tel: or mailto:); unset: no 客服 button */
  h5ContactUrl: string | undefined;
  /** maxBytes: the cached answers' bytes (bodies and keys) per process */
  publicCache: { disabled: boolean; ttlMs: number; maxEntries: number; maxBytes: number };
  /** cron expressions of the scheduled synchronisations; null: off */
  schedules: { categories: string | null; goods: string | null; details: string | null };
  projections: { batchSize: number; pollMs: number };
  commandWaitMs: number;
  logLevel: string;
  /** pretty: readable lines for a person at a terminal; json: for a log collector */
  logFormat: 'pretty' | 'json';
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** `TRUST_PROXY`: off by default so a client cannot spoof `X-Forwarded-For` past the throttles. */
function parseTrustProxy(raw: string): boolean | number | string {
  if (['', 'false', '0', 'off', 'no'].includes(raw)) return false;
  if (['true', 'on', 'yes'].includes(raw)) return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw; // an address list or a preset such as "loopback", handed to express as is
}

/**
 * `terminal`: whether standard output is a terminal (LOG_FORMAT=auto reads it). In development
 * (NODE_ENV=development, or the embedded database of `npm start`) a terminal gets readable lines;
 * anything else, a production deployment or output to a file or a collector, JSON.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env, terminal = process.stdout.isTTY === true): Config {
  // Empty strings count as unset, as they do in most .env files.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const e = parsed.data;
  const problems: string[] = [];
  if (e.EVENT_STORE === 'eventstoredb' && !e.EVENTSTORE_URL) {
    problems.push('EVENTSTORE_URL: required when EVENT_STORE=eventstoredb');
  }
  const schedules = {
    categories: cronOrOff('CATEGORY_SYNC_CRON', e.CATEGORY_SYNC_CRON, problems),
    goods: cronOrOff('GOODS_SYNC_CRON', e.GOODS_SYNC_CRON, problems),
    details: cronOrOff('DETAILS_SYNC_CRON', e.DETAILS_SYNC_CRON, problems),
  };
  if (e.HTTP_HEADERS_TIMEOUT_MS <= e.HTTP_KEEP_ALIVE_TIMEOUT_MS) {
    problems.push(`HTTP_HEADERS_TIMEOUT_MS: must be above HTTP_KEEP_ALIVE_TIMEOUT_MS (${e.HTTP_KEEP_ALIVE_TIMEOUT_MS})`);
  }
  if (problems.length) throw new ConfigError(problems);

  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    publicUrl: e.PUBLIC_URL,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    databaseSession: { statementTimeoutMs: e.DB_STATEMENT_TIMEOUT_MS, idleInTransactionTimeoutMs: e.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS },
    fenceDegradedAfterS: e.FENCE_DEGRADED_AFTER_S,
    metricsToken: e.METRICS_TOKEN,
    embeddedPgPort: e.EMBEDDED_PG_PORT,
    eventStore: e.EVENT_STORE === 'eventstoredb' ? { kind: 'eventstoredb', url: e.EVENTSTORE_URL! } : { kind: 'postgres' },
    upstream: e.UPSTREAM_URL ? { url: e.UPSTREAM_URL, token: e.UPSTREAM_TOKEN } : undefined,
    upstreamPageSize: e.UPSTREAM_PAGE_SIZE,
    sync: { delistMaxShare: e.SYNC_DELIST_MAX_SHARE, abandonedAfterS: e.SYNC_ABANDONED_AFTER_S },
    simulator: { links: e.SIMULATOR_LINKS, seed: e.SIMULATOR_SEED, requested: e.UPSTREAM_SIMULATOR },
    jwt: { secret: e.JWT_SECRET, accessExpiresIn: e.TOKEN_EXPIRES_IN },
    corsOrigins: e.CORS_ORIGINS,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    http: { keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS, headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS },
    bodyLimitBytes: e.BODY_LIMIT,
    uploadDir: path.resolve(e.UPLOAD_DIR ?? path.join(e.DATA_DIR, 'uploads')),
    uploadStorage: e.UPLOAD_STORAGE,
    uploadMaxBytes: e.UPLOAD_MAX_BYTES,
    apiPrefix: e.API_PREFIX,
    clientApiBases: { admin: e.ADMIN_API_BASE, h5: e.H5_API_BASE },
    h5ContactUrl: e.H5_CONTACT_URL,
    publicCache: { disabled: e.PUBLIC_CACHE_DISABLED, ttlMs: e.PUBLIC_CACHE_TTL_MS, maxEntries: e.PUBLIC_CACHE_MAX_ENTRIES, maxBytes: e.PUBLIC_CACHE_MAX_BYTES },
    schedules,
    projections: { batchSize: e.PROJECTION_BATCH_SIZE, pollMs: e.PROJECTION_POLL_MS },
    commandWaitMs: e.COMMAND_WAIT_MS,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT === 'auto' ? (terminal && (e.NODE_ENV === 'development' || !e.DATABASE_URL) ? 'pretty' : 'json') : e.LOG_FORMAT,
  };
}

/**
 * A production deployment with its own database mirrors the real supplier: the simulator's demo
 * registry, once seeded into its event log, would stay there for good (docs/deployment.md, The
 * supplier). So the service, and every command that would talk to the supplier, refuses to start in
 * production (NODE_ENV=production with DATABASE_URL) without UPSTREAM_URL, unless UPSTREAM_SIMULATOR=true.
 * `npm start` on the embedded database keeps its demo catalogue.
 */
export function assertSupplierConfigured(config: Config): void {
  if (config.env === 'production' && config.databaseUrl && !config.upstream && !config.simulator.requested) {
    throw new ConfigError(['UPSTREAM_URL: required in production (NODE_ENV=production with DATABASE_URL); set UPSTREAM_SIMULATOR=true to run the built-in simulator instead']);
  }
}

/**
 * The signing secret. With an external database it must be configured; on the embedded default
 * (a developer's machine) one is generated once and kept under the data directory so sessions
 * survive restarts.
 */
export function resolveJwtSecret(config: Config): string {
  if (config.jwt.secret) return config.jwt.secret;
  if (config.databaseUrl) {
    throw new ConfigError(['JWT_SECRET: required (at least 32 characters) when DATABASE_URL is set']);
  }
  const file = path.join(config.dataDir, 'jwt-secret');
  if (existsSync(file)) {
    const kept = readFileSync(file, 'utf8').trim();
    if (kept.length >= 32) return kept;
  }
  mkdirSync(config.dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  return secret;
}
