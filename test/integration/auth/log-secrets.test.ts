/**
 * No secret in the logs: every request is logged, in one short line without its headers, so neither
 * the session cookies (both tokens), a bearer token nor the cookies a login sets reach any line; the
 * redaction of those headers (src/platform/log.ts) stands behind it for any line that logs headers.
 */
import { Writable } from 'node:stream';
import { ADMIN, startTestService, type TestService } from '../../support/service';

describe('request logs', () => {
  let svc: TestService;
  const lines: string[] = [];
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    svc = await startTestService({ env: { LOG_LEVEL: 'info' }, login: false, logTo: sink });
  });
  afterAll(async () => {
    await svc.close();
  });

  it('hold no token after register, login, refresh and me, by cookie and by bearer', async () => {
    const post = (path: string, headers: Record<string, string> = {}, body?: unknown) =>
      fetch(svc.url + path, { method: 'POST', headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers }, body: body ? JSON.stringify(body) : undefined });
    expect((await post('/auth/register', {}, ADMIN)).status).toBe(201);
    const login = await post('/auth/login', {}, ADMIN);
    expect(login.status).toBe(200);
    const cookies = login.headers.getSetCookie().map((c) => c.split(';')[0]!);
    const tokens = cookies.map((c) => c.slice(c.indexOf('=') + 1));
    expect(tokens.length).toBe(2);
    const refreshed = await post('/auth/refresh', { cookie: cookies.join('; ') });
    expect(refreshed.status).toBe(200);
    const fresh = refreshed.headers.getSetCookie().map((c) => c.split(';')[0]!);
    tokens.push(...fresh.map((c) => c.slice(c.indexOf('=') + 1)));
    const access = fresh.find((c) => c.startsWith('svc_at='))!.slice('svc_at='.length);
    expect((await fetch(`${svc.url}/auth/me`, { headers: { cookie: fresh.join('; ') } })).status).toBe(200);
    expect((await fetch(`${svc.url}/auth/me`, { headers: { authorization: `Bearer ${access}` } })).status).toBe(200);

    const log = lines.join('\n');
    // The requests were logged, one short line each (method, path, status, time), without headers.
    const me = lines.filter((l) => l.includes('"url":"/auth/me"'));
    expect(me.length).toBeGreaterThanOrEqual(2);
    for (const l of me) {
      expect(JSON.parse(l)).toMatchObject({ msg: expect.stringMatching(/^GET \/auth\/me 200 [\d.]+ ms$/), res: { statusCode: 200 } });
      expect(l.length).toBeLessThan(400);
    }
    expect(log).not.toContain('"headers"');
    for (const t of tokens) expect(log).not.toContain(t);
    expect(log).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}/);
  });

  it("log a client's X-Request-Id as clientRequestId beside the server's own request id, on both paths", async () => {
    for (const [path, status] of [
      ['/auth/me', 401],
      ['/public/countries', 200],
      ['/public/countries', 200],
    ] as const) {
      const r = await fetch(`${svc.url}${path}`, { headers: { 'x-request-id': 'client-trace.42' } });
      expect(r.status).toBe(status);
      const own = r.headers.get('x-request-id')!;
      expect(own).toMatch(/^[0-9a-f-]{36}$/);
      const line = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.reqId === own || (l.req as { id?: unknown } | undefined)?.id === own);
      expect(line).toMatchObject({ clientRequestId: 'client-trace.42' });
    }
  });
});
