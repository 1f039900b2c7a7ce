/**
 * OpenAPI 3.1 from the routes' own zod schemas, through @asteasolutions/zod-to-openapi (maintained,
 * zod 4 support from its version 8). Each slice declares its operations as `RouteDoc`s next to its
 * routes, naming the very schemas the routes parse with, so the description cannot drift from the
 * validation; nothing is added to the schemas themselves (no `.openapi()` patching of zod), so
 * validation is exactly what it was. A test walks the mounted express app and fails when a route and
 * the documented operations differ (test/integration/platform/openapi.test.ts).
 *
 * Served at `/docs` (a plain page: no script, no CDN, so helmet's CSP holds as it is) and
 * `/docs/openapi.json`, only when NODE_ENV=development; `catalog openapi` writes the same document.
 */
import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { Router } from 'express';
import { z } from 'zod';
import { ERROR_CODES, errorCodes, type ErrorCode } from '../error-codes';
import { pageOf } from '../../contract/page';
import { usage } from '../../contract/usage';
import { accepted, order } from '../../contract/writes';
import { idSchema } from '../ids';
import { IF_MATCH } from './revision';

/** The response headers clients rely on, as the document describes them. */
const HEADERS = {
  ETag: {
    description: 'The resource\'s revision, quoted (`"3"`): send it back in `If-Match`; on public reads and uploads, the content\'s tag for `If-None-Match`',
    schema: { type: 'string' },
  },
  'Cache-Control': {
    description: 'How long the answer may be reused: public reads `public, max-age=0, must-revalidate`, uploads `public, max-age=31536000, immutable`',
    schema: { type: 'string' },
  },
  'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'string', pattern: '^\\d+$' } },
  RateLimit: { description: "The throttle's remaining requests and reset (IETF draft 8)", schema: { type: 'string' } },
  'RateLimit-Policy': { description: "The throttle's limit and window (IETF draft 8)", schema: { type: 'string' } },
  'Set-Cookie': {
    description:
      'Two headers: `svc_at` (the access token, Path=/, HttpOnly, SameSite=Lax) and `svc_rt` (the refresh token, likewise); a logout or a refused refresh clears both (Max-Age=0)',
    schema: { type: 'string' },
  },
  Location: { description: 'Where the answer is', schema: { type: 'string' } },
  'Idempotent-Replayed': {
    description: '`true`: the first answer to this `Idempotency-Key`, sent again (it carries the first body and status only)',
    schema: { type: 'string', enum: ['true'] },
  },
} as const;
export type ResponseHeader = keyof typeof HEADERS;

/** One documented answer of an operation. */
export interface Answer {
  description: string;
  /** the JSON body; omitted (and no `contentType`): no body */
  body?: z.ZodType;
  /** a body that is not JSON, by its media type */
  contentType?: string;
  /** headers this answer always carries */
  headers?: readonly ResponseHeader[];
  /** headers it may carry */
  optionalHeaders?: readonly ResponseHeader[];
}

