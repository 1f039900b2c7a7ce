import jwt from 'jsonwebtoken';
import { randomUUID } from 'node:crypto';
import { durationSeconds, TokenSigner, type TokenClaims } from '../../../src/auth/tokens';

const SECRET = 'unit-test-secret-with-at-least-32-characters';

describe('tokens', () => {
  const signer = new TokenSigner(SECRET, 1800);
  const now = Math.floor(Date.now() / 1000);
  const claims = (over: Partial<TokenClaims> = {}): TokenClaims => ({ sub: '123', tv: 0, typ: 'access', jti: randomUUID(), iat: now, exp: now + 60, ...over });

  it('round-trips our claims, and signs the same claims to the same string (the grace window relies on it)', () => {
    const c = claims();
    const token = signer.sign(c);
    expect(signer.verify(token, 'access')).toEqual(c);
    expect(signer.sign(c)).toBe(token);
    expect(jwt.decode(token, { complete: true })!.header).toEqual({ alg: 'HS256', typ: 'JWT' });
  });

  it('rejects the other type: refresh as access and access as refresh', () => {
    expect(signer.verify(signer.sign(claims({ typ: 'refresh' })), 'access')).toBeNull();
    expect(signer.verify(signer.sign(claims({ typ: 'access' })), 'refresh')).toBeNull();
  });

  it.each([
    ['alg none', () => jwt.sign(claims(), '', { algorithm: 'none' })],
    ['HS384 with the right secret', () => jwt.sign(claims(), SECRET, { algorithm: 'HS384' })],
    ['a wrong secret', () => jwt.sign(claims(), 'x'.repeat(40), { algorithm: 'HS256' })],
    [
      'no exp',
      () => {
        const { exp: _none, ...rest } = claims();
        return jwt.sign(rest, SECRET, { algorithm: 'HS256' });
      },
    ],
    ['an expired exp', () => signer.sign(claims({ iat: now - 120, exp: now - 60 }))],
    ['a non-uuid jti', () => jwt.sign({ ...claims(), jti: 'abc' }, SECRET, { algorithm: 'HS256' })],
    ['a non-numeric sub', () => jwt.sign({ ...claims(), sub: 'admin' }, SECRET, { algorithm: 'HS256' })],
    ['a string tv', () => jwt.sign({ ...claims(), tv: '0' }, SECRET, { algorithm: 'HS256' })],
    ['an empty string', () => ''],
    ['garbage', () => 'not.a.jwt'],
  ])('rejects %s', (_what, make) => {
    expect(signer.verify(make(), 'access')).toBeNull();
  });

  it('rejects values that are not strings (a j: cookie arrives as an object)', () => {
    for (const v of [undefined, null, 42, { sub: '1' }, ['a']]) expect(signer.verify(v, 'access')).toBeNull();
  });

  it('refuses a secret under 32 characters', () => {
    expect(() => new TokenSigner('x'.repeat(31), 60)).toThrow(/32/);
  });

  it.each([
    ['30m', 1800],
    ['2h', 7200],
    ['45s', 45],
    ['7d', 604800],
    ['90', 90],
    ['1500ms', 2],
    ['1ms', 1],
  ])('TOKEN_EXPIRES_IN %s is %i seconds', (value, seconds) => {
    expect(durationSeconds(value)).toBe(seconds);
  });
});
