/**
 * Deny by default: every mounted route that is not on the public list answers 401 to a caller
 * without a session, found by walking the router the service mounts (so a route added tomorrow is
 * checked too); and the start-up check refuses a router with a route that has no guard.
 */
import { Router } from 'express';
import { PUBLIC_API_ROUTES, apiRoutes } from '../../../src/main';
import { assertDeniedByDefault, mountedRoutes, routeKey } from '../../../src/platform/http/routes-audit';
import { startTestService, type TestService } from '../../support/service';

describe('deny by default', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ login: false });
  });
  afterAll(async () => {
    await svc.close();
  });

  it('every route not on the public list answers 401 without a session', async () => {
    const routes = mountedRoutes(apiRoutes(svc.services));
    const guarded = routes.filter((r) => !PUBLIC_API_ROUTES.has(routeKey(r)));
    expect(guarded.length).toBeGreaterThan(40);
    const answers: string[] = [];
    for (const r of guarded) {
      const path = r.path.replace(/:(\w+)/g, '1');
      const res = await fetch(svc.url + path, {
        method: r.method,
        headers: r.method === 'GET' || r.method === 'DELETE' ? {} : { 'content-type': 'application/json' },
        body: r.method === 'GET' || r.method === 'DELETE' ? undefined : '{}',
      });
      answers.push(`${routeKey(r)} ${res.status}`);
    }
    expect(answers.filter((a) => !a.endsWith(' 401'))).toEqual([]);
    // The public ones do not ask for a session.
    for (const key of ['GET /public/countries', 'GET /public/tree-order']) {
      const [method, path] = key.split(' ') as [string, string];
      expect((await fetch(svc.url + path, { method })).status).toBe(200);
    }
  });

  it('a router with a route that has no guard and is not public is refused at start-up', () => {
    const guard = () => undefined;
    const r = Router();
    r.get('/public/countries', () => undefined);
    r.get('/goods', guard, () => undefined);
    r.delete('/goods/:id', () => undefined);
    expect(() => assertDeniedByDefault(r, { isGuard: (h) => h === guard, isPublic: (k) => PUBLIC_API_ROUTES.has(k) })).toThrow(/DELETE \/goods\/:id/);
  });
});
