/**
 * Rules that span streams are checked against read models ("tag names are unique in a group", "no
 * group is deleted while it has tags", "the category tree has no cycle"). When the read model is
 * behind, the rule must wait for it or refuse with a 503, never pass on rows that miss a write.
 */
import { eventually } from '../../support/eventually';
import { startTestService, type TestService } from '../../support/service';

describe('cross-stream rules while the read models lag', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ env: { COMMAND_WAIT_MS: '400' } });
  });
  afterAll(async () => {
    await svc.close();
  });
  const caughtUp = () => eventually(async () => (await svc.services.engine.status()).every((p) => p.lagEvents === 0), 20_000);

  it('a second tag of the same name, and deleting the group, are refused (503) until the first tag shows; then decided right', async () => {
    const group = await svc.request('POST', '/tag-groups', { name: '风格' });
    // Set-up: written (201, or 202 when a busy machine projects it after COMMAND_WAIT_MS), then shown.
    expect([201, 202]).toContain(group.status);
    await caughtUp();
    await svc.services.engine.stopRunners();
    const first = await svc.request('POST', '/tags', { name: '复古', groupId: group.body.id });
    // Appended; its projection is stopped, so the answer cannot show it (202).
    expect(first.status).toBe(202);
    const second = await svc.request('POST', '/tags', { name: '复古', groupId: group.body.id });
    expect(second.status).toBe(503);
    expect(second.body.error.code).toBe('PROJECTION.BEHIND');
    const deleted = await svc.request('DELETE', `/tag-groups/${group.body.id}`);
    expect(deleted.status).toBe(503);

    await svc.services.engine.startRunners();
    await caughtUp();
    expect((await svc.request('POST', '/tags', { name: '复古', groupId: group.body.id })).status).toBe(409);
    expect((await svc.request('DELETE', `/tag-groups/${group.body.id}`)).status).toBe(409);
    const tags = await svc.db.pool.query(`SELECT count(*)::int AS n FROM tags WHERE group_id = $1 AND NOT deleted`, [group.body.id]);
    expect(tags.rows[0].n).toBe(1);
  });

  it('a category move that would close a cycle is refused while the tree lags, and rejected once it shows', async () => {
    const top = await svc.request('POST', '/categories', { name: '顶层' });
    expect([201, 202]).toContain(top.status);
    await caughtUp();
    await svc.services.engine.stopRunners();
    const child = await svc.request('POST', '/categories', { name: '子类', parentId: top.body.id });
    expect(child.status).toBe(202);
    const cycle = await svc.request('PATCH', `/categories/${top.body.id}`, { parentId: child.body.id });
    expect(cycle.status).toBe(503);
    await svc.services.engine.startRunners();
    await caughtUp();
    expect((await svc.request('PATCH', `/categories/${top.body.id}`, { parentId: child.body.id })).status).toBe(400);
  });
});
