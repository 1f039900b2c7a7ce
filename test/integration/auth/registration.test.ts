/**
 * Registration: first user only, a race of first registrations, input rules, and payloads that try
 * to reach Object.prototype.
 */
import { UserStore } from '../../../src/auth/users';
import { ADMIN, login, startAuthHarness, type AuthHarness } from '../../support/auth-http';

describe('registration', () => {
  let h: AuthHarness;

  beforeEach(async () => {
    h = await startAuthHarness();
  });
  afterEach(() => h.close());

  const userCount = async () => Number((await h.db.pool.query(`SELECT count(*) AS n FROM users`)).rows[0].n);

  it('creates the first user as ADMIN (argon2id hash), then refuses with 403', async () => {
    const app = await h.app();
    const first = await app.call('POST', '/auth/register', { body: ADMIN });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ user: { id: expect.stringMatching(/^\d+$/), username: 'admin', role: 'ADMIN' } });
    const row = (await h.db.pool.query(`SELECT password_hash, role, token_version FROM users`)).rows[0];
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.password_hash).not.toContain(ADMIN.password);
    expect(row).toMatchObject({ role: 'ADMIN', token_version: 0 });

    const second = await app.call('POST', '/auth/register', { body: { username: 'second', password: 'another long password' } });
    expect(second.status).toBe(403);
    expect(second.body.error.code).toBe('AUTH.REGISTRATION_CLOSED');
    expect(await userCount()).toBe(1);
    expect((await login(app)).answer.body.user.username).toBe('admin');
  });

  it('twenty concurrent first registrations create exactly one user', async () => {
    // Twenty clients behind a trusted proxy, so the registration throttle (5/min per client) stays out of the race.
    const app = await h.app({ env: { TRUST_PROXY: 'loopback' } });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        app.call('POST', '/auth/register', {
          body: { username: `racer${i}`, password: 'a password long enough' },
          headers: { 'x-forwarded-for': `203.0.113.${i + 1}` },
        }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 403)).toHaveLength(19);
    expect(await userCount()).toBe(1);
  });

  it('the store alone lets one of twenty concurrent first users in (the advisory lock, not the early check)', async () => {
    const store = new UserStore(h.db.pool);
    const created = await Promise.all(Array.from({ length: 20 }, (_, i) => store.createFirst(`direct${i}`, '$argon2id$placeholder')));
    expect(created.filter(Boolean)).toHaveLength(1);
    expect(await userCount()).toBe(1);
  });

  it.each([
    ['a password under 12 characters', { username: 'admin', password: 'short-11chr' }],
    ['a missing password', { username: 'admin' }],
    ['a too-short name', { username: 'ab', password: 'long enough password' }],
    ['a name with spaces', { username: 'a b c', password: 'long enough password' }],
    ['a non-string password', { username: 'admin', password: 123456789012345 }],
    ['an unknown field', { username: 'admin', password: 'long enough password', role: 'ADMIN' }],
  ])('refuses %s with 400', async (_what, body) => {
    const r = await (await h.app()).call('POST', '/auth/register', { body });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('VALIDATION_FAILED');
    expect(await userCount()).toBe(0);
  });

  it('accepts exactly 12 characters', async () => {
    expect((await (await h.app()).call('POST', '/auth/register', { body: { username: 'admin', password: '123456789012' } })).status).toBe(201);
  });

  it('__proto__ and constructor payloads change nothing (register and login)', async () => {
    const app = await h.app();
    const hostile = [
      '{"username":"admin","password":"long enough password","__proto__":{"role":"GUEST","isAdmin":true}}',
      '{"username":"admin","password":"long enough password","constructor":{"prototype":{"isAdmin":true}}}',
      '{"__proto__":{"username":"admin","password":"long enough password"}}',
    ];
    for (const body of hostile) {
      const r = await app.call('POST', '/auth/register', { body, headers: { 'content-type': 'application/json' } });
      expect(r.status).toBe(400);
    }
    expect(await userCount()).toBe(0);
    expect((await app.call('POST', '/auth/register', { body: ADMIN })).status).toBe(201);
    const loginHostile = await app.call('POST', '/auth/login', {
      body: `{"username":"admin","password":"nope","__proto__":{"password":"${ADMIN.password}"}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(loginHostile.status).toBe(400);
    expect(loginHostile.setCookies).toEqual({});
    // This process serves the app, so a polluted prototype would show here.
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(({} as Record<string, unknown>).role).toBeUndefined();
    expect(({} as Record<string, unknown>).password).toBeUndefined();
    expect((await h.db.pool.query(`SELECT role FROM users`)).rows).toEqual([{ role: 'ADMIN' }]);
  });
});
