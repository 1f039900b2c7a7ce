/**
 * /auth: register (first user only), login, refresh, me, logout. Tokens travel only in cookies.
 */
import { Router } from 'express';
import { AppError } from '../platform/errors';
import type { Logger } from '../platform/log';
import { parseWith } from '../platform/http/errors';
import type { RouteDoc } from '../platform/http/openapi';
import { LIMITS, throttle, type ThrottleStores } from '../platform/http/rate-limit';
import { clearSessionCookies, cookieString, REFRESH_COOKIE, setSessionCookies } from './cookies';
import { accessTokenOf, authOf, type Guards } from './guard';
import type { PasswordHasher } from './passwords';
import { unauthenticated, type SessionService } from './sessions';
import type { TokenSigner } from './tokens';
import { publicUser, type UserStore } from './users';
import { loginBody, registerBody } from './requests';
import { userAnswer as userResponse, userList } from '../contract/auth';

export const authRouteDocs: RouteDoc[] = [
  {
    method: 'post',
    path: '/auth/register',
    summary: 'Create the first user (403 once any user exists)',
    body: registerBody,
    throttled: true,
    errors: ['AUTH.REGISTRATION_CLOSED'],
    responses: { 201: userResponse },
  },
  {
    method: 'post',
    path: '/auth/login',
    summary: 'Log in; sets the svc_at and svc_rt cookies',
    body: loginBody,
    throttled: true,
    session: 'set',
    errors: ['AUTH.INVALID_CREDENTIALS'],
    responses: { 200: userResponse },
  },
  {
    method: 'post',
    path: '/auth/refresh',
    summary: 'Rotate both cookies using the svc_rt cookie',
    session: 'rotate',
    // No valid refresh cookie, or a reused one: the session is revoked and both cookies cleared.
    errors: ['AUTH.UNAUTHENTICATED'],
    responses: { 200: userResponse },
  },
  { method: 'get', path: '/auth/me', summary: 'The current user (any role)', auth: true, responses: { 200: userResponse } },
  {
    method: 'get',
    path: '/users',
    summary: 'Who the users are: id and name of each (the admin names who did what in histories and runs)',
    auth: true,
    responses: { 200: userList },
  },
  { method: 'post', path: '/auth/logout', summary: 'Revoke every token of the caller (access or refresh token) and clear the cookies', session: 'clear', responses: { 204: null } },
];

export interface AuthRouteDeps {
  users: UserStore;
  sessions: SessionService;
  signer: TokenSigner;
  hasher: PasswordHasher;
  guards: Guards;
  log?: Logger;
  /** where the login and registration throttles count (default: this process's memory) */
  throttleStores?: ThrottleStores;
}

export function authRoutes({ users, sessions, signer, hasher, guards, log, throttleStores }: AuthRouteDeps): Router {
  const r = Router();

  r.post('/auth/register', throttle(LIMITS.registration, log, throttleStores), async (req, res) => {
    const body = parseWith(registerBody, req.body, 'registration');
    const closed = () => new AppError('AUTH.REGISTRATION_CLOSED', 403, 'registration is closed: a user already exists');
    // Cheap early answer; the decisive check is the locked one inside createFirst.
    if (await users.any()) throw closed();
    const user = await users.createFirst(body.username, await hasher.hash(body.password));
    if (!user) throw closed();
    res.status(201).json({ user: publicUser(user) });
  });

  r.post('/auth/login', throttle(LIMITS.login, log, throttleStores), async (req, res) => {
    const body = parseWith(loginBody, req.body, 'login');
    const { user, tokens } = await sessions.login(body.username, body.password);
    setSessionCookies(req, res, tokens);
    res.json({ user: publicUser(user) });
  });

  r.post('/auth/refresh', async (req, res) => {
    const claims = signer.verify(cookieString(req, REFRESH_COOKIE), 'refresh');
    if (!claims) throw unauthenticated('a valid refresh cookie is required');
    try {
      const { user, tokens } = await sessions.refresh(claims);
      setSessionCookies(req, res, tokens);
      res.json({ user: publicUser(user) });
    } catch (e) {
      // A revoked or reused session leaves the browser with nothing to retry with.
      if (e instanceof AppError && e.status === 401) clearSessionCookies(req, res);
      throw e;
    }
  });

  // Widened on purpose: any authenticated user, whatever its role, may see who it is (the SPA restores
  // its session with this call). Everything else keeps the default, ADMIN only.
  r.get('/auth/me', guards.authenticate, (_req, res) => {
    res.json({ user: publicUser(authOf(res).user) });
  });

  // Names for the ids that events and runs record as who did it; nothing else of a user (no hash, no role).
  r.get('/users', guards.requireAdmin, async (_req, res) => {
    res.json({ items: (await users.list()).map((u) => ({ id: u.id, username: u.username })) });
  });

  // Logging out revokes whatever session the caller proves: a valid access token, or failing that a
  // valid refresh token (an access cookie may have expired). Without either there is nothing to
  // revoke; the cookies are cleared all the same.
  r.post('/auth/logout', async (req, res) => {
    const access = signer.verify(accessTokenOf(req), 'access');
    const claims = access ?? signer.verify(cookieString(req, REFRESH_COOKIE), 'refresh');
    if (claims) {
      const user = await users.findById(claims.sub);
      if (user && user.tokenVersion === claims.tv) await sessions.logout(user.id);
    }
    clearSessionCookies(req, res);
    res.status(204).end();
  });

  return r;
}