export interface RouteDoc {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** express-style path; `:id` becomes `{id}` */
  path: string;
  summary: string;
  description?: string;
  /** needs the access token (cookie or bearer) of an administrator */
  auth?: boolean;
  /** the path parameters' schema; by default every `:name` is a decimal 64-bit id, as `parseId` checks */
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** the body may be left out altogether (the triggers that take their options from the query too) */
  bodyOptional?: boolean;
  /** multipart upload with this file field */
  multipartFile?: string;
  /** takes `If-Match` with the resource's revision (a stale one is 409) */
  revision?: boolean;
  /** its 200 and 201 answers carry the resource's revision as `ETag` */
  etag?: boolean;
  /** answered from a cache: `ETag` and `Cache-Control`, and 304 for a current `If-None-Match` */
  cached?: boolean;
  /** throttled per client: 429 with `Retry-After` */
  throttled?: boolean;
  /**
   * The session cookies: `set` by a login, `rotate`d by a refresh (which reads `svc_rt`, and clears
   * both when it refuses), `clear`ed by a logout (which reads either).
   */
  session?: 'set' | 'rotate' | 'clear';
  /** answers without the database or the event store (no 503) */
  standalone?: boolean;
  /** needs `Authorization: Bearer <METRICS_TOKEN>`, the scrape token, instead of a session */
  scrapeToken?: boolean;
  /**
   * false: an administrator's write that appends nothing itself (it starts a run, or rebuilds a read
   * model), so none of the faults of an append (a busy lock or stream, the event store, the read models' wait)
   */
  appends?: false;
  /**
   * The error codes the operation answers of its own (its resource missing, its rules), each with the
   * status the registry gives it (src/platform/error-codes.ts). The codes of the middleware in front
   * of every route and of the guards are added to them (`commonErrors`).
   */
  errors?: readonly ErrorCode[];
  /**
   * status → the answer: a zod schema of the JSON body from the wire contract (src/contract/), null
   * (no body), or an `Answer`. Errors are not listed here but in `errors`, by their codes.
   */
  responses: Record<number, z.ZodType | null | Answer | undefined>;
}

/** The registered error codes, each with its status and meaning, as the document's `code` describes them. */
const errorCodeTable = [
  'Every code the service answers (src/platform/error-codes.ts):',
  '',
  '| code | status | meaning |',
  '|---|---|---|',
  ...errorCodes().map((c) => `| \`${c}\` | ${ERROR_CODES[c].status} | ${ERROR_CODES[c].description.replace(/\|/g, '\\|')} |`),
].join('\n');

/**
 * Every error answers this shape (docs/api.md, Errors), its `code` one of the registered codes;
 * zod's own `meta` id makes it one shared component.
 */
export const errorBody = z
  .object({
    error: z.object({
      code: z.enum(errorCodes() as [ErrorCode, ...ErrorCode[]]).meta({ id: 'ErrorCode', description: errorCodeTable }),
      message: z.string().meta({ description: 'in English, for developers and logs; a client shows its own text for the code' }),
      details: z.unknown().optional().meta({ description: 'what the code is about: for VALIDATION_FAILED each issue with its `path`' }),
    }),
  })
  .meta({
    id: 'Error',
    example: {
      error: {
        code: 'VALIDATION_FAILED',
        message: 'body is invalid',
        details: [{ path: 'name', message: 'Too small: expected string to have >=1 characters', code: 'too_small' }],
      },
    },
  });

const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** The documented operations' keys, `METHOD /path` with `{param}` templates, as the coverage test compares them. */
export const operationKey = (method: string, path: string) => `${method.toUpperCase()} ${openApiPath(path)}`;

const idempotencyKey = z.object({
  'Idempotency-Key': z
    .string()
    .regex(/^[\x21-\x7e]{1,200}$/)
    .optional()
    .meta({ description: 'the same key and request again answer the first answer (kept a day)' }),
});
const ifMatch = z.object({
  'If-Match': z
    .string()
    .regex(IF_MATCH)
    .optional()
    .meta({ description: 'the resource\'s revision as read (its ETag, `"3"`; `W/` and the quotes may be left out), or `*` for any; a stale one is 409', example: '"3"' }),
});

function pathParams(d: RouteDoc): z.ZodObject | undefined {
  if (d.params) return d.params;
  const names = [...d.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
  return names.length ? z.object(Object.fromEntries(names.map((n) => [n, idSchema]))) : undefined;
}

const json = (schema: z.ZodType) => ({ 'application/json': { schema } });

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No content',
  302: 'Found',
  304: 'Not modified: the `If-None-Match` tag is current',
};

const headerObjects = (required: readonly ResponseHeader[], optional: readonly ResponseHeader[] = []) =>
  Object.fromEntries([...required.map((h) => [h, { ...HEADERS[h], required: true }]), ...optional.filter((h) => !required.includes(h)).map((h) => [h, HEADERS[h]])]);

