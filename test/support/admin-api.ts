/**
 * The administrator's requests a test makes over HTTP: any answer, an answer that must succeed, a
 * synchronisation run to its end, and the families of one product by size; and the catalog most
 * tests start from.
 */
import { startSimulator, type RunningSimulator } from '../../src/sync/simulator';
import { eventually } from './eventually';
import { expectNoFailedProjections, startTestService, type TestService } from './service';

export interface AdminApi {
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** the answer's body; throws, naming the request, for a status of 300 or more */
  ok<T = any>(method: string, path: string, body?: unknown): Promise<T>;
  /** starts a synchronisation (`/sync/…`) and answers its run once it is no longer running */
  sync(path: string, body?: unknown): Promise<any>;
  /** families with at least `n` member links, largest first: [familyId, its links in id order] */
  familiesWith(n: number): Promise<{ family_id: string; links: string[] }[]>;
}

/** `svc` is read at each call: a test may start its service after making these. */
export function adminApi(svc: () => TestService): AdminApi {
  const api = (method: string, path: string, body?: unknown) => svc().request(method, path, body);
  return {
    api,
    async ok<T = any>(method: string, path: string, body?: unknown): Promise<T> {
      const r = await api(method, path, body);
      if (r.status >= 300) throw new Error(`${method} ${path} → ${r.status} ${JSON.stringify(r.body)}`);
      return r.body as T;
    },
    async sync(path: string, body?: unknown) {
      const started = await api('POST', path, body);
      if (started.status >= 300) throw new Error(`POST ${path} → ${started.status} ${JSON.stringify(started.body)}`);
      return eventually(async () => {
        const r = await api('GET', `/sync/runs/${started.body.runId}`);
        return r.body.state !== 'running' ? r.body : null;
      }, 120_000);
    },
    async familiesWith(n: number) {
      const r = await svc().db.pool.query<{ family_id: string; links: string[] }>(
        `SELECT family_id::text, array_agg(id::text ORDER BY id) AS links FROM origin_goods WHERE family_id IS NOT NULL
          GROUP BY family_id HAVING count(*) >= $1 ORDER BY count(*) DESC, family_id`,
        [n],
      );
      return r.rows;
    },
  };
}

/**
 * A supplier simulator and a service on it (`env` over the test defaults) with its categories, links
 * and details synchronised and organised, as most catalog tests begin; `close` stops both, once no
 * projection has failed.
 */
export async function startOrganisedCatalog(
  simulator: { links: number; seed: number },
  env: Record<string, string> = {},
): Promise<{
  sim: RunningSimulator;
  svc: TestService;
  admin: AdminApi;
  close(): Promise<void>;
}> {
  const sim = await startSimulator(simulator);
  const svc = await startTestService({ env: { ...env, UPSTREAM_URL: sim.url } });
  const admin = adminApi(() => svc);
  for (const p of ['/sync/categories', '/sync/origin-goods', '/sync/details']) {
    const run = await admin.sync(p);
    if (run.state !== 'succeeded') throw new Error(`${p} ended ${run.state}: ${JSON.stringify(run.errors)}`);
  }
  // As a client does with a 503 (the read models organisation checks against are behind, on a busy
  // machine): try again after a moment, a few times.
  for (let attempt = 1; ; attempt++) {
    const r = await admin.api('POST', '/product-families/organize');
    if (r.status < 300) break;
    if (r.status !== 503 || attempt >= 10) throw new Error(`POST /product-families/organize → ${r.status} ${JSON.stringify(r.body)}`);
    await new Promise((done) => setTimeout(done, 2_000));
  }
  return {
    sim,
    svc,
    admin,
    async close() {
      try {
        await expectNoFailedProjections(svc);
      } finally {
        await svc.close();
        await sim.close();
      }
    },
  };
}
