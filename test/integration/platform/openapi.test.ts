/**
 * The OpenAPI description against the application that really serves: every route mounted in the
 * express app has a documented operation and every documented operation is mounted (walking the
 * router stack of the app `buildApp` serves), the document is generated from the schemas the
 * routes parse, it is served at /docs only in development under the CSP, and `catalog openapi`
 * writes the same document.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { validate } from '@readme/openapi-parser';
import { Router, type Express } from 'express';
import { expressApp, type Services } from '../../../src/main';
import { apiDocument } from '../../../src/openapi';
import { ERROR_CODES, errorCodes } from '../../../src/platform/error-codes';
import { operationKey } from '../../../src/platform/http/openapi';
import { INT64_PATTERN } from '../../../src/platform/ids';
import { mountedRoutes } from '../../../src/platform/http/routes-audit';
import { WEB_APPS } from '../../../src/web-apps';
import { startAuthHarness, type AuthHarness } from '../../support/auth-http';

const run = promisify(execFile);
const BIN = path.resolve(__dirname, '../../../bin/catalog.js');
/** Where the API is mounted a second time when API_PREFIX is elsewhere (src/main.ts, rootRoutes). */
const STOREFRONT_API_BASE = '/v2-api';

type Doc = ReturnType<typeof apiDocument>;
const documented = (doc: Doc) => new Set(Object.entries(doc.paths ?? {}).flatMap(([p, item]) => Object.keys(item as object).map((m) => `${m.toUpperCase()} ${p}`)));

/**
 * The operations the app serves, as `METHOD /path/{param}`. The built browser clients' pages
 * (/admin, /v2/h5: HTML for people, not API operations) are left out; the second mount of the API
 * under /v2-api must serve exactly the operations under API_PREFIX, and is then folded into them.
 */
function served(app: Express, apiPrefix: string): Set<string> {
  const all = mountedRoutes((app as unknown as { router: Router }).router).filter((r) => !WEB_APPS.some((w) => r.path === w.mount || r.path.startsWith(`${w.mount}/`)));
  const keys = (rs: typeof all) => new Set(rs.map((r) => operationKey(r.method, r.path)));
  if (apiPrefix === STOREFRONT_API_BASE) return keys(all);
  const alias = all.filter((r) => r.path.startsWith(`${STOREFRONT_API_BASE}/`));
  const rest = all.filter((r) => !r.path.startsWith(`${STOREFRONT_API_BASE}/`));
  // The same router twice: whatever /v2-api serves, API_PREFIX serves too (the root routes are only at the root).
  const aliasAsApi = [...keys(alias)].map((k) => k.replace(` ${STOREFRONT_API_BASE}/`, ` ${apiPrefix}/`));
  expect(aliasAsApi.length).toBeGreaterThan(50);
  const main = keys(rest);
  expect(aliasAsApi.filter((k) => !main.has(k))).toEqual([]);
  return main;
}

/** What differs between the app and the document: routes without an operation, operations without a route. */
function mismatch(app: Express, doc: Doc, apiPrefix: string) {
  const routes = served(app, apiPrefix);
  const ops = documented(doc);
  return { undocumented: [...routes].filter((k) => !ops.has(k)).sort(), notMounted: [...ops].filter((k) => !routes.has(k)).sort() };
}