const isError = (status: number) => status >= 400;

/**
 * An administrator's JSON write: it takes `Idempotency-Key` (src/platform/http/idempotency.ts). A
 * multipart upload does not (its file is not read before its route, so it could not be compared).
 */
export const takesIdempotencyKey = (d: Pick<RouteDoc, 'method' | 'auth' | 'multipartFile'>) => !!d.auth && d.method !== 'get' && !d.multipartFile;

/**
 * The codes an operation answers besides its own, as the middleware in front of every route and the
 * guards really answer them (src/platform/http/app.ts, edge.ts, validate.ts, idempotency.ts,
 * errors.ts, src/auth/guard.ts, src/platform/commands.ts).
 */
function commonErrors(d: RouteDoc): ErrorCode[] {
  const writes = d.method !== 'get';
  const json = writes && !d.multipartFile;
  const idempotent = takesIdempotencyKey(d);
  const appends = idempotent && d.appends !== false;
  const pathParams = /:/.test(d.path);
  return [
    // A query key on a route that takes none is VALIDATION_FAILED too, so every operation has it.
    'VALIDATION_FAILED',
    ...(pathParams && !d.params ? (['INVALID_ID'] as const) : []),
    'REQUEST.INVALID_TEXT',
    ...(json ? (['MALFORMED_JSON'] as const) : []),
    // The router's own 400 for a path parameter that is not percent-decodable; the JSON reader's for a body cut short.
    ...(pathParams || json ? (['BAD_REQUEST'] as const) : []),
    ...(idempotent ? (['IDEMPOTENCY.BAD_KEY', 'IDEMPOTENCY.IN_PROGRESS', 'IDEMPOTENCY.KEY_REUSED'] as const) : []),
    ...(d.revision ? (['INVALID_IF_MATCH', 'EVENT_STORE.WRONG_REVISION'] as const) : []),
    ...(d.auth ? (['AUTH.UNAUTHENTICATED', 'AUTH.FORBIDDEN'] as const) : []),
    ...(d.scrapeToken ? (['METRICS.UNAUTHORIZED'] as const) : []),
    ...(writes ? (['REQUEST.CROSS_ORIGIN'] as const) : []),
    ...(appends ? (['LOCK.BUSY', 'EVENT_STORE.BUSY'] as const) : []),
    ...(json ? (['PAYLOAD_TOO_LARGE', 'REQUEST.UNSUPPORTED_MEDIA_TYPE', 'UNSUPPORTED_ENCODING'] as const) : []),
    ...(d.throttled ? (['RATE_LIMITED'] as const) : []),
    'INTERNAL',
    ...(d.standalone ? [] : (['DEPENDENCY_UNAVAILABLE'] as const)),
    ...(appends ? (['EVENT_STORE.UNAVAILABLE', 'LOCK.LOST', 'PROJECTION.BEHIND', 'PROJECTION.FAILED'] as const) : []),
  ];
}

/** Every code an operation can answer, by status, in the registry's order. */
function errorsByStatus(d: RouteDoc): Map<number, ErrorCode[]> {
  const own = new Set<ErrorCode>([...commonErrors(d), ...(d.errors ?? [])]);
  const out = new Map<number, ErrorCode[]>();
  for (const code of errorCodes()) {
    if (!own.has(code)) continue;
    const status = ERROR_CODES[code].status;
    out.set(status, [...(out.get(status) ?? []), code]);
  }
  return out;
}

/** The Error schema with `code` held to the codes this answer can carry (the shared Error, and what narrows it). */
const errorSchemaOf = (codes: readonly ErrorCode[]) => z.intersection(errorBody, z.object({ error: z.object({ code: z.enum(codes as [ErrorCode, ...ErrorCode[]]) }) }));

