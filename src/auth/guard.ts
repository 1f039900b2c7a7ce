/**
 * The guards every authenticated route goes through.
 *
 * - `authenticate`: who is calling, no role check. The access token comes from `Authorization: Bearer`
 *   or the `svc_at` cookie; a refresh token, a bad signature, another algorithm, an expired token, a
 *   missing user or a tokenVersion mismatch → 401. Used alone only by routes every user may call
 *   (/auth/me).
 * - `requireRoles(...roles)`: authenticate, then the user's role must be one of `roles` → else 403.
 *   With no roles it means the default.
 * - `requireAdmin`: the global default, `requireRoles('ADMIN')`. Every admin route takes it; a route that
 *   means to admit other roles says so explicitly with `requireRoles(...)`.
 */
import type { Request, RequestHandler, Response } from 'express';
import { AppError } from '../platform/errors';
import { ACCESS_COOKIE, cookieString } from './cookies';
import { unauthenticated } from './sessions';
import type { TokenClaims, TokenSigner } from './tokens';
import type { Role, User } from './users';

export interface AuthContext {
  user: User;
  claims: TokenClaims;
}

/** What the guards look users up with: the user store, or a stand-in in unit tests. */
export interface GuardUsers {
  findById(id: string): Promise<User | null>;
}

export interface GuardDeps {
  users: GuardUsers;
  signer: TokenSigner;
}

export interface Guards {
  authenticate: RequestHandler;
  requireRoles(...roles: Role[]): RequestHandler;
  requireAdmin: RequestHandler;
  /** whether a handler is one of these guards (the start-up check that every route has one) */
  isGuard(handler: unknown): boolean;
}

/** The roles every authenticated route requires unless it widens them. */
export const DEFAULT_ROLES: readonly Role[] = ['ADMIN'];

const AUTH_KEY = 'auth';

/** The authenticated user of this request; only call it behind a guard. */
export function authOf(res: Response): AuthContext {
  const auth = res.locals[AUTH_KEY] as AuthContext | undefined;
  if (!auth) throw unauthenticated();
  return auth;
}

/** The bearer token when an Authorization header is present (even a malformed one), else the cookie. */
export function accessTokenOf(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (typeof header === 'string' && header.length > 0) {
    const m = /^Bearer[ ]+([A-Za-z0-9\-_.]+)\s*$/i.exec(header);
    // A header that is there but not a bearer token is a client mistake; do not fall back to the cookie.
    return m?.[1] ?? '';
  }
  return cookieString(req, ACCESS_COOKIE);
}

export function createGuards(deps: GuardDeps): Guards {
  async function identify(req: Request, res: Response): Promise<AuthContext> {
    const existing = res.locals[AUTH_KEY] as AuthContext | undefined;
    if (existing) return existing;
    const claims = deps.signer.verify(accessTokenOf(req), 'access');
    if (!claims) throw unauthenticated();
    const user = await deps.users.findById(claims.sub);
    // Deleted users and revoked sessions (logout, refresh reuse) end here.
    if (!user || user.tokenVersion !== claims.tv) throw unauthenticated('session is no longer valid');
    const auth: AuthContext = { user: { id: user.id, username: user.username, role: user.role, tokenVersion: user.tokenVersion }, claims };
    res.locals[AUTH_KEY] = auth;
    return auth;
  }

  const challenge = (res: Response) => res.setHeader('WWW-Authenticate', 'Bearer realm="catalog"');

  const authenticate: RequestHandler = (req, res, next) => {
    identify(req, res).then(
      () => next(),
      (e: unknown) => {
        if (e instanceof AppError && e.status === 401) challenge(res);
        next(e);
      },
    );
  };

  const guards = new WeakSet<object>([authenticate]);

  function requireRoles(...roles: Role[]): RequestHandler {
    const allowed: ReadonlySet<string> = new Set(roles.length ? roles : DEFAULT_ROLES);
    const guard: RequestHandler = (req, res, next) => {
      identify(req, res).then(
        ({ user }) => next(allowed.has(user.role) ? undefined : new AppError('AUTH.FORBIDDEN', 403, 'your role may not use this route')),
        (e: unknown) => {
          if (e instanceof AppError && e.status === 401) challenge(res);
          next(e);
        },
      );
    };
    guards.add(guard);
    return guard;
  }

  return {
    authenticate,
    requireRoles,
    requireAdmin: requireRoles(...DEFAULT_ROLES),
    isGuard: (handler) => typeof handler === 'function' && guards.has(handler),
  };
}
