/**
 * The guards without a database: users come from a stand-in, requests and responses are minimal fakes.
 */
import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { accessTokenOf, createGuards, type GuardUsers } from '../../../src/auth/guard';
import { TokenSigner } from '../../../src/auth/tokens';
import type { Role, User } from '../../../src/auth/users';
import { AppError } from '../../../src/platform/errors';

const signer = new TokenSigner('unit-test-secret-with-at-least-32-characters', 1800);
const now = Math.floor(Date.now() / 1000);
const token = (over: object = {}) => signer.sign({ sub: '7', tv: 3, typ: 'access', jti: randomUUID(), iat: now, exp: now + 60, ...over });

function fakeReq(headers: Record<string, string> = {}, cookies: Record<string, unknown> = {}): Request {
  return { headers, cookies } as unknown as Request;
}
function fakeRes(): Response & { headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  return { locals: {}, headers, setHeader: (k: string, v: string) => void (headers[k.toLowerCase()] = v) } as unknown as Response & { headers: Record<string, string> };
}
async function run(mw: RequestHandler, req: Request, res = fakeRes()): Promise<{ error: unknown; res: typeof res }> {
  return new Promise((resolve) => {
    void mw(req, res, (e?: unknown) => resolve({ error: e, res }));
  });
}

describe('guards', () => {
  let user: User | null;
  const users: GuardUsers = { findById: async (id) => (user && id === user.id ? user : null) };
  const guards = createGuards({ users, signer });
  beforeEach(() => {
    user = { id: '7', username: 'admin', role: 'ADMIN', tokenVersion: 3 };
  });

  it('requireAdmin lets an ADMIN with a live session through and records who it is', async () => {
    const { error, res } = await run(guards.requireAdmin, fakeReq({ authorization: `Bearer ${token()}` }));
    expect(error).toBeUndefined();
    expect(res.locals.auth.user).toEqual(user);
  });

  it('a role outside the allowed ones is 403 AUTH.FORBIDDEN; a route that widens admits it', async () => {
    user = { ...user!, role: 'VIEWER' }; // a role this build does not know, as a database might hold it
    const denied = await run(guards.requireAdmin, fakeReq({ authorization: `Bearer ${token()}` }));
    expect(denied.error).toBeInstanceOf(AppError);
    expect(denied.error).toMatchObject({ status: 403, code: 'AUTH.FORBIDDEN' });
    expect((await run(guards.requireRoles('ADMIN', 'VIEWER' as Role), fakeReq({ authorization: `Bearer ${token()}` }))).error).toBeUndefined();
    expect((await run(guards.authenticate, fakeReq({ authorization: `Bearer ${token()}` }))).error).toBeUndefined();
  });

  it('requireRoles() without roles means the default, ADMIN', async () => {
    user = { ...user!, role: 'VIEWER' };
    expect((await run(guards.requireRoles(), fakeReq({ authorization: `Bearer ${token()}` }))).error).toMatchObject({ status: 403 });
  });

  it.each([
    ['no token', () => fakeReq()],
    ['a refresh token', () => fakeReq({ authorization: `Bearer ${token({ typ: 'refresh' })}` })],
    ['a stale tokenVersion', () => fakeReq({ authorization: `Bearer ${token({ tv: 2 })}` })],
    ['a deleted user', () => fakeReq({ authorization: `Bearer ${token({ sub: '8' })}` })],
    ['a j: cookie parsed into an object', () => fakeReq({}, { svc_at: { sub: '7', typ: 'access' } })],
    ['a j: cookie parsed into a number', () => fakeReq({}, { svc_at: 42 })],
  ])('%s → 401 AUTH.UNAUTHENTICATED with a Bearer challenge', async (_what, req) => {
    const { error, res } = await run(guards.requireAdmin, req());
    expect(error).toMatchObject({ status: 401, code: 'AUTH.UNAUTHENTICATED' });
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it('reads the bearer header first, else the cookie; a non-bearer header never falls back to the cookie', () => {
    expect(accessTokenOf(fakeReq({ authorization: 'Bearer abc.def.ghi' }, { svc_at: 'cookie' }))).toBe('abc.def.ghi');
    expect(accessTokenOf(fakeReq({}, { svc_at: 'cookie' }))).toBe('cookie');
    expect(accessTokenOf(fakeReq({ authorization: 'Basic Zm9vOmJhcg==' }, { svc_at: 'cookie' }))).toBe('');
    expect(accessTokenOf(fakeReq({}, { svc_at: { a: 1 } }))).toBeUndefined();
  });
});
