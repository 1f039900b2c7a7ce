import { createTestDatabase } from '../../support/db';
import { startTestService, type TestService } from '../../support/service';

describe('HTTP basics', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ env: { BODY_LIMIT: '2kb' } });
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

  it("every answer carries the server's own request id, whatever the caller sends", async () => {
    const mine = await svc.request('GET', '/healthz', undefined, { 'x-request-id': 'trace-123' });
    expect(mine.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const generated = await svc.request('GET', '/healthz', undefined, { 'x-request-id': 'bad id with spaces' });
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(generated.headers.get('x-request-id')).not.toBe(mine.headers.get('x-request-id'));
    expect(generated.headers.get('x-powered-by')).toBeNull();
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
