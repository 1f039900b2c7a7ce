/**
 * The security envelope around every route: the admin guard, security headers, CORS, development-only
 * docs, robust input handling, and a 500 that tells nothing.
 */
import { Router } from 'express';
import { z } from 'zod';
import { AppError } from '../../../src/platform/errors';
import { parseQuery } from '../../../src/platform/http/validate';
import { login, registerAdmin, startAuthHarness, type AuthHarness, type TestApp } from '../../support/auth-http';

/** Routes only these tests mount (buildApp's extraRoutes): production has nothing like them. */
function testOnlyRoutes(): Router {
  const r = Router();
  r.get('/test-only/boom', () => {
    throw new Error('connect ECONNSECRET postgres://admin:hunter2@db.internal:5432/catalog at /srv/app/src/secret.ts:42');
  });
  // A defect the code names (an event that does not match its schema): still a 500 that tells nothing.
  r.get('/test-only/defect', () => {
    throw new AppError('EVENT.INVALID', 500, 'event 7 of good-1 does not match its schema: hunter2', { row: 'users' });
  });
  r.get('/test-only/async-boom', async () => {
    await Promise.resolve();
    throw Object.assign(new TypeError("Cannot read properties of undefined (reading 'hunter2')"), { detail: 'row 7 of users' });
  });
  const listQuery = z
    .object({
      page: z.coerce.number().int().min(1).default(1),
      keyword: z.string().max(100).optional(),
      // the one field that admits repetition: ?tagIds=1&tagIds=2
      tagIds: z.array(z.string()).optional(),
    })
    .strict();
  r.get('/test-only/list', (req, res) => {
    res.json(parseQuery(listQuery, req.query));
  });
  return r;
}