const errorDescription = (codes: readonly ErrorCode[]) => codes.map((c) => `- \`${c}\`: ${ERROR_CODES[c].description}`).join('\n');

function responsesOf(d: RouteDoc): Record<string, ResponseConfig> {
  const out: Record<string, ResponseConfig> = {};
  const errors = errorsByStatus(d);
  if (/:/.test(d.path) && !errors.has(404)) throw new Error(`${operationKey(d.method, d.path)}: a path with an id needs the code of its 404 in \`errors\``);
  const idempotent = takesIdempotencyKey(d);
  // A write's answer replayed for its Idempotency-Key carries the first body and status, not its headers.
  const etag: ResponseHeader[] = (d.etag || d.cached) && !idempotent ? ['ETag'] : [];
  const replayed: ResponseHeader[] = idempotent ? [...(d.etag ? ['ETag' as const] : []), 'Idempotent-Replayed'] : [];
  const cache: ResponseHeader[] = d.cached ? ['Cache-Control'] : [];
  const cookies: ResponseHeader[] = d.session ? ['Set-Cookie'] : [];
  for (const [key, answer] of Object.entries(d.responses)) {
    const status = Number(key);
    const ok = status === 200 || status === 201;
    if (answer === undefined) continue;
    const own: ResponseHeader[] = status < 300 ? [...(ok ? [...etag, ...cache] : []), ...cookies] : [];
    const maybe: ResponseHeader[] = status < 300 ? replayed.filter((h) => h !== 'ETag' || ok) : [];
    if (isError(status) && errors.has(status))
      throw new Error(`${operationKey(d.method, d.path)} ${status}: answers the Error schema (its codes in \`errors\`) or a body of its own, not both`);
    if (answer === null) {
      out[key] = { description: STATUS_TEXT[status] ?? 'No body', ...(own.length + maybe.length ? { headers: headerObjects(own, maybe) } : {}) };
    } else if (answer instanceof z.ZodType) {
      if (isError(status)) throw new Error(`${operationKey(d.method, d.path)} ${status}: an error answers the Error schema`);
      out[key] = { description: STATUS_TEXT[status] ?? 'OK', content: json(answer), ...(own.length + maybe.length ? { headers: headerObjects(own, maybe) } : {}) };
    } else {
      const content = answer.body ? json(answer.body) : answer.contentType ? { [answer.contentType]: { schema: { type: 'string' as const } } } : undefined;
      const headers = headerObjects([...own, ...(answer.headers ?? [])], [...maybe, ...(answer.optionalHeaders ?? [])]);
      out[key] = { description: answer.description, ...(content ? { content } : {}), ...(Object.keys(headers).length ? { headers } : {}) };
    }
  }
  if (d.cached) out['304'] ??= { description: STATUS_TEXT[304]!, headers: headerObjects(['ETag', 'Cache-Control']) };
  for (const [status, codes] of errors) {
    const headers =
      status === 429
        ? headerObjects(['Retry-After'], ['RateLimit', 'RateLimit-Policy'])
        : status === 503
          ? headerObjects(['Retry-After'])
          : status === 401 && d.session === 'rotate'
            ? headerObjects([], ['Set-Cookie'])
            : undefined;
    out[status] = { description: errorDescription(codes), content: json(errorSchemaOf(codes)), ...(headers ? { headers } : {}) };
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => Number(a) - Number(b)));
}

const ifNoneMatch = z.object({ 'If-None-Match': z.string().optional().meta({ description: 'the ETag of the answer the client holds: 304 while it is current' }) });
const refreshCookie = z.object({ svc_rt: z.string().meta({ description: 'the refresh token, set by a login or refresh' }) });
const sessionCookies = z.object({
  svc_at: z.string().optional().meta({ description: 'the access token' }),
  svc_rt: z.string().optional().meta({ description: 'the refresh token: proves the session when the access token has expired' }),
});

