/**
 * The start-up demo (docs/domain.md, Start-up demo): on an empty database with the built-in simulator, do what an
 * operator would do (sync categories, links and details, organise, create goods for the organised
 * links), so a new user sees a full catalog. Runs in the background; /readyz does not
 * wait for it.
 */
import { Organiser, type OrganiseDeps } from '../catalog/organisation/organise';
import { createGoods, type GoodDeps } from '../catalog/goods/handle';
import { START, comparePositions } from '../platform/event-store/port';
import type { Logger } from '../platform/log';
import type { ProjectionEngine } from '../platform/projections/engine';
import { whileUnavailable } from '../platform/while-unavailable';
import type { SyncService } from './service';

/** What the demo does as an operator would: synchronise, organise, create goods. */
export type DemoDeps = OrganiseDeps &
  GoodDeps & {
    engine: Pick<ProjectionEngine, 'definitions'>;
    log: Logger;
    sync: Pick<SyncService, 'start'>;
  };

/** `stopping`: true once the process is shutting down; the seeding then stops at its next step and resumes at the next start. */
export async function seedDemoCatalog(s: DemoDeps, opts: { stopping?: () => boolean } = {}): Promise<void> {
  const stopping = opts.stopping ?? (() => false);
  // Seed an empty catalogue; resume a seeding a restart cut short (every step is idempotent). "Empty"
  // is asked of the event store, whichever it is (EventStoreDB keeps nothing in PostgreSQL's tables),
  // and only of the catalogue's streams (the log's identity is an event too).
  const prefixes = [...new Set(s.engine.definitions().flatMap((d) => d.streamPrefixes))];
  const empty = comparePositions(await s.store.headPosition(prefixes, { committed: true }), START) === 0;
  const r = await s.pool.query<{ state: string | null }>(`SELECT (SELECT value FROM service_flags WHERE name = 'demo') AS state`);
  const { state } = r.rows[0]!;
  if (state === 'seeded' || (!empty && state !== 'seeding')) return;
  await s.pool.query(`INSERT INTO service_flags (name, value) VALUES ('demo', 'seeding') ON CONFLICT (name) DO UPDATE SET value = 'seeding', at = now()`);
  const log = s.log.child({ component: 'demo' });
  const stopHere = () => {
    if (stopping()) log.info('demo catalog seeding stopped by the shutdown; the next start resumes it');
    return stopping();
  };
  log.info(empty ? 'empty database: seeding the demo catalog from the simulator' : 'resuming the demo catalog seeding');
  for (const [kind, params] of [
    ['categories', {}],
    ['origin_goods', {}],
    ['details', { onlyUnsynced: true }],
  ] as const) {
    if (stopHere()) return;
    const { finished } = await s.sync.start(kind, { ...params, by: 'system:demo' });
    const run = await finished;
    log.info({ kind, state: run.state, counts: run.counts }, 'demo step finished');
    if (run.state !== 'succeeded') return void stopHere();
  }
  if (stopHere()) return;
  const report = await whileUnavailable(() => new Organiser(s).organise('system:demo'), { stopping, log });
  if (report === null) return void stopHere();
  log.info({ parsed: report.parsed, created: report.created, unparseable: report.unparseable.length }, 'demo catalog organised');
  if (stopHere()) return;
  // A good for every organised link, as an operator would create them, so every family is public.
  const links = await s.pool.query<{ id: string }>(
    `SELECT og.id FROM origin_goods og WHERE og.family_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM goods g WHERE g.origin_good_id = og.id) ORDER BY og.id`,
  );
  const created = await whileUnavailable(
    () =>
      createGoods(
        s,
        links.rows.map((l) => ({ originGoodId: l.id })),
        { by: 'system:demo' },
      ),
    { stopping, log },
  );
  if (created === null) return void stopHere();
  const { position } = created;
  if (position) await s.waitForProjections(position, ['good-0', 'link-0']);
  log.info({ goods: links.rows.length }, 'demo goods created');
  await s.pool.query(`UPDATE service_flags SET value = 'seeded', at = now() WHERE name = 'demo'`);
  // The line a person at the terminal waits for (README, Quick start): the catalogue is there to browse.
  const { rows } = await s.pool.query<{ families: number; goods: number }>(`SELECT (SELECT count(*) FROM families)::int AS families, (SELECT count(*) FROM goods)::int AS goods`);
  const ready = rows[0]!;
  log.info(ready, `demo ready: ${ready.families} families, ${ready.goods} goods`);
}
