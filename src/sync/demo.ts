/**
 * The start-up demo (DOMAIN.md): on an empty database with the built-in simulator, do what an
 * operator would do, so a new user sees a full catalog. Runs in the background; /readyz does not
 * wait for it.
 */
import type { Services } from '../main';

export async function seedDemoCatalog(s: Services): Promise<void> {
  const empty = await s.pool.query(`SELECT NOT EXISTS (SELECT 1 FROM es_streams LIMIT 1) AS empty`);
  if (!empty.rows[0].empty) return;
  const log = s.log.child({ component: 'demo' });
  log.info('empty database: seeding the demo catalog from the simulator');
  for (const [kind, params] of [
    ['categories', {}],
    ['origin_goods', {}],
    ['details', { onlyUnsynced: true }],
  ] as const) {
    const { finished } = await s.sync.start(kind, { ...params, by: 'system:demo' });
    const run = await finished;
    log.info({ kind, state: run.state, counts: run.counts }, 'demo step finished');
    if (run.state !== 'succeeded') return;
  }
}
