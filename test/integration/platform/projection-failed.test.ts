/**
 * A command never answers success for a change its read models will not show: when a projection it
 * waits on has stopped on a poison event, the answer is a 503 naming that projection.
 */
import { startTestService, type TestService } from '../../support/service';

describe('a command waiting on a stopped projection', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(async () => {
    await svc.close();
  });

  it('answers 503 PROJECTION.FAILED naming it; once retried, commands answer as usual', async () => {
    const group = await svc.request('POST', '/tag-groups', { name: '尺寸' });
    expect(group.status).toBe(201);
    // The state a poison event leaves (the runner records it the same way).
    await svc.db.pool.query(`UPDATE projection_checkpoints SET state = 'failed', last_error = '{"message":"cannot apply","type":"TagGroupUpdated"}' WHERE name = 'tags'`);
    const renamed = await svc.request('PATCH', `/tag-groups/${group.body.id}`, { name: '尺码' });
    expect(renamed.status).toBe(503);
    expect(renamed.body.error).toMatchObject({ code: 'PROJECTION.FAILED', message: expect.stringContaining('tags') });
    expect(renamed.headers.get('retry-after')).toBeTruthy();
    const appended = await svc.db.pool.query(`SELECT count(*)::int AS n FROM es_events WHERE stream_id = $1`, [`tagGroup-${group.body.id}`]);
    expect(appended.rows[0].n).toBe(2);

    expect(await svc.services.engine.retry('tags')).toBe(true);
    const again = await svc.request('PATCH', `/tag-groups/${group.body.id}`, { name: '尺码表' });
    expect(again.status).toBe(200);
    expect(again.body.name).toBe('尺码表');
  });
});