describe('the OpenAPI description', () => {
  let h: AuthHarness;
  /** The services as a development process with metrics on sees them: every route this build can mount. */
  const everything = (apiPrefix: string): Services => ({ ...h.services, config: { ...h.services.config, env: 'development', metricsToken: 'scrape-token', apiPrefix } });

  beforeAll(async () => {
    h = await startAuthHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it.each(['', '/api', '/v2-api'])('documents every mounted route and mounts every documented operation (API_PREFIX %j)', (apiPrefix) => {
    const app = expressApp(everything(apiPrefix));
    const doc = apiDocument(apiPrefix);
    expect(mismatch(app, doc, apiPrefix)).toEqual({ undocumented: [], notMounted: [] });
    // Not vacuous: the admin API, the storefront, the root routes and the docs themselves are in it.
    for (const k of [
      `PATCH ${apiPrefix}/goods/{id}`,
      `GET ${apiPrefix}/public/goods/{goodId}`,
      `DELETE ${apiPrefix}/product-families/{id}/members/{originGoodId}`,
      'GET /readyz',
      'GET /metrics',
      `GET ${apiPrefix}/docs`,
    ]) {
      expect(documented(doc).has(k)).toBe(true);
    }
  });

  it('fails for a route added without an operation, and for an operation whose route is gone', () => {
    const extra = Router();
    extra.get('/goods/:id/secret', (_req, res) => void res.end());
    const app = expressApp(everything(''), { extraRoutes: extra });
    const doc = apiDocument('');
    expect(mismatch(app, doc, '')).toEqual({ undocumented: ['GET /goods/{id}/secret'], notMounted: [] });
    // Production mounts neither /docs nor, without METRICS_TOKEN, /metrics: the check names them.
    const production = expressApp({ ...h.services, config: { ...h.services.config, env: 'production', metricsToken: undefined, apiPrefix: '' } });
    expect(mismatch(production, doc, '').notMounted).toEqual(['GET /docs', 'GET /docs/openapi.json', 'GET /metrics']);
  });

  it('is a valid OpenAPI 3.1 document (schema and spec rules), as the validator tells a broken copy', async () => {
    for (const apiPrefix of ['', '/api']) {
      expect(await validate(JSON.parse(JSON.stringify(apiDocument(apiPrefix))))).toMatchObject({ valid: true, warnings: [] });
    }
    const broken = JSON.parse(JSON.stringify(apiDocument('')));
    delete broken.paths['/goods/{id}'].get.parameters;
    expect(await validate(broken)).toMatchObject({ valid: false });
  });

  it('describes what the routes parse: the strict bodies, the query rules, the path ids, the guard', () => {
    const doc = apiDocument('') as { paths: Record<string, Record<string, any>> };
    const tagBody = doc.paths['/tags']!.post.requestBody.content['application/json'].schema;
    expect(tagBody).toMatchObject({ type: 'object', required: ['name', 'groupId'], additionalProperties: false });
    const list = Object.fromEntries(doc.paths['/public/goods']!.get.parameters.map((p: any) => [p.name, p]));
    expect(list.pageSize.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    expect(list.sort.schema.enum).toEqual(['DEFAULT', 'PRICE_ASC', 'PRICE_DESC', 'NEWEST']);
    expect(doc.paths['/public/goods']!.get.security).toBeUndefined();
    const override = doc.paths['/product-families/{id}/price-overrides']!.put;
    expect(override.security).toEqual([{ cookie: [] }, { bearer: [] }]);
    expect(override.parameters.map((p: any) => `${p.in} ${p.name}`)).toEqual(['path id', 'header Idempotency-Key', 'header If-Match']);
    expect(override.parameters[0].schema.pattern).toBe(INT64_PATTERN);
    expect(override.requestBody.content['application/json'].schema.required).toEqual(['size', 'color', 'printCount', 'craft', 'logistics', 'price']);
    expect(override.responses['409'].content['application/json'].schema.allOf[0]).toEqual({ $ref: '#/components/schemas/Error' });
    expect(override.responses['409'].content['application/json'].schema.allOf[1].properties.error.properties.code.enum).toEqual(
      expect.arrayContaining(['EVENT_STORE.WRONG_REVISION', 'IDEMPOTENCY.IN_PROGRESS']),
    );
    // Every path template names exactly the path parameters its operations declare.
    for (const [p, item] of Object.entries(doc.paths)) {
      const names = [...p.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      for (const op of Object.values(item)) {
        expect({
          p,
          params: (op.parameters ?? [])
            .filter((x: any) => x.in === 'path')
            .map((x: any) => x.name)
            .sort(),
        }).toEqual({ p, params: names });
        expect(Object.keys(op.responses).length).toBeGreaterThan(1);
      }
    }
  });

  it('lists every registered error code, with its status and meaning, as the Error schema’s code', () => {
    const doc = apiDocument('') as { components: { schemas: Record<string, any> } };
    const code = doc.components.schemas.ErrorCode;
    expect([...code.enum].sort()).toEqual(errorCodes().sort());
    for (const c of ['VALIDATION_FAILED', 'FAMILY.NOT_EMPTY', 'COUNTRY.CODE_TAKEN', 'RATE_LIMITED'] as const) {
      expect(code.description).toContain(`| \`${c}\` | ${ERROR_CODES[c].status} |`);
    }
    expect(doc.components.schemas.Error.properties.error.properties.code).toEqual({ $ref: '#/components/schemas/ErrorCode' });
  });

  it('is served at /docs in development only, under the CSP, with no script and nothing from elsewhere', async () => {
    const prod = await h.app({ env: { NODE_ENV: 'production' } });
    expect((await prod.call('GET', '/docs')).status).toBe(404);
    expect((await prod.call('GET', '/docs/openapi.json')).status).toBe(404);
    const dev = await h.app({ env: { NODE_ENV: 'development', API_PREFIX: '/api' } });
    const spec = await dev.call('GET', '/api/docs/openapi.json');
    expect(spec.status).toBe(200);
    expect(spec.body).toEqual(JSON.parse(JSON.stringify(apiDocument('/api'))));
    const page = await dev.call('GET', '/api/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    expect(page.text).not.toMatch(/<script|<link|<style|\son\w+=|https?:\/\//i);
    expect(page.text).toContain('href="/api/docs/openapi.json"');
    expect(page.text).toContain('<code>/api/product-families/{id}/history</code>');
  });

  it('catalog openapi writes the same document, to a file or to standard output', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'openapi-'));
    const out = path.join(dir, 'openapi.json');
    const env = { PATH: process.env.PATH!, API_PREFIX: '/api' };
    const r = await run(process.execPath, [BIN, 'openapi', '--out', out], { env, timeout: 60_000 });
    expect(r.stderr).toContain(`wrote ${out}`);
    const expected = JSON.parse(JSON.stringify(apiDocument('/api')));
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(expected);
    // The document lists every operation's error codes: larger than execFile's default buffer of 1 MB.
    const stdout = await run(process.execPath, [BIN, 'openapi', '--out', '-'], { env: { PATH: process.env.PATH! }, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 });
    expect(JSON.parse(stdout.stdout)).toEqual(JSON.parse(JSON.stringify(apiDocument(''))));
    // The default name, in the working directory.
    const cwd = mkdtempSync(path.join(tmpdir(), 'openapi-'));
    await run(process.execPath, [BIN, 'openapi'], { env, cwd, timeout: 60_000 });
    expect(JSON.parse(readFileSync(path.join(cwd, 'openapi.json'), 'utf8'))).toEqual(expected);
  });
});
