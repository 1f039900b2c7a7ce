/**
 * Throttles (docs/security.md, Throttles): login 5/min, registration 5/min, upload 10/min, per client address;
 * a 429 in our error shape with Retry-After and the standard RateLimit headers.
 */
import { ADMIN, login, registerAdmin, startAuthHarness, type AuthHarness, type TestApp } from '../../support/auth-http';
import { startTestService, type TestService } from '../../support/service';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');

describe('throttles', () => {
  let h: AuthHarness;

  beforeAll(async () => {
    h = await startAuthHarness();
    await registerAdmin(await h.app());
  });
  afterAll(() => h.close());

  const wrongLogin = (app: TestApp, headers: Record<string, string> = {}) =>
    app.call('POST', '/auth/login', { body: { username: 'admin', password: 'not the password' }, headers });

  it('the 6th login in a minute gets 429 RATE_LIMITED with Retry-After and RateLimit headers', async () => {
    const app = await h.app();
    for (let i = 0; i < 5; i++) {
      const r = await wrongLogin(app);
      expect(r.status).toBe(401);
      expect(r.headers.get('ratelimit-policy')).toMatch(/q=5;\s*w=60/);
    }
    const sixth = await app.call('POST', '/auth/login', { body: ADMIN });
    expect(sixth.status).toBe(429);
    expect(sixth.body).toEqual({ error: { code: 'RATE_LIMITED', message: expect.any(String) } });
    const retryAfter = Number(sixth.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(sixth.headers.get('ratelimit')).toMatch(/r=0/);
    expect(sixth.setCookies).toEqual({});
  });

  it('a spoofed X-Forwarded-For does not escape the login limit while TRUST_PROXY is off', async () => {
    const app = await h.app(); // TRUST_PROXY unset: off
    for (let i = 0; i < 5; i++) expect((await wrongLogin(app, { 'x-forwarded-for': `198.51.100.${i}` })).status).toBe(401);
    expect((await wrongLogin(app, { 'x-forwarded-for': '198.51.100.77' })).status).toBe(429);
  });

  it('behind a trusted proxy the limit is per forwarded client', async () => {
    const app = await h.app({ env: { TRUST_PROXY: 'loopback' } });
    for (let i = 0; i < 5; i++) expect((await wrongLogin(app, { 'x-forwarded-for': '198.51.100.1' })).status).toBe(401);
    expect((await wrongLogin(app, { 'x-forwarded-for': '198.51.100.1' })).status).toBe(429);
    expect((await wrongLogin(app, { 'x-forwarded-for': '198.51.100.2' })).status).toBe(401);
  });

  it('the 6th registration in a minute gets 429', async () => {
    const app = await h.app();
    for (let i = 0; i < 5; i++) expect((await app.call('POST', '/auth/register', { body: { username: `u${i}x`, password: 'long enough password' } })).status).toBe(403);
    const sixth = await app.call('POST', '/auth/register', { body: { username: 'u6x', password: 'long enough password' } });
    expect(sixth.status).toBe(429);
    expect(sixth.body.error.code).toBe('RATE_LIMITED');
    expect(sixth.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('the 11th upload in a minute gets 429', async () => {
    const app = await h.app();
    const { cookie } = await login(app);
    const upload = () => {
      const form = new FormData();
      form.append('file', new Blob([PNG], { type: 'image/png' }), 'pixel.png');
      return app.call('POST', '/upload', { body: form, headers: { cookie } });
    };
    for (let i = 0; i < 10; i++) expect((await upload()).status).toBe(201);
    const eleventh = await upload();
    expect(eleventh.status).toBe(429);
    expect(eleventh.body.error.code).toBe('RATE_LIMITED');
    expect(eleventh.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('other routes are not throttled', async () => {
    const app = await h.app();
    const { cookie } = await login(app);
    for (let i = 0; i < 15; i++) expect((await app.call('GET', '/auth/me', { headers: { cookie } })).status).toBe(200);
  });
});

describe('throttles across processes', () => {
  it('two API processes on one database share the login budget: five attempts in all, then 429 from either', async () => {
    const a = await startTestService({ login: false });
    const b = await startTestService({ db: a.db, login: false, workers: false });
    try {
      const attempt = (svc: TestService) =>
        fetch(`${svc.url}/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'nobody', password: 'not the password' }),
        });
      const statuses: number[] = [];
      for (const svc of [a, b, a, b, a]) statuses.push((await attempt(svc)).status);
      expect(statuses).toEqual([401, 401, 401, 401, 401]);
      expect((await attempt(b)).status).toBe(429);
      expect((await attempt(a)).status).toBe(429);
    } finally {
      await b.close();
      await a.close();
    }
  });
});
