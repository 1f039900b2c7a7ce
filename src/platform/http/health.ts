/** `/healthz`: the process answers. `/readyz`: the database and event store answer and the schema is current. */
import { Router } from 'express';
import type { Pool } from '../db';
import type { EventStore } from '../event-store/port';
import { pendingMigrations } from '../migrate';
import { describeFence, type FenceView } from '../event-store/fence';
import type { RouteDoc } from './openapi';
import { liveness, readiness } from '../../contract/health';

export function healthRoutes(deps: {
  pool: Pool;
  store: EventStore;
  /** the read fence (postgres): held back this long, /readyz says degraded */
  fence?: { status(): Promise<FenceView | null>; degradedAfterS: number };
}): Router {
  const r = Router();
  r.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  r.get('/readyz', async (_req, res) => {
    const checks: Record<string, string> = {};
    const attempt = async (name: string, fn: () => Promise<string | void>) => {
      try {
        checks[name] = (await fn()) || 'ok';
      } catch (e) {
        checks[name] = `unavailable: ${e instanceof Error ? e.message.slice(0, 200) : 'error'}`;
      }
    };
    await Promise.all([
      attempt('database', async () => void (await deps.pool.query('SELECT 1'))),
      attempt('eventStore', () => deps.store.ping()),
      attempt('migrations', async () => {
        const pending = await pendingMigrations(deps.pool);
        if (pending.length) throw new Error(`pending: ${pending.join(', ')}`);
      }),
    ]);
    const ready = Object.values(checks).every((v) => v === 'ok');
    // A held-back fence stops the read models, not the reads: the service stays in rotation (200)
    // and says it is degraded, naming who holds the fence.
    let degraded = false;
    if (ready && deps.fence) {
      await attempt('fence', async () => {
        const f = await deps.fence!.status();
        if (!f?.heldBackEvents || f.heldBackSeconds < deps.fence!.degradedAfterS) return;
        degraded = true;
        return describeFence(f);
      });
    }
    if (!ready) res.setHeader('Retry-After', '5');
    res.status(ready ? 200 : 503).json({ status: ready ? (degraded ? 'degraded' : 'ready') : 'not ready', checks });
  });
  return r;
}

/** The operations above (src/platform/http/openapi.ts), at the root, outside API_PREFIX. */
export const healthRouteDocs: RouteDoc[] = [
  { method: 'get', path: '/healthz', summary: 'The process answers', standalone: true, responses: { 200: liveness } },
  {
    method: 'get',
    path: '/readyz',
    summary: 'The database and event store answer and the schema is current; degraded names who holds the read fence',
    standalone: true,
    responses: { 200: readiness, 503: { description: 'Not ready: `status` `not ready`, each check saying what is wrong', body: readiness, headers: ['Retry-After'] } },
  },
];