/** `get /goods/{id}/usage` → `getGoodsIdUsage`: stable, unique per method and path. */
const operationIdOf = (method: string, path: string) =>
  method +
  path
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');

function routeConfig(d: RouteDoc, prefix: string): RouteConfig {
  const headers = [...(takesIdempotencyKey(d) ? [idempotencyKey] : []), ...(d.revision ? [ifMatch] : []), ...(d.cached ? [ifNoneMatch] : [])];
  const cookies = d.session === 'rotate' ? refreshCookie : d.session === 'clear' ? sessionCookies : undefined;
  const body = d.body
    ? { required: !d.bodyOptional, content: json(d.body) }
    : d.multipartFile
      ? {
          required: true,
          content: {
            'multipart/form-data': {
              schema: { type: 'object' as const, properties: { [d.multipartFile]: { type: 'string' as const, format: 'binary' } }, required: [d.multipartFile] },
            },
          },
        }
      : undefined;
  return {
    method: d.method,
    path: openApiPath(prefix + d.path),
    operationId: operationIdOf(d.method, d.path),
    summary: d.summary,
    ...(d.description ? { description: d.description } : {}),
    tags: [d.path.split('/')[1] ?? ''],
    ...(d.auth ? { security: [{ cookie: [] }, { bearer: [] }] } : d.scrapeToken ? { security: [{ scrapeToken: [] }] } : {}),
    request: {
      ...(pathParams(d) ? { params: pathParams(d) } : {}),
      ...(d.query ? { query: d.query } : {}),
      ...(headers.length ? { headers } : {}),
      ...(cookies ? { cookies } : {}),
      ...(body ? { body } : {}),
    },
    responses: responsesOf(d),
  };
}

export interface DocumentedRoutes {
  /** mounted under API_PREFIX */
  api: readonly RouteDoc[];
  /** mounted at the root, outside API_PREFIX (health checks, metrics) */
  root: readonly RouteDoc[];
}

export function openApiDocument(routes: DocumentedRoutes, opts: { title: string; version: string; apiPrefix: string; description?: string }) {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'cookie', { type: 'apiKey', in: 'cookie', name: 'svc_at' });
  registry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  registry.registerComponent('securitySchemes', 'scrapeToken', {
    type: 'http',
    scheme: 'bearer',
    description: '`METRICS_TOKEN`, the scrape token of `/metrics` (docs/api.md, Operations); not a session',
  });
  for (const d of routes.api) registry.registerPath(routeConfig(d, opts.apiPrefix));
  for (const d of routes.root) registry.registerPath(routeConfig(d, ''));
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: opts.title, version: opts.version, ...(opts.description ? { description: opts.description } : {}) },
    // Paths carry API_PREFIX themselves: the health checks and metrics stay at the root.
    servers: [{ url: '/' }],
  });
}

/** The document itself, loosely: it is described by the OpenAPI 3.1 specification, not here. */
const openApiJson = z.object({ openapi: z.string(), info: z.object({ title: z.string(), version: z.string() }), paths: z.record(z.string(), z.unknown()) });

