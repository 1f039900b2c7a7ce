/**
 * Sessions: login, refresh-token rotation and logout.
 *
 * Rotation rule. Every refresh token is a row (migrations/003_users.sql). Presenting a current token
 * rotates it: the row is marked rotated and names its successor, and a new access/refresh pair is
 * issued. Presenting a rotated token again is reuse, which revokes the whole session (tokenVersion
 * bump), with one exception for parallel tabs or a retried request that lost its answer:
 * **within 10 seconds of the rotation, once, and only while the successor has not itself been
 * rotated**, the old token gets the very same pair the rotation issued (signed again from the stored
 * claims). Anything else is theft or a stale copy, and both end the session.
 */
import { randomUUID } from 'node:crypto';
import { AppError } from '../platform/errors';
import { withTransaction, type Pool, type PoolClient } from '../platform/db';
import { dummyHash, type PasswordHasher } from './passwords';
import type { TokenClaims, TokenSigner } from './tokens';
import type { User, UserStore } from './users';

export const REFRESH_GRACE_MS = 10_000;

export interface TokenPair {
  access: string;
  refresh: string;
  accessTtlSeconds: number;
  refreshTtlSeconds: number;
}

export const unauthenticated = (message = 'authentication required') => new AppError('AUTH.UNAUTHENTICATED', 401, message);
export const invalidCredentials = () => new AppError('AUTH.INVALID_CREDENTIALS', 401, 'invalid username or password');

interface RefreshRow {
  jti: string;
  user_id: string;
  token_version: number;
  issued_at: Date;
  expires_at: Date;
  access_jti: string;
  access_expires_at: Date;
  rotated_at: Date | null;
  replaced_by: string | null;
  grace_used_at: Date | null;
}

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

export interface SessionDeps {
  pool: Pool;
  users: UserStore;
  signer: TokenSigner;
  hasher: PasswordHasher;
  now?: () => number;
}

export class SessionService {
  private readonly now: () => number;
  private dummy: Promise<string> | null = null;

  constructor(private readonly deps: SessionDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Computes the dummy hash ahead of the first login, so the first unknown-user login is not faster either. */
  warmUp(): Promise<string> {
    this.dummy ??= dummyHash(this.deps.hasher);
    return this.dummy;
  }

  /** Same work and the same answer for an unknown user and a wrong password: one argon2 verification, 401. */
  async login(username: string, password: string): Promise<{ user: User; tokens: TokenPair }> {
    const found = await this.deps.users.findByUsername(username);
    const hash = found?.passwordHash ?? (await this.warmUp());
    const ok = await this.deps.hasher.verify(hash, password);
    if (!found || !ok) throw invalidCredentials();
    const { passwordHash: _hidden, ...user } = found;
    const { tokens } = await withTransaction(this.deps.pool, (c) => this.issue(c, user));
    return { user, tokens };
  }

  /** Rotates a refresh token (see the rule at the top of this file). Reuse revokes, then answers 401. */
  async refresh(claims: TokenClaims): Promise<{ user: User; tokens: TokenPair }> {
    const outcome = await withTransaction(this.deps.pool, async (c) => {
      // The user row lock serialises every refresh of one user, so two tabs cannot both rotate.
      const current = await this.deps.users.lockById(claims.sub, c);
      if (!current || current.tokenVersion !== claims.tv) return { kind: 'invalid' as const };
      const { passwordHash: _hidden, ...u } = current;
      const r = await c.query<RefreshRow>(`SELECT * FROM refresh_tokens WHERE jti = $1 AND user_id = $2 FOR UPDATE`, [claims.jti, u.id]);
      const row = r.rows[0];
      if (row && !row.rotated_at) {
        const { tokens, refreshJti } = await this.issue(c, u);
        await c.query(`UPDATE refresh_tokens SET rotated_at = to_timestamp($2 / 1000.0), replaced_by = $3 WHERE jti = $1`, [row.jti, this.now(), refreshJti]);
        return { kind: 'rotated' as const, user: u, tokens };
      }
      if (row && row.rotated_at && row.replaced_by && !row.grace_used_at && this.now() - row.rotated_at.getTime() <= REFRESH_GRACE_MS) {
        const s = await c.query<RefreshRow>(`SELECT * FROM refresh_tokens WHERE jti = $1 FOR UPDATE`, [row.replaced_by]);
        const successor = s.rows[0];
        if (successor && !successor.rotated_at && successor.token_version === u.tokenVersion) {
          await c.query(`UPDATE refresh_tokens SET grace_used_at = to_timestamp($2 / 1000.0) WHERE jti = $1`, [row.jti, this.now()]);
          return { kind: 'rotated' as const, user: u, tokens: this.resign(u, successor) };
        }
      }
      // Reuse of a rotated token (or a validly signed token we hold no row for): end the session.
      await this.deps.users.bumpTokenVersion(u.id, c);
      return { kind: 'reused' as const };
    });
    if (outcome.kind === 'invalid') throw unauthenticated('session is no longer valid');
    if (outcome.kind === 'reused') throw unauthenticated('refresh token was already used; the session has been revoked');
    return { user: outcome.user, tokens: outcome.tokens };
  }

  /** Revokes every token of the user: access tokens fail the tokenVersion check, refresh rows are gone. */
  async logout(userId: string): Promise<void> {
    await this.deps.users.bumpTokenVersion(userId);
  }

  private async issue(c: PoolClient, user: User): Promise<{ tokens: TokenPair; refreshJti: string }> {
    const { signer } = this.deps;
    const iat = Math.floor(this.now() / 1000);
    const refreshJti = randomUUID();
    const accessJti = randomUUID();
    const accessExp = iat + signer.accessTtlSeconds;
    const refreshExp = iat + signer.refreshTtlSeconds;
    // Housekeeping while the user row is at hand: expired rows can never be presented again.
    await c.query(`DELETE FROM refresh_tokens WHERE user_id = $1 AND expires_at < now()`, [user.id]);
    await c.query(
      `INSERT INTO refresh_tokens (jti, user_id, token_version, issued_at, expires_at, access_jti, access_expires_at)
       VALUES ($1, $2, $3, to_timestamp($4), to_timestamp($5), $6, to_timestamp($7))`,
      [refreshJti, user.id, user.tokenVersion, iat, refreshExp, accessJti, accessExp],
    );
    return { tokens: this.pair(user, { iat, refreshJti, refreshExp, accessJti, accessExp }), refreshJti };
  }

  private resign(user: User, row: RefreshRow): TokenPair {
    return this.pair(user, {
      iat: seconds(row.issued_at),
      refreshJti: row.jti,
      refreshExp: seconds(row.expires_at),
      accessJti: row.access_jti,
      accessExp: seconds(row.access_expires_at),
    });
  }

  private pair(user: User, t: { iat: number; refreshJti: string; refreshExp: number; accessJti: string; accessExp: number }): TokenPair {
    const { signer } = this.deps;
    const nowS = Math.floor(this.now() / 1000);
    return {
      access: signer.sign({ sub: user.id, tv: user.tokenVersion, typ: 'access', jti: t.accessJti, iat: t.iat, exp: t.accessExp }),
      refresh: signer.sign({ sub: user.id, tv: user.tokenVersion, typ: 'refresh', jti: t.refreshJti, iat: t.iat, exp: t.refreshExp }),
      // cookie lifetimes count from now, so a pair signed again in the grace window does not outlive its tokens
      accessTtlSeconds: Math.max(1, t.accessExp - nowS),
      refreshTtlSeconds: Math.max(1, t.refreshExp - nowS),
    };
  }
}
