/**
 * Sessions over real HTTP: login cookies, /auth/me, refresh rotation with its grace rule, reuse
 * revocation, logout, and every way an access token must fail (docs/security.md; docs/api.md, Errors).
 */
import jwt from 'jsonwebtoken';
import { randomUUID } from 'node:crypto';
import { ADMIN, TEST_SECRET, cookieValue, login, registerAdmin, startAuthHarness, type AuthHarness, type TestApp } from '../../support/auth-http';

describe('auth sessions', () => {
  let h: AuthHarness;
  let app: TestApp;
  let userId: string;

  beforeAll(async () => {
    h = await startAuthHarness();
    await registerAdmin(await h.app());
    userId = (await h.db.pool.query(`SELECT id FROM users`)).rows[0].id;
  });
  afterAll(() => h.close());
  // A fresh app per test: fresh login throttles.
  beforeEach(async () => {
    app = await h.app();
  });

  const me = (headers: Record<string, string>) => app.call('GET', '/auth/me', { headers });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const refreshWith = (token: string) => app.call('POST', '/auth/refresh', { headers: { cookie: `svc_rt=${token}` } });
  const sign = (claims: object, opts: jwt.SignOptions = {}, secret = TEST_SECRET) =>
    jwt.sign({ sub: userId, tv: 0, typ: 'access', jti: randomUUID(), ...claims }, secret, { algorithm: 'HS256', ...opts });
  const tokenVersion = async () => (await h.db.pool.query(`SELECT token_version FROM users WHERE id = $1`, [userId])).rows[0].token_version as number;

  describe('login', () => {
    it('sets HttpOnly, Path=/, SameSite=Lax cookies and answers only the user', async () => {
      const { access, refresh, answer } = await login(app);
      expect(answer.body).toEqual({ user: { id: userId, username: 'admin', role: 'ADMIN' } });
      for (const [name, maxAge] of [
        ['svc_at', 30 * 60],
        ['svc_rt', 7 * 24 * 3600],
      ] as const) {
        const line = answer.setCookies[name]!;
        expect(line).toMatch(/; HttpOnly/);
        expect(line).toMatch(/; Path=\//);
        expect(line).toMatch(/; SameSite=Lax/);
        // plain HTTP: no Secure flag, or the browser would drop the cookie in development
        expect(line).not.toMatch(/Secure/);
        expect(Number(/Max-Age=(\d+)/.exec(line)![1])).toBeGreaterThanOrEqual(maxAge - 2);
      }
      // Tokens never appear in a body.
      expect(answer.text).not.toContain(access);
      expect(answer.text).not.toContain(refresh);
    });

    it('marks the cookies Secure when the request came over HTTPS (through a trusted proxy)', async () => {
      const proxied = await h.app({ env: { TRUST_PROXY: 'loopback' } });
      const r = await proxied.call('POST', '/auth/login', { body: ADMIN, headers: { 'x-forwarded-proto': 'https' } });
      expect(r.status).toBe(200);
      expect(r.setCookies.svc_at).toMatch(/; Secure/);
      expect(r.setCookies.svc_rt).toMatch(/; Secure/);
    });

    it('issues tokens with sub, tv, typ, jti, iat and exp, signed HS256; access lives TOKEN_EXPIRES_IN', async () => {
      const short = await h.app({ env: { TOKEN_EXPIRES_IN: '2m' } });
      const { access, refresh } = await login(short);
      const a = jwt.verify(access, TEST_SECRET, { algorithms: ['HS256'], complete: true });
      const r = jwt.verify(refresh, TEST_SECRET, { algorithms: ['HS256'], complete: true });
      expect(a.header.alg).toBe('HS256');
      expect(a.payload).toEqual({
        sub: userId,
        tv: expect.any(Number),
        typ: 'access',
        jti: expect.stringMatching(/^[0-9a-f-]{36}$/),
        iat: expect.any(Number),
        exp: expect.any(Number),
      });
      const ap = a.payload as jwt.JwtPayload;
      const rp = r.payload as jwt.JwtPayload;
      expect(ap.exp! - ap.iat!).toBe(120);
      expect(rp.typ).toBe('refresh');
      expect(rp.exp! - rp.iat!).toBe(7 * 24 * 3600);
      expect(rp.jti).not.toBe(ap.jti);
    });

    it('answers an unknown user and a wrong password alike: 401 AUTH.INVALID_CREDENTIALS', async () => {
      const unknown = await app.call('POST', '/auth/login', { body: { username: 'nobody', password: 'whatever-long-enough' } });
      const wrong = await app.call('POST', '/auth/login', { body: { username: 'admin', password: 'wrong password, sorry' } });
      expect(unknown.status).toBe(401);
      expect(wrong.status).toBe(401);
      expect(unknown.body).toEqual(wrong.body);
      expect(unknown.body.error.code).toBe('AUTH.INVALID_CREDENTIALS');
      expect(unknown.setCookies).toEqual({});
    });

    it('finds the user whatever the case of the name', async () => {
      expect((await app.call('POST', '/auth/login', { body: { ...ADMIN, username: 'ADMIN' } })).status).toBe(200);
    });
  });

  describe('the access token', () => {
    it('is accepted from the cookie and from a bearer header', async () => {
      const { access } = await login(app);
      expect((await me({ cookie: `svc_at=${access}` })).body).toEqual({ user: { id: userId, username: 'admin', role: 'ADMIN' } });
      expect((await me(bearer(access))).status).toBe(200);
    });

    it('is required: none, garbage, or a non-bearer Authorization header → 401 AUTH.UNAUTHENTICATED', async () => {
      const { access } = await login(app);
      const attempts: Record<string, string>[] = [{}, bearer('garbage'), { authorization: `Basic ${access}` }, { cookie: 'svc_at=' }];
      for (const headers of attempts) {
        const r = await me(headers);
        expect(r.status).toBe(401);
        expect(r.body.error.code).toBe('AUTH.UNAUTHENTICATED');
        expect(r.headers.get('www-authenticate')).toMatch(/^Bearer/);
      }
    });

    it('a refresh token used as an access token → 401', async () => {
      const { refresh } = await login(app);
      expect((await me(bearer(refresh))).status).toBe(401);
      expect((await me({ cookie: `svc_at=${refresh}` })).status).toBe(401);
    });

    it('alg none, a wrong signature, another HMAC algorithm, no exp, or an expired token → 401', async () => {
      const tv = await tokenVersion();
      const now = Math.floor(Date.now() / 1000);
      const good = sign({ tv, iat: now, exp: now + 600 });
      expect((await me(bearer(good))).status).toBe(200); // the forgeries below differ from this one in one respect each

      const none = jwt.sign({ sub: userId, tv, typ: 'access', jti: randomUUID(), iat: now, exp: now + 600 }, '', { algorithm: 'none' });
      const wrongSecret = sign({ tv, iat: now, exp: now + 600 }, {}, 'another-secret-that-is-also-32-characters!!');
      const hs512 = sign({ tv, iat: now, exp: now + 600 }, { algorithm: 'HS512' });
      const noExp = sign({ tv, iat: now });
      const expired = sign({ tv, iat: now - 3600, exp: now - 60 });
      const [head, payload] = good.split('.');
      const tampered = `${head}.${Buffer.from(JSON.stringify({ ...(jwt.decode(good) as object), sub: '1' })).toString('base64url')}.${good.split('.')[2]}`;
      for (const token of [none, wrongSecret, hs512, noExp, expired, tampered, `${head}.${payload}.`]) {
        expect((await me(bearer(token))).status).toBe(401);
      }
    });

    it('a tokenVersion that no longer matches → 401', async () => {
      const { access } = await login(app);
      await h.db.pool.query(`UPDATE users SET token_version = token_version + 1 WHERE id = $1`, [userId]);
      expect((await me(bearer(access))).status).toBe(401);
    });

    it('a j:-prefixed cookie (which cookie-parser turns into JSON) → 401, never 500', async () => {
      for (const value of ['j:{"sub":"1","typ":"access"}', 'j:["a","b"]', 'j:42', 'j:null']) {
        const r = await me({ cookie: `svc_at=${value}` });
        expect(r.status).toBe(401);
        expect((await refreshWith(value)).status).toBe(401);
      }
    });
  });

  describe('refresh', () => {
    it('rotates both cookies; the new pair works and tokens stay out of the body', async () => {
      const first = await login(app);
      const r = await refreshWith(first.refresh);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ user: { id: userId, username: 'admin', role: 'ADMIN' } });
      const access = cookieValue(r.setCookies.svc_at)!;
      const refresh = cookieValue(r.setCookies.svc_rt)!;
      expect(access).not.toBe(first.access);
      expect(refresh).not.toBe(first.refresh);
      expect(r.setCookies.svc_rt).toMatch(/HttpOnly/);
      expect(r.text).not.toContain(refresh);
      expect((await me(bearer(access))).status).toBe(200);
      expect((await refreshWith(refresh)).status).toBe(200);
    });

    it('needs a refresh token: none or an access token → 401', async () => {
      const { access } = await login(app);
      expect((await app.call('POST', '/auth/refresh')).status).toBe(401);
      expect((await refreshWith(access)).status).toBe(401);
    });

    it('grace: the just-rotated token is accepted once more within 10 s and gets the same pair (parallel tabs)', async () => {
      const first = await login(app);
      const rotated = await refreshWith(first.refresh);
      const again = await refreshWith(first.refresh);
      expect(again.status).toBe(200);
      expect(cookieValue(again.setCookies.svc_rt)).toBe(cookieValue(rotated.setCookies.svc_rt));
      expect(cookieValue(again.setCookies.svc_at)).toBe(cookieValue(rotated.setCookies.svc_at));
      expect((await me(bearer(cookieValue(again.setCookies.svc_at)!))).status).toBe(200);
    });

    it('two tabs refreshing with the same token at once both succeed with one pair', async () => {
      const first = await login(app);
      const [a, b] = await Promise.all([refreshWith(first.refresh), refreshWith(first.refresh)]);
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(cookieValue(a.setCookies.svc_rt)).toBe(cookieValue(b.setCookies.svc_rt));
    });

    it('reuse of a rotated token beyond the grace (a second time) revokes the session', async () => {
      const first = await login(app);
      const rotated = await refreshWith(first.refresh);
      const newAccess = cookieValue(rotated.setCookies.svc_at)!;
      const newRefresh = cookieValue(rotated.setCookies.svc_rt)!;
      expect((await refreshWith(first.refresh)).status).toBe(200); // the one grace use
      const before = await tokenVersion();
      const reuse = await refreshWith(first.refresh);
      expect(reuse.status).toBe(401);
      expect(reuse.body.error.code).toBe('AUTH.UNAUTHENTICATED');
      // The cookies are cleared and everything the session held is dead, including the unexpired access token.
      expect(reuse.setCookies.svc_at).toMatch(/Expires=Thu, 01 Jan 1970/);
      expect(await tokenVersion()).toBe(before + 1);
      expect((await me(bearer(newAccess))).status).toBe(401);
      expect((await refreshWith(newRefresh)).status).toBe(401);
    });

    it('reuse of an old token whose successor was already rotated revokes the session', async () => {
      const a = await login(app);
      const b = cookieValue((await refreshWith(a.refresh)).setCookies.svc_rt)!;
      const c = await refreshWith(b);
      expect(c.status).toBe(200);
      expect((await refreshWith(a.refresh)).status).toBe(401);
      expect((await refreshWith(cookieValue(c.setCookies.svc_rt)!)).status).toBe(401);
      expect((await me(bearer(cookieValue(c.setCookies.svc_at)!))).status).toBe(401);
    });

    it('reuse more than 10 s after the rotation revokes the session', async () => {
      const a = await login(app);
      const b = await refreshWith(a.refresh);
      // Move the rotation 11 s into the past instead of waiting for it.
      await h.db.pool.query(`UPDATE refresh_tokens SET rotated_at = rotated_at - interval '11 seconds' WHERE rotated_at IS NOT NULL`);
      expect((await refreshWith(a.refresh)).status).toBe(401);
      expect((await refreshWith(cookieValue(b.setCookies.svc_rt)!)).status).toBe(401);
    });
  });

  describe('logout', () => {
    it('bumps tokenVersion, clears the cookies, 204, and a still-unexpired access token stops working', async () => {
      const { access, refresh, cookie } = await login(app);
      const before = await tokenVersion();
      const r = await app.call('POST', '/auth/logout', { headers: { cookie } });
      expect(r.status).toBe(204);
      expect(r.text).toBe('');
      for (const name of ['svc_at', 'svc_rt']) {
        expect(r.setCookies[name]).toMatch(new RegExp(`^${name}=;.*Path=/;.*Expires=Thu, 01 Jan 1970.*HttpOnly.*SameSite=Lax`));
      }
      expect(await tokenVersion()).toBe(before + 1);
      expect((jwt.decode(access) as jwt.JwtPayload).exp! * 1000).toBeGreaterThan(Date.now());
      expect((await me(bearer(access))).status).toBe(401);
      expect((await me({ cookie: `svc_at=${access}` })).status).toBe(401);
      expect((await refreshWith(refresh)).status).toBe(401);
    });

    it('revokes with the refresh token alone (the access cookie may have expired)', async () => {
      const { access, refresh } = await login(app);
      expect((await app.call('POST', '/auth/logout', { headers: { cookie: `svc_rt=${refresh}` } })).status).toBe(204);
      expect((await me(bearer(access))).status).toBe(401);
    });

    it('without any session still clears the cookies', async () => {
      const r = await app.call('POST', '/auth/logout');
      expect(r.status).toBe(204);
      expect(r.setCookies.svc_at).toMatch(/^svc_at=;/);
    });
  });

  it('deleting the user invalidates its tokens', async () => {
    const { access, refresh } = await login(app);
    expect((await me(bearer(access))).status).toBe(200);
    await h.db.pool.query(`DELETE FROM users WHERE id = $1`, [userId]);
    try {
      expect((await me(bearer(access))).status).toBe(401);
      expect((await refreshWith(refresh)).status).toBe(401);
    } finally {
      // put the user back (same id, same hash) for any test after this one
      await h.db.pool.query(`DELETE FROM users`);
      await registerAdmin(await h.app());
      userId = (await h.db.pool.query(`SELECT id FROM users`)).rows[0].id;
    }
  });
});
