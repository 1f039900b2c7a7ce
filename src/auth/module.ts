/**
 * The auth slice put together from what a process has: the pool and the config.
 */
import type { Router } from 'express';
import { resolveJwtSecret, type Config } from '../config';
import type { Pool } from '../platform/db';
import type { Logger } from '../platform/log';
import { createGuards, type Guards } from './guard';
import { argon2Hasher, type PasswordHasher } from './passwords';
import { authRoutes } from './routes';
import { SessionService } from './sessions';
import { durationSeconds, TokenSigner } from './tokens';
import { UserStore } from './users';
import { postgresThrottleStores } from '../platform/http/rate-limit';

export interface Auth {
  guards: Guards;
  routes: Router;
  users: UserStore;
  sessions: SessionService;
  signer: TokenSigner;
}

export function createAuth(deps: { pool: Pool; config: Config; log?: Logger; hasher?: PasswordHasher }): Auth {
  // startService resolves the secret before anything starts; this covers apps built without it (tests, tools).
  const secret = deps.config.jwt.secret ?? resolveJwtSecret(deps.config);
  const signer = new TokenSigner(secret, durationSeconds(deps.config.jwt.accessExpiresIn));
  const hasher = deps.hasher ?? argon2Hasher;
  const users = new UserStore(deps.pool);
  const sessions = new SessionService({ pool: deps.pool, users, signer, hasher });
  // The dummy hash is ready before the first login, so that login is not the odd fast one out.
  sessions.warmUp().catch(() => undefined);
  const guards = createGuards({ users, signer });
  const routes = authRoutes({ users, sessions, signer, hasher, guards, log: deps.log, throttleStores: postgresThrottleStores(deps.pool) });
  return { guards, routes, users, sessions, signer };
}
