import http from 'node:http';
import { createTestDatabase } from '../../support/db';
import { startTestService, type TestService } from '../../support/service';

/** A request fetch cannot make: a GET with a body. */
function rawRequest(url: string, method: string, path: string, body: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url + path, { method, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('HTTP basics', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ env: { BODY_LIMIT: '2kb', METRICS_TOKEN: 'scrape-token-for-the-test' } });
  });
  afterAll(async () => {
    await svc.close();
  });

  it('/healthz answers while the process is up; /readyz checks the database, event store and schema', async () => {
    expect(await svc.request('GET', '/healthz')).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await svc.request('GET', '/readyz')).toMatchObject({
      status: 200,
      body: { status: 'ready', checks: { database: 'ok', eventStore: 'ok', migrations: 'ok' } },
    });
  });

  it('errors have one shape; unknown routes are 404; a malformed 64-bit id is 400, never 500', async () => {
    const notFound = await svc.request('GET', '/no/such/route');
    expect(notFound).toMatchObject({ status: 404, body: { error: { code: 'NOT_FOUND' } } });
    for (const id of ['abc', '1.5', '-1', '99999999999999999999', '0x10']) {
      const r = await svc.request('GET', `/origin-goods/${id}`);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('INVALID_ID');
    }
  });

  it('malformed JSON is 400 and a body over BODY_LIMIT is 413', async () => {
    const bad = await fetch(svc.url + '/sync/categories', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"dryRun": tru' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('MALFORMED_JSON');
    const big = await svc.request('POST', '/sync/categories', { dryRun: true, pad: 'x'.repeat(4000) });
    expect(big.status).toBe(413);
    expect(big.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('a method a path does not have is 405 with Allow naming those it has, under the API, its /v2-api mount and at the root', async () => {
    for (const [method, path, allow] of [
      ['PUT', '/goods/1', 'GET, HEAD, PATCH, DELETE'],
      ['POST', '/goods/tree', 'GET, HEAD, PATCH, DELETE'],
      ['DELETE', '/goods', 'GET, HEAD, POST'],
      ['PUT', '/categories/sort', 'GET, HEAD, PATCH, DELETE'],
      ['GET', '/upload', 'POST'],
      // The storefront's reads, which its fast lane answers for GET: every other method reaches the API's 405.
      ['POST', '/public/goods', 'GET, HEAD'],
      ['DELETE', '/public/goods/1', 'GET, HEAD'],
      ['POST', '/v2-api/public/home', 'GET, HEAD'],
      ['PATCH', '/v2-api/goods/1/origins', 'PUT'],
      ['POST', '/healthz', 'GET, HEAD'],
      ['DELETE', '/readyz', 'GET, HEAD'],
      ['POST', '/', 'GET, HEAD'],
      ['PUT', '/metrics', 'GET, HEAD'],
    ] as const) {
      const r = await svc.request(method, path);
      expect([method, path, r.status, r.headers.get('allow'), r.body.error.code]).toEqual([method, path, 405, allow, 'REQUEST.METHOD_NOT_ALLOWED']);
    }
    // HEAD of a path without GET: the status and Allow, no body.
    const head = await fetch(svc.url + '/upload', { method: 'HEAD', headers: { authorization: `Bearer ${svc.adminToken}` } });
    expect([head.status, head.headers.get('allow')]).toEqual([405, 'POST']);
    // A path nothing serves is still 404, without Allow; the methods a path has still answer.
    const none = await svc.request('PUT', '/no/such/route');
    expect([none.status, none.headers.get('allow')]).toEqual([404, null]);
    expect((await svc.request('GET', '/public/goods')).status).toBe(200);
    expect((await svc.request('GET', '/public/goods')).status).toBe(200); // the fast lane's cached answer
  });

  it('the root routes refuse a query key as every route that takes none does', async () => {
    for (const path of ['/healthz?probe=1', '/readyz?x=', '/?utm=1', '/metrics?name=catalog', '/favicon.ico?v=2']) {
      const r = await svc.request('GET', path, undefined, path.startsWith('/metrics') ? { authorization: 'Bearer scrape-token-for-the-test' } : {});
      expect([path, r.status, r.body.error.code]).toEqual([path, 400, 'VALIDATION_FAILED']);
    }
    expect((await svc.request('GET', '/metrics', undefined, { authorization: 'Bearer scrape-token-for-the-test' })).status).toBe(200);
  });

  it('a read takes no body: one sent along is not read, so it cannot turn the read into a 400', async () => {
    const r = await rawRequest(svc.url, 'GET', '/public/countries', '{"not json', { 'content-type': 'application/json' });
    expect(r.status).toBe(200);
    const big = await rawRequest(svc.url, 'GET', '/healthz', JSON.stringify({ pad: 'x'.repeat(4000) }), { 'content-type': 'application/json' });
    expect(big.status).toBe(200);
  });

  it("every answer carries the server's own request id, whatever the caller sends", async () => {
    const mine = await svc.request('GET', '/healthz', undefined, { 'x-request-id': 'trace-123' });
    expect(mine.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const generated = await svc.request('GET', '/healthz', undefined, { 'x-request-id': 'bad id with spaces' });
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(generated.headers.get('x-request-id')).not.toBe(mine.headers.get('x-request-id'));
    expect(generated.headers.get('x-powered-by')).toBeNull();
  });
});

describe('405 under API_PREFIX', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ env: { API_PREFIX: '/api' }, login: false });
  });
  afterAll(async () => {
    await svc.close();
  });

  it('is answered under the prefix and the /v2-api mount; outside both, a path is unknown (404)', async () => {
    for (const path of ['/api/goods/1', '/v2-api/goods/1']) {
      const r = await svc.request('PUT', path);
      expect([path, r.status, r.headers.get('allow')]).toEqual([path, 405, 'GET, HEAD, PATCH, DELETE']);
    }
    const outside = await svc.request('PUT', '/goods/1');
    expect([outside.status, outside.body.error.code]).toEqual([404, 'NOT_FOUND']);
    expect((await svc.request('POST', '/healthz')).status).toBe(405);
  });
});

describe('readiness before migrations', () => {
  it('/readyz is 503 naming the pending migrations while the process is healthy', async () => {
    const db = await createTestDatabase({ migrated: false });
    // The services read tables that migrations create; only health is exercised here.
    await db.pool.query(`CREATE TABLE es_streams (stream_id text PRIMARY KEY, revision bigint NOT NULL)`);
    const svc = await startTestService({ db, workers: false, login: false });
    try {
      expect((await svc.request('GET', '/healthz')).status).toBe(200);
      const r = await svc.request('GET', '/readyz');
      expect(r.status).toBe(503);
      expect(r.headers.get('retry-after')).toBe('5');
      expect(r.body.checks.migrations).toMatch(/pending: 001_event-store/);
    } finally {
      await svc.close();
      await db.drop();
    }
  });
});
