/**
 * OpenAPI 3.1 from the routes' own zod schemas, through zod 4's built-in `z.toJSONSchema` (JSON Schema
 * 2020-12, which OpenAPI 3.1 uses as is): no second schema language and no extra dependency. Served
 * at `/docs` (a plain page, no CDN, no script) and `/docs/openapi.json`, only when NODE_ENV=development.
 */
import { Router } from 'express';
import { z } from 'zod';

export interface RouteDoc {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** express-style path; `:id` becomes `{id}` */
  path: string;
  summary: string;
  /** needs the access token (cookie or bearer) */
  auth?: boolean;
  body?: z.ZodType;
  query?: z.ZodType;
  /** status → response body schema (null: no body) */
  responses: Record<number, z.ZodType | null>;
  /** multipart upload with these file fields */
  multipartFile?: string;
}

const schemaOf = (s: z.ZodType, io: 'input' | 'output') => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
};

const errorSchema = {
  type: 'object',
  properties: {
    error: {
      type: 'object',
      properties: { code: { type: 'string' }, message: { type: 'string' }, details: {} },
      required: ['code', 'message'],
    },
  },
  required: ['error'],
};

export function openApiDocument(docs: readonly RouteDoc[], opts: { title: string; version: string; serverUrl: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const d of docs) {
    const path = d.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const params = [...d.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
    if (d.query) {
      const q = schemaOf(d.query, 'input') as { properties?: Record<string, unknown>; required?: string[] };
      for (const [name, schema] of Object.entries(q.properties ?? {})) {
        params.push({ name, in: 'query', required: (q.required ?? []).includes(name), schema: schema as { type: string } });
      }
    }
    const responses: Record<string, unknown> = {};
    for (const [status, schema] of Object.entries(d.responses)) {
      responses[status] = schema ? { description: 'OK', content: { 'application/json': { schema: schemaOf(schema, 'output') } } } : { description: 'No content' };
    }
    responses.default = { description: 'Error', content: { 'application/json': { schema: errorSchema } } };
    const requestBody = d.body
      ? { required: true, content: { 'application/json': { schema: schemaOf(d.body, 'input') } } }
      : d.multipartFile
        ? {
            required: true,
            content: {
              'multipart/form-data': {
                schema: { type: 'object', properties: { [d.multipartFile]: { type: 'string', format: 'binary' } }, required: [d.multipartFile] },
              },
            },
          }
        : undefined;
    (paths[path] ??= {})[d.method] = {
      summary: d.summary,
      ...(params.length ? { parameters: params } : {}),
      ...(requestBody ? { requestBody } : {}),
      ...(d.auth ? { security: [{ cookie: [] }, { bearer: [] }] } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: opts.title, version: opts.version },
    servers: [{ url: opts.serverUrl || '/' }],
    components: {
      securitySchemes: {
        cookie: { type: 'apiKey', in: 'cookie', name: 'svc_at' },
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      },
    },
    paths,
  };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** `/docs` and `/docs/openapi.json`; the caller mounts this only in development. */
export function docsRoutes(docs: readonly RouteDoc[], opts: { title: string; version: string; apiPrefix: string }): Router {
  const r = Router();
  const document = openApiDocument(docs, { title: opts.title, version: opts.version, serverUrl: opts.apiPrefix });
  r.get('/docs/openapi.json', (_req, res) => {
    res.json(document);
  });
  r.get('/docs', (_req, res) => {
    const rows = docs
      .map((d) => `<tr><td>${d.method.toUpperCase()}</td><td><code>${escapeHtml(d.path)}</code></td><td>${escapeHtml(d.summary)}</td><td>${d.auth ? 'yes' : ''}</td></tr>`)
      .join('\n');
    res.type('html').send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(opts.title)} API</title></head>
<body>
<h1>${escapeHtml(opts.title)} API</h1>
<p>Machine-readable description: <a href="${escapeHtml(opts.apiPrefix)}/docs/openapi.json">openapi.json</a> (OpenAPI 3.1).</p>
<table border="1" cellpadding="4"><thead><tr><th>method</th><th>path</th><th>what</th><th>auth</th></tr></thead>
<tbody>
${rows}
</tbody></table>
</body></html>`);
  });
  return r;
}
