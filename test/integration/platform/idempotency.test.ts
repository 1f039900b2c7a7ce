/**
 * Retries are safe: an admin write sent again with the same Idempotency-Key answers what the first
 * answered and appends nothing; the key with another request is 422; keys are per caller.
 */
import { eventually } from '../../support/eventually';
import { startTestService, type TestService } from '../../support/service';

describe('Idempotency-Key', () => {
  let svc: TestService;
  const events = async () => Number((await svc.db.pool.query(`SELECT count(*) AS n FROM es_events`)).rows[0].n);
  beforeAll(async () => {
    // Short enough for the write made while the runners are stopped, long enough on a busy machine.
    svc = await startTestService({ env: { COMMAND_WAIT_MS: '10000' } });
  });
  afterAll(async () => {
    await svc.close();
  });

  it('the same key and request answer the first answer again and append nothing', async () => {
    const key = { 'idempotency-key': 'create-size-group-1' };
    const first = await svc.request('POST', '/tag-groups', { name: '尺码组' }, key);
    expect(first.status).toBe(201);
    const after = await events();
    const again = await svc.request('POST', '/tag-groups', { name: '尺码组' }, key);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await events()).toBe(after);
    const groups = await svc.request('GET', '/tag-groups?pageSize=100');
    expect(groups.body.items.filter((g: { name: string }) => g.name === '尺码组')).toHaveLength(1);
  });

  it('the same key with another body (or route) is 422; without a key, every request writes', async () => {
    const key = { 'idempotency-key': 'create-color-group' };
    expect((await svc.request('POST', '/tag-groups', { name: '颜色组' }, key)).status).toBe(201);
    const reused = await svc.request('POST', '/tag-groups', { name: '别的组' }, key);
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe('IDEMPOTENCY.KEY_REUSED');
    expect((await svc.request('POST', '/categories', { name: '颜色组' }, key)).status).toBe(422);
    const a = await svc.request('POST', '/tag-groups', { name: '无键组' });
    const b = await svc.request('POST', '/tag-groups', { name: '无键组二' });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.id).not.toBe(b.body.id);
  });

  it('only a routed write that takes a key uses it: a mistyped path answers its 404, a wrong method its 405, and keeps nothing', async () => {
    const key = { 'idempotency-key': 'meant-for-tag-groups' };
    const kept = async () => (await svc.db.pool.query(`SELECT status FROM idempotency_keys WHERE key = $1`, [key['idempotency-key']])).rows;
    // A mistyped URL: 404 each time, never replayed, and the key is not taken.
    for (let i = 0; i < 2; i++) {
      const typo = await svc.request('POST', '/tag-group', { name: '拼写组' }, key);
      expect([typo.status, typo.body.error.code, typo.headers.get('idempotent-replayed')]).toEqual([404, 'NOT_FOUND', null]);
    }
    const wrongMethod = await svc.request('PUT', '/tag-groups', { name: '拼写组' }, key);
    expect([wrongMethod.status, wrongMethod.headers.get('allow')]).toEqual([405, 'GET, HEAD, POST']);
    expect(await kept()).toEqual([]);
    // The request the key was meant for writes, and takes it.
    const meant = await svc.request('POST', '/tag-groups', { name: '拼写组' }, key);
    expect([meant.status, meant.headers.get('idempotent-replayed')]).toEqual([201, null]);
    expect(await kept()).toEqual([{ status: 201 }]);
    // A used key on a path the API does not have is that path's 404, not 422 (nor 409).
    const unknown = await svc.request('POST', '/no/such/path', { name: '拼写组' }, key);
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'NOT_FOUND']);
    expect(await kept()).toEqual([{ status: 201 }]);
  });

  it('concurrent retries with one key write once; a 4xx answer is kept, a 503 is not; a bad key is 400', async () => {
    const key = { 'idempotency-key': 'burst' };
    const before = await events();
    const answers = await Promise.all(Array.from({ length: 6 }, () => svc.request('POST', '/tag-groups', { name: '并发组' }, key)));
    const statuses = answers.map((r) => r.status).sort();
    // One wrote; the others got its answer or were told to try again while it ran.
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    expect(new Set(answers.filter((r) => r.status === 201).map((r) => r.body.id)).size).toBe(1);
    expect(await events()).toBe(before + 1);

    const bad = await svc.request('POST', '/tag-groups', { name: 'x' }, { 'idempotency-key': 'has spaces in it' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('IDEMPOTENCY.BAD_KEY');
    // A 4xx is kept as the answer (the request was wrong, and stays wrong).
    const invalid = await svc.request('POST', '/tag-groups', { surprise: 1 }, { 'idempotency-key': 'invalid-once' });
    expect(invalid.status).toBe(400);
    const invalidAgain = await svc.request('POST', '/tag-groups', { surprise: 1 }, { 'idempotency-key': 'invalid-once' });
    expect([invalidAgain.status, invalidAgain.headers.get('idempotent-replayed')]).toEqual([400, 'true']);

    // Refused before the write (its read model is behind): the retry, once it is not, writes.
    await svc.services.engine.stopRunners();
    const group = await svc.request('POST', '/tag-groups', { name: '落后组' });
    const tagKey = { 'idempotency-key': 'tag-while-behind' };
    const behind = await svc.request('POST', '/tags', { name: '甲', groupId: group.body.id }, tagKey);
    expect(behind.status).toBe(503);
    await svc.services.engine.startRunners();
    let retried = behind;
    for (let i = 0; i < 50 && retried.status === 503; i++) retried = await svc.request('POST', '/tags', { name: '甲', groupId: group.body.id }, tagKey);
    // Written by the retry itself (not replayed): 201, or 202 when a busy machine projects it after
    // COMMAND_WAIT_MS; either way the tag is there once the projections catch up.
    expect([201, 202]).toContain(retried.status);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    await eventually(async () => (await svc.db.pool.query(`SELECT 1 FROM tags WHERE id = $1 AND NOT deleted`, [retried.body.id])).rowCount === 1, 20_000);
  });
});
