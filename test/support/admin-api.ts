/**
 * An administrator's calls on a test service: any answer, one that must succeed (its body), a
 * synchronisation run followed to its end, and the families of one product by size. `svc` is read
 * at each call, so a suite can make these before its service starts.
 */
import { eventually } from './eventually';
import type { TestService } from './service';

export function adminApi(svc: () => TestService) {
  const api = (method: string, path: string, body?: unknown) => svc().request(method, path, body);
  const ok = async <T = any>(method: string, path: string, body?: unknown): Promise<T> => {
    const r = await api(method, path, body);
    if (r.status >= 300) throw new Error(`${method} ${path} → ${r.status} ${JSON.stringify(r.body)}`);
    return r.body as T;
  };
  /** Starts a run (`/sync/details`, …) and answers it once it is no longer running. */
  const sync = async (path: string, body?: unknown) => {
    const started = await ok<{ runId: string }>('POST', path, body);
    return eventually(async () => {
      const r = await api('GET', `/sync/runs/${started.runId}`);
      return r.body.state !== 'running' ? r.body : null;
    }, 120_000);
  };
  /** Families with at least `n` member links, largest first: [familyId, its links in id order]. */
  const familiesWith = async (n: number) =>
    (
      await svc().db.pool.query<{ family_id: string; links: string[] }>(
        `SELECT family_id::text, array_agg(id::text ORDER BY id) AS links FROM origin_goods WHERE family_id IS NOT NULL GROUP BY family_id HAVING count(*) >= $1 ORDER BY count(*) DESC, family_id`,
        [n],
      )
    ).rows;
  return { api, ok, sync, familiesWith };
}