describe('security envelope', () => {
  let h: AuthHarness;
  let app: TestApp;
  let cookie: string;

  beforeAll(async () => {
    h = await startAuthHarness({ CORS_ORIGINS: 'https://admin.example, https://shop.example' });
    await registerAdmin(await h.app());
  });
  afterAll(() => h.close());
  beforeEach(async () => {
    app = await h.app({ extraRoutes: testOnlyRoutes() });
    cookie = (await login(app)).cookie;
  });

  describe('admin routes are behind the guard', () => {
    it.each([
      ['GET', '/projections'],
      ['POST', '/projections/catalog/rebuild'],
      ['POST', '/projections/catalog/retry'],
    ])('%s %s: 401 without a session', async (method, path) => {
      const r = await app.call(method, path);
      expect(r.status).toBe(401);
      expect(r.body.error.code).toBe('AUTH.UNAUTHENTICATED');
    });

    it('an ADMIN session reaches them', async () => {
      const r = await app.call('GET', '/projections', { headers: { cookie } });
      expect(r.status).toBe(200);
      expect(r.body.items).toEqual(expect.any(Array));
    });

    it('a role the route does not allow gets 403 AUTH.FORBIDDEN; /auth/me, which widens, still answers', async () => {
      // Only ADMIN exists today; a second role is simulated by lifting the CHECK in this test database.
      await h.db.pool.query(`ALTER TABLE users DROP CONSTRAINT IF EXISTS users_role_check`);
      await h.db.pool.query(`UPDATE users SET role = 'VIEWER'`);
      try {
        const r = await app.call('GET', '/projections', { headers: { cookie } });
        expect(r.status).toBe(403);
        expect(r.body.error.code).toBe('AUTH.FORBIDDEN');
        expect((await app.call('GET', '/auth/me', { headers: { cookie } })).body.user.role).toBe('VIEWER');
      } finally {
        await h.db.pool.query(`UPDATE users SET role = 'ADMIN'`);
      }
    });
  });

  describe('headers', () => {
    it('helmet headers with the two exceptions; no X-Powered-By', async () => {
      const r = await app.call('GET', '/auth/me');
      const csp = r.headers.get('content-security-policy')!;
      expect(csp).toMatch(/default-src 'self'/);
      expect(csp).not.toMatch(/upgrade-insecure-requests/);
      expect(r.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(r.headers.get('strict-transport-security')).toMatch(/max-age=/);
      expect(r.headers.get('x-powered-by')).toBeNull();
    });
  });

  describe('CORS', () => {
    it('a listed origin is reflected with credentials and Vary: Origin', async () => {
      const r = await app.call('GET', '/auth/me', { headers: { origin: 'https://admin.example', cookie } });
      expect(r.status).toBe(200);
      expect(r.headers.get('access-control-allow-origin')).toBe('https://admin.example');
      expect(r.headers.get('access-control-allow-credentials')).toBe('true');
      expect(r.headers.get('vary')).toMatch(/Origin/);
    });

    it('a disallowed origin gets no CORS headers at all, but still Vary: Origin', async () => {
      const r = await app.call('GET', '/auth/me', { headers: { origin: 'https://evil.example', cookie } });
      expect(r.headers.get('access-control-allow-origin')).toBeNull();
      expect(r.headers.get('access-control-allow-credentials')).toBeNull();
      expect(r.headers.get('vary')).toMatch(/Origin/);
    });

    it('preflight: answered 204 for a listed origin, without CORS headers for another', async () => {
      const headers = { 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' };
      const ok = await app.call('OPTIONS', '/auth/login', { headers: { ...headers, origin: 'https://shop.example' } });
      expect(ok.status).toBe(204);
      expect(ok.headers.get('access-control-allow-origin')).toBe('https://shop.example');
      expect(ok.headers.get('access-control-allow-methods')).toMatch(/POST/);
      expect(ok.headers.get('access-control-allow-headers')).toMatch(/Content-Type/i);
      expect(ok.headers.get('access-control-allow-credentials')).toBe('true');
      const no = await app.call('OPTIONS', '/auth/login', { headers: { ...headers, origin: 'https://evil.example' } });
      expect(no.headers.get('access-control-allow-origin')).toBeNull();
      expect(no.headers.get('access-control-allow-methods')).toBeNull();
    });

    it('"*" reflects the requesting origin (never a literal *), but not the opaque origin "null"', async () => {
      const any = await h.app({ env: { CORS_ORIGINS: '*' } });
      const r = await any.call('GET', '/healthz', { headers: { origin: 'https://anything.example' } });
      expect(r.headers.get('access-control-allow-origin')).toBe('https://anything.example');
      expect(r.headers.get('access-control-allow-credentials')).toBe('true');
      expect((await any.call('GET', '/healthz', { headers: { origin: 'null' } })).headers.get('access-control-allow-origin')).toBeNull();
    });

    it('no CORS_ORIGINS: no origin is admitted', async () => {
      const none = await h.app({ env: { CORS_ORIGINS: '' } });
      expect((await none.call('GET', '/healthz', { headers: { origin: 'https://admin.example' } })).headers.get('access-control-allow-origin')).toBeNull();
    });
  });

  describe('docs', () => {
    it('are served only when NODE_ENV=development', async () => {
      expect((await app.call('GET', '/docs')).status).toBe(404);
      expect((await app.call('GET', '/docs/openapi.json')).status).toBe(404);
      const dev = await h.app({ env: { NODE_ENV: 'development' } });
      const page = await dev.call('GET', '/docs');
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/text\/html/);
      expect(page.headers.get('content-security-policy')).not.toMatch(/upgrade-insecure-requests/);
      const spec = await dev.call('GET', '/docs/openapi.json');
      expect(spec.body.openapi).toBe('3.1.0');
      // generated from the zod schemas: the password rule of docs/security.md shows up
      expect(spec.body.paths['/auth/register'].post.requestBody.content['application/json'].schema.properties.password.minLength).toBe(12);
      expect(Object.keys(spec.body.paths)).toEqual(expect.arrayContaining(['/auth/login', '/auth/refresh', '/auth/me', '/auth/logout', '/upload']));
    });
  });

  describe('robust input', () => {
    it('malformed JSON is 400', async () => {
      const r = await app.call('POST', '/auth/login', { body: '{"username": "admin", "password": ', headers: { 'content-type': 'application/json' } });
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('MALFORMED_JSON');
    });

    it('a body over BODY_LIMIT (1 MB by default) is 413', async () => {
      const r = await app.call('POST', '/auth/login', { body: { username: 'admin', password: 'x'.repeat(1024 * 1024 + 10) } });
      expect(r.status).toBe(413);
      expect(r.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    });

    it('a repeated or nested query parameter the schema does not allow is 400; one it allows passes', async () => {
      expect((await app.call('GET', '/test-only/list?page=2&keyword=tee')).body).toEqual({ page: 2, keyword: 'tee' });
      for (const q of ['page=1&page=2', 'keyword=a&keyword=b', 'page[gt]=1', 'keyword[__proto__]=x', '__proto__=1', 'unknown=1']) {
        const r = await app.call('GET', `/test-only/list?${q}`);
        expect([q, r.status]).toEqual([q, 400]);
        expect(r.body.error.code).toBe('VALIDATION_FAILED');
      }
      expect((await app.call('GET', '/test-only/list?tagIds=1&tagIds=2')).body).toEqual({ page: 1, tagIds: ['1', '2'] });
    });

    it('a 500 carries no internal detail', async () => {
      for (const path of ['/test-only/boom', '/test-only/async-boom', '/test-only/defect']) {
        const r = await app.call('GET', path);
        expect(r.status).toBe(500);
        expect(r.body).toEqual({ error: { code: 'INTERNAL', message: 'internal error' } });
        expect(r.text).not.toMatch(/hunter2|ECONNSECRET|secret\.ts|TypeError|users|at /);
        expect(r.headers.get('x-request-id')).toBeTruthy(); // the key to the log entry that does have the detail
      }
    });
  });
});