/** The operations `docsRoutes` itself serves. */
export const docsRouteDocs: RouteDoc[] = [
  {
    method: 'get',
    path: '/docs',
    summary: 'This description as a plain page (development only)',
    standalone: true,
    // Not mounted outside development: NOT_FOUND.
    errors: ['NOT_FOUND'],
    responses: { 200: { contentType: 'text/html', description: 'The page' } },
  },
  {
    method: 'get',
    path: '/docs/openapi.json',
    summary: 'This description, OpenAPI 3.1 (development only)',
    standalone: true,
    errors: ['NOT_FOUND'],
    responses: { 200: openApiJson },
  },
];

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** `/docs` and `/docs/openapi.json`; the caller mounts this only in development. */
export function docsRoutes(document: ReturnType<typeof openApiDocument>, opts: { apiPrefix: string }): Router {
  const r = Router();
  r.get('/docs/openapi.json', (_req, res) => {
    res.json(document);
  });
  r.get('/docs', (_req, res) => {
    const rows = Object.entries(document.paths ?? {})
      .flatMap(([path, item]) =>
        Object.entries(item as Record<string, { summary?: string; security?: unknown[] }>).map(
          ([method, op]) =>
            `<tr><td>${method.toUpperCase()}</td><td><code>${escapeHtml(path)}</code></td><td>${escapeHtml(op.summary ?? '')}</td><td>${op.security ? 'yes' : ''}</td></tr>`,
        ),
      )
      .join('\n');
    const title = escapeHtml(document.info.title);
    res.type('html').send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title} API</title></head>
<body>
<h1>${title} API</h1>
<p>Machine-readable description: <a href="${escapeHtml(opts.apiPrefix)}/docs/openapi.json">openapi.json</a> (OpenAPI 3.1).</p>
<table border="1" cellpadding="4"><thead><tr><th>method</th><th>path</th><th>what</th><th>admin</th></tr></thead>
<tbody>
${rows}
</tbody></table>
</body></html>`);
  });
  return r;
}

/**
 * The operations of an administrator resource with the usual shape (docs/api.md): list, read, create,
 * update, delete, and a full new order when it has one. `path` is the collection (`/tags`).
 */
export function resourceDocs(r: {
  path: string;
  one: string;
  many: string;
  listQuery: z.ZodObject;
  createBody: z.ZodType;
  updateBody: z.ZodType;
  sortBody?: z.ZodType;
  /** the resource as it is answered (src/contract/) */
  view: z.ZodType;
  /** what `GET <item>/usage` counts, when the resource has it (docs/api.md, Usage) */
  usage?: string;
  /** the code of its 404 (`TAG.NOT_FOUND`) */
  notFound: ErrorCode;
  /** what a create or change can be refused with besides: its rules, a name or code another one has, a reference to nothing */
  writeErrors?: readonly ErrorCode[];
  /** what a delete can be refused with (the resource still in use) */
  inUse?: readonly ErrorCode[];
  /** what a new order can be refused with (not every one exactly once; a parent that is not there) */
  sortErrors?: readonly ErrorCode[];
}): RouteDoc[] {
  const item = `${r.path}/:id`;
  const write = r.writeErrors ?? [];
  return [
    { method: 'get', path: r.path, summary: `List ${r.many}`, auth: true, query: r.listQuery, responses: { 200: pageOf(r.view) } },
    ...(r.sortBody
      ? [
          {
            method: 'patch',
            path: `${r.path}/sort`,
            summary: `Set the order of ${r.many} (the full new order)`,
            auth: true,
            revision: true,
            body: r.sortBody,
            errors: r.sortErrors ?? [],
            responses: { 200: order },
          } satisfies RouteDoc,
        ]
      : []),
    { method: 'get', path: item, summary: `One ${r.one}`, auth: true, etag: true, errors: [r.notFound], responses: { 200: r.view } },
    { method: 'post', path: r.path, summary: `Create a ${r.one}`, auth: true, etag: true, body: r.createBody, errors: write, responses: { 201: r.view, 202: accepted } },
    {
      method: 'patch',
      path: item,
      summary: `Change a ${r.one}`,
      auth: true,
      revision: true,
      etag: true,
      body: r.updateBody,
      errors: [r.notFound, ...write],
      responses: { 200: r.view, 202: accepted },
    },
    { method: 'delete', path: item, summary: `Delete a ${r.one}`, auth: true, revision: true, errors: [r.notFound, ...(r.inUse ?? [])], responses: { 204: null } },
    ...(r.usage
      ? [{ method: 'get', path: `${item}/usage`, summary: `What uses a ${r.one}: ${r.usage}`, auth: true, errors: [r.notFound], responses: { 200: usage } } satisfies RouteDoc]
      : []),
  ];
}
