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
import { idSchema } from '../ids';

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
  /**
   * status → the answer: a zod schema (JSON with that shape), words (JSON described in docs/api.md),
   * null (no body), or `{contentType, description}` for an answer that is not JSON
   */
  responses: Record<number, z.ZodType | string | null | { contentType: string; description: string }>;
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
  .meta({ id: 'Error' });

const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** The documented operations' keys, `METHOD /path` with `{param}` templates, as the coverage test compares them. */
export const operationKey = (method: string, path: string) => `${method.toUpperCase()} ${openApiPath(path)}`;

const idempotencyKey = z.object({
  'Idempotency-Key': z.string().regex(/^[\x21-\x7e]{1,200}$/).optional().meta({ description: 'the same key and request again answer the first answer (kept a day)' }),
});
const ifMatch = z.object({ 'If-Match': z.string().optional().meta({ description: "the resource's revision as read (its ETag); a stale one is 409" }) });

function pathParams(d: RouteDoc): z.ZodObject | undefined {
  if (d.params) return d.params;
  const names = [...d.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
  return names.length ? z.object(Object.fromEntries(names.map((n) => [n, idSchema]))) : undefined;
}

const json = (schema: z.ZodType) => ({ 'application/json': { schema } });

function responsesOf(d: RouteDoc): Record<string, ResponseConfig> {
  const out: Record<string, ResponseConfig> = {};
  for (const [status, answer] of Object.entries(d.responses)) {
    if (answer === null) out[status] = { description: 'No content' };
    else if (typeof answer === 'string') out[status] = { description: answer, content: { 'application/json': { schema: { type: 'object' } } } };
    else if (answer instanceof z.ZodType) out[status] = { description: 'OK', content: json(answer) };
    else out[status] = { description: answer.description, content: { [answer.contentType]: { schema: { type: 'string' } } } };
  }
  const error = (description: string) => ({ description, content: json(errorBody) });
  if (d.params || d.query || d.body || d.multipartFile || /:/.test(d.path)) out['400'] ??= error('Invalid input (VALIDATION_FAILED, INVALID_ID, …)');
  if (d.auth) {
    out['401'] ??= error('No valid access token (AUTH.UNAUTHENTICATED)');
    out['403'] ??= error('The role may not use this route (AUTH.FORBIDDEN)');
  }
  if (d.revision) out['409'] ??= error('If-Match names a revision that is no longer current (EVENT_STORE.WRONG_REVISION)');
  out.default = error('Any other error, with its code');
  return out;
}

function routeConfig(d: RouteDoc, prefix: string): RouteConfig {
  const writes = d.method !== 'get';
  const headers = [...(d.auth && writes && !d.multipartFile ? [idempotencyKey] : []), ...(d.revision ? [ifMatch] : [])];
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
    summary: d.summary,
    ...(d.description ? { description: d.description } : {}),
    tags: [d.path.split('/')[1] ?? ''],
    ...(d.auth ? { security: [{ cookie: [] }, { bearer: [] }] } : {}),
    request: {
      ...(pathParams(d) ? { params: pathParams(d) } : {}),
      ...(d.query ? { query: d.query } : {}),
      ...(headers.length ? { headers } : {}),
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
  for (const d of routes.api) registry.registerPath(routeConfig(d, opts.apiPrefix));
  for (const d of routes.root) registry.registerPath(routeConfig(d, ''));
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: opts.title, version: opts.version, ...(opts.description ? { description: opts.description } : {}) },
    // Paths carry API_PREFIX themselves: the health checks and metrics stay at the root.
    servers: [{ url: '/' }],
  });
}

/** The operations `docsRoutes` itself serves. */
export const docsRouteDocs: RouteDoc[] = [
  { method: 'get', path: '/docs', summary: 'This description as a plain page (development only)', responses: { 200: { contentType: 'text/html', description: 'The page' } } },
  { method: 'get', path: '/docs/openapi.json', summary: 'This description, OpenAPI 3.1 (development only)', responses: { 200: 'The OpenAPI document' } },
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
          ([method, op]) => `<tr><td>${method.toUpperCase()}</td><td><code>${escapeHtml(path)}</code></td><td>${escapeHtml(op.summary ?? '')}</td><td>${op.security ? 'yes' : ''}</td></tr>`,
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
  /** what `GET <item>/usage` counts, when the resource has it (docs/api.md, Usage) */
  usage?: string;
}): RouteDoc[] {
  const item = `${r.path}/:id`;
  return [
    { method: 'get', path: r.path, summary: `List ${r.many}`, auth: true, query: r.listQuery, responses: { 200: `{items, total, page, pageSize} of ${r.many}` } },
    ...(r.sortBody
      ? [{ method: 'patch', path: `${r.path}/sort`, summary: `Set the order of ${r.many} (the full new order)`, auth: true, revision: true, body: r.sortBody, responses: { 200: '{ids}: the order now' } } satisfies RouteDoc]
      : []),
    { method: 'get', path: item, summary: `One ${r.one}`, auth: true, responses: { 200: `The ${r.one}, with its revision (also the ETag)`, 404: `No such ${r.one}` } },
    { method: 'post', path: r.path, summary: `Create a ${r.one}`, auth: true, body: r.createBody, responses: { 201: `The ${r.one} created`, 202: '{id, revision}: written, the read models not there yet' } },
    { method: 'patch', path: item, summary: `Change a ${r.one}`, auth: true, revision: true, body: r.updateBody, responses: { 200: `The ${r.one} as this write left it`, 202: '{id, revision}: written, the read models not there yet', 404: `No such ${r.one}` } },
    { method: 'delete', path: item, summary: `Delete a ${r.one}`, auth: true, revision: true, responses: { 204: null, 404: `No such ${r.one}`, 409: `The ${r.one} is still in use` } },
    ...(r.usage
      ? [{ method: 'get', path: `${item}/usage`, summary: `What uses a ${r.one}: ${r.usage}`, auth: true, responses: { 200: '{counts, blockedBy}: the counts, and those that refuse a delete', 404: `No such ${r.one}` } } satisfies RouteDoc]
      : []),
  ];
}
