import { parseRetryAfter } from '../../../src/sync/supplier/client';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-01T08:00:00Z');

  it('reads delay-seconds', () => {
    expect(parseRetryAfter('1', now)).toBe(1000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
  });

  it('reads an HTTP date relative to now, and a past date as no wait', () => {
    expect(parseRetryAfter('Sun, 01 Nov 2026 08:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Sun, 01 Nov 2026 07:59:00 GMT', now)).toBe(0);
  });

  it('caps a long wait at 30 s, whichever form asks for it', () => {
    expect(parseRetryAfter('3600', now)).toBe(30_000);
    expect(parseRetryAfter('Mon, 02 Nov 2026 08:00:00 GMT', now)).toBe(30_000);
  });

  it('ignores an absent or unreadable header (the client falls back to its backoff)', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
  });
});
