/**
 * The read models of the administrators' catalog edits are safe to replay: every event applied twice
 * in a row leaves what applying it once leaves, and a rebuild from the start of the log ends with the
 * tables the live projections hold. The history mixes every admin event type with the supplier mirror.
 */
import { catalogTreeProjection } from '../../../projections/catalog-tree';
import { positionsProjection } from '../../../projections/positions';
import { tagsProjection } from '../../../projections/tags';
import { START, type RecordedEvent } from '../../../src/platform/event-store/port';
import type { ProjectionDefinition } from '../../../src/platform/projections/definition';
import { eventually } from '../../support/eventually';
import { startTestService, type TestService } from '../../support/service';

const PROJECTIONS = [tagsProjection, positionsProjection, catalogTreeProjection];

describe('admin catalog projections', () => {
  let svc: TestService;
  const api = async (method: string, path: string, body?: unknown) => {
    const r = await svc.request(method, path, body);
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };

  const snapshot = async (schema: string, def: ProjectionDefinition) => {
    const out: Record<string, unknown[]> = {};
    for (const t of def.tables) out[t] = (await svc.db.pool.query(`SELECT * FROM ${schema}.${t} ORDER BY 1, 2`)).rows;
    return out;
  };

  async function history(prefixes: readonly string[]): Promise<RecordedEvent[]> {
    const all: RecordedEvent[] = [];
    for (let after = START; ;) {
      const page = await svc.services.store.readAll({ after, limit: 500, streamPrefixes: prefixes });
      if (page.length === 0) return all;
      all.push(...page);
      after = page[page.length - 1]!.position;
    }
  }

  beforeAll(async () => {
    svc = await startTestService();
    // A history with every event type of the three projections, the supplier's included.
    const started = await api('POST', '/sync/categories');
    await eventually(async () => (await api('GET', `/sync/runs/${started.runId}`)).state === 'succeeded', 60_000);
    const size = await api('POST', '/tag-groups', { name: 'Size', dimension: 'size' });
    const style = await api('POST', '/tag-groups', { name: 'Style' });
    await api('PATCH', `/tag-groups/${style.id}`, { name: 'Styles', dimension: 'craft' });
    const gone = await api('POST', '/tag-groups', { name: 'Gone' });
    await api('DELETE', `/tag-groups/${gone.id}`);
    const tags = [];
    for (const name of ['S', 'M', 'L', 'XL']) tags.push(await api('POST', '/tags', { name, groupId: size.id }));
    await api('PATCH', '/tags/sort', { ids: tags.map((t) => t.id).reverse() });
    await api('PATCH', `/tags/${tags[0].id}`, { sortOrder: 100, groupId: style.id, color: '#fff' });
    await api('DELETE', `/tags/${tags[1].id}`);
    await api('PATCH', '/tags/sort', { ids: [tags[0].id, tags[2].id, tags[3].id] });
    // Positions place goods that exist.
    const [g11, g12, g13] = [
      (await api('POST', '/goods', { name: 'G11' })).id,
      (await api('POST', '/goods', { name: 'G12' })).id,
      (await api('POST', '/goods', { name: 'G13' })).id,
    ];
    const p = await api('POST', '/positions', { name: 'Home', goodIds: [g11, g12] });
    await api('PATCH', `/positions/${p.id}`, { goodIds: [g13, g11], sortOrder: 2 });
    const q = await api('POST', '/positions', { name: 'Gone', goodIds: [g11] });
    await api('DELETE', `/positions/${q.id}`);
    const countries = (await api('GET', '/countries')).items as { id: string }[];
    const mine = await api('POST', '/countries', { name: 'Mine', code: 'MN' });
    await api('PATCH', `/countries/${countries[0]!.id}`, { name: 'Edited', sortOrder: 4 });
    await api('PATCH', '/countries/sort', { ids: [mine.id, ...countries.map((c) => c.id)].reverse() });
    const deletedCountry = await api('POST', '/countries', { name: 'Gone', code: 'GN' });
    await api('DELETE', `/countries/${deletedCountry.id}`);
    const top = await api('POST', '/categories', { name: 'Top', icon: 'https://img.example.com/top.png' });
    const child = await api('POST', '/categories', { name: 'Child', parentId: top.id });
    const supplierCategory = ((await api('GET', '/categories?parentId=root')).items as { id: string }[])[0]!;
    await api('PATCH', `/categories/${child.id}`, { parentId: supplierCategory.id, icon: 'https://img.example.com/own.png' });
    const leaf = await api('POST', '/categories', { name: 'Leaf', parentId: top.id });
    await api('DELETE', `/categories/${leaf.id}`);
  });
  afterAll(async () => {
    await svc.close();
  });

  it.each(PROJECTIONS.map((d) => [d.name, d] as const))('%s: every event applied twice leaves what the live projection holds', async (_name, def) => {
    const live = await snapshot('public', def);
    const events = (await history(def.streamPrefixes)).map((e) => svc.services.registry.decode(e)).filter((e) => def.handles.includes(e.type));
    expect(events.length).toBeGreaterThanOrEqual(4);
    const schema = `replay_${def.name}`;
    const client = await svc.db.pool.connect();
    try {
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.query(`CREATE SCHEMA ${schema}`);
      for (const t of def.tables) await client.query(`CREATE TABLE ${schema}.${t} (LIKE public.${t} INCLUDING ALL)`);
      await client.query('BEGIN');
      await client.query(`SELECT set_config('search_path', $1, true)`, [`${schema}, public`]);
      // Each event applied twice in a row, as a batch of its own each time.
      for (const e of events) {
        await def.applyBatch(client, [e]);
        await def.applyBatch(client, [e]);
      }
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    expect(await snapshot(schema, def)).toEqual(live);
    await svc.db.pool.query(`DROP SCHEMA ${schema} CASCADE`);
  });

  it.each(PROJECTIONS.map((d) => [d.name] as const))('%s: a rebuild from the start of the log ends where the live tables are', async (name) => {
    const def = PROJECTIONS.find((d) => d.name === name)!;
    const before = await snapshot('public', def);
    const lastRebuild = async () => (await svc.db.pool.query(`SELECT last_rebuild_at FROM projection_checkpoints WHERE name = $1`, [name])).rows[0]?.last_rebuild_at;
    const was = await lastRebuild();
    await svc.services.engine.requestRebuild(name);
    await eventually(async () => String(await lastRebuild()) !== String(was), 60_000);
    expect(await snapshot('public', def)).toEqual(before);
  });
});
