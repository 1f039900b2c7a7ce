/** `/healthz`: the process answers. `/readyz`: the database and event store answer and the schema is current. */
import { Router } from 'express';
import type { Pool } from '../db';
import type { EventStore } from '../event-store/port';
import { pendingMigrations } from '../migrate';

export function healthRoutes(deps: { pool: Pool; store: EventStore }): Router {
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
    if (!ready) res.setHeader('Retry-After', '5');
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready', checks });
  });
  return r;
}
