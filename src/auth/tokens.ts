/**
 * Signed tokens: HS256 JWTs with claims `sub` (user id), `tv` (tokenVersion), `typ` (access | refresh),
 * `jti` (uuid), `iat` and `exp`. Claims are given explicitly (no `expiresIn`) so that a token can be
 * signed again byte for byte from stored values during the refresh grace window.
 */
import jwt from 'jsonwebtoken';
import { z } from 'zod';
import { idSchema } from '../platform/ids';

export type TokenType = 'access' | 'refresh';

export const REFRESH_TOKEN_TTL_SECONDS = 7 * 24 * 60 * 60;

const claimsSchema = z.object({
  sub: idSchema,
  tv: z.number().int().nonnegative(),
  typ: z.enum(['access', 'refresh']),
  jti: z.uuid(),
  iat: z.number().int(),
  exp: z.number().int(),
});

export type TokenClaims = z.infer<typeof claimsSchema>;

/** `TOKEN_EXPIRES_IN` (config's duration form: `30m`, `2h`, `45s`, `7d`, `500ms` or bare seconds) in seconds. */
export function durationSeconds(value: string): number {
  const m = /^(\d+)(ms|s|m|h|d)?$/.exec(value);
  if (!m) throw new Error(`not a duration: ${value}`);
  const n = Number(m[1]);
  const factor = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86_400 }[m[2] ?? 's'] ?? 1;
  // A lifetime below one second cannot be written in `exp` (whole seconds); round up, never to zero.
  return Math.max(1, Math.ceil(n * factor));
}

export class TokenSigner {
  constructor(
    private readonly secret: string,
    readonly accessTtlSeconds: number,
    readonly refreshTtlSeconds: number = REFRESH_TOKEN_TTL_SECONDS,
  ) {
    // Config enforces this for JWT_SECRET; this guards any other caller.
    if (secret.length < 32) throw new Error('the signing secret must be at least 32 characters');
  }

  sign(claims: TokenClaims): string {
    return jwt.sign(claims, this.secret, { algorithm: 'HS256' });
  }

  /**
   * The verified claims, or null for anything not signed by us with HS256, expired, without `exp`,
   * or not shaped like our claims. The algorithm is pinned so `alg: none` and key-confusion tricks fail.
   */
  verify(token: unknown, expected: TokenType): TokenClaims | null {
    if (typeof token !== 'string' || token.length === 0 || token.length > 4096) return null;
    let payload: unknown;
    try {
      payload = jwt.verify(token, this.secret, { algorithms: ['HS256'], complete: false });
    } catch {
      return null;
    }
    const parsed = claimsSchema.safeParse(payload);
    if (!parsed.success || parsed.data.typ !== expected) return null;
    return parsed.data;
  }
}
