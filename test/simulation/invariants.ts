/**
 * The invariants checked after every sequence (docs/simulation.md):
 * (a) the read models equal a full rebuild from the log;
 * (b) a second organisation appends nothing;
 * (c) no administrator decision was undone by organisation or synchronisation (the model's);
 * (d) every family's stored aggregates equal a fresh computation from its members;
 * (e) every public list, page and detail through the cache equals the same read from a second
 *     instance with PUBLIC_CACHE_DISABLED;
 * (f) every link with a family points at a family that exists, and no read model holds the id of a
 *     deleted category, country, tag or good (the model's);
 * (g) every write's answer shows its own effect (checked by each command as it runs);
 * and the model's expected membership and public visibility of each family.
 */
import { isDeepStrictEqual } from 'node:util';
import { staleFamilies } from '../../src/catalog/families/recompute';
import { isPlaceholder, type Model } from './model';
import { caughtUp, Divergence, overrideKey, rebuild, type Real, type World } from './world';

/** Each link's family as the read models have it (a family that does not exist counts as none: invariant f checks it apart). */
export async function observedMembership(world: World): Promise<Map<string, string | null>> {
  const r = await world.svc.db.pool.query<{ id: string; family: string | null }>(
    `SELECT og.id::text AS id, f.id::text AS family FROM origin_goods og LEFT JOIN families f ON f.id = og.family_id`,
  );
  return new Map(r.rows.map((x) => [x.id, x.family]));
}

/** Every family the read models hold, with its product key. */
export async function observedFamilies(world: World): Promise<{ id: string; key: string | null }[]> {
  return (await world.svc.db.pool.query<{ id: string; key: string | null }>(`SELECT id::text AS id, family_name_key AS key FROM families`)).rows;
}

function fail(invariant: string, message: string): never {
  throw new Divergence(invariant, message);
}

/** (c) Every administrator decision the model holds is what the read models show. */
export async function checkDecisions(m: Model, world: World): Promise<void> {
  const pool = world.svc.db.pool;
  const families = new Map(
    (await pool.query(`SELECT id::text, name, locked, auto_managed FROM families`)).rows.map((r) => [
      r.id as string,
      r as { name: string; locked: boolean; auto_managed: boolean },
    ]),
  );
  const overrides = (await pool.query(`SELECT family_id::text AS f, size, color, print_count AS "printCount", craft, logistics, price::text FROM family_overrides`)).rows;
  for (const f of m.families.values()) {
    if (f.gone || isPlaceholder(f.id)) continue;
    const row = families.get(f.id);
    if (!row) fail('c', `family ${f.id} (${f.name}) is gone; no one deleted it`);
    if (row.locked !== f.locked) fail('c', `family ${f.id}: locked ${row.locked}, the administrator left it ${f.locked}`);
    if (row.name !== f.name) fail('c', `family ${f.id}: named ${row.name}, the administrator named it ${f.name}`);
    const own = new Map(overrides.filter((o) => o.f === f.id).map((o) => [overrideKey(o), o.price as string]));
    for (const [key, price] of f.overrides) {
      if (!own.has(key) || Number(own.get(key)) !== Number(price)) fail('c', `family ${f.id}: override ${key} is ${own.get(key) ?? 'gone'}, set to ${price}`);
    }
    if (own.size !== f.overrides.size) fail('c', `family ${f.id}: ${own.size} overrides, the administrator left ${f.overrides.size}`);
  }
  const links = new Map((await pool.query(`SELECT id::text, tags_manual, tags FROM origin_goods`)).rows.map((r) => [r.id as string, r]));
  const tagNames = new Map((await pool.query(`SELECT t.id::text, t.name, g.dimension FROM tags t JOIN tag_groups g ON g.id = t.group_id`)).rows.map((r) => [r.id as string, r]));
  for (const l of m.links.values()) {
    if (!l.synced) continue;
    const row = links.get(l.id);
    if (!row) fail('c', `link ${l.id} missing`);
    if (row.tags_manual !== (l.manualTagIds !== null)) fail('c', `link ${l.id}: tags_manual ${row.tags_manual}, model ${l.manualTagIds !== null}`);
    for (const t of l.manualTagIds ?? []) {
      const tag = tagNames.get(t);
      if (tag && !(row.tags?.[tag.dimension] ?? []).includes(tag.name))
        fail('c', `link ${l.id}: the administrator's tag ${tag.name} (${tag.dimension}) is gone from ${JSON.stringify(row.tags)}`);
    }
  }
  const goods = new Map(
    (await pool.query(`SELECT id::text, name, good_priority::int AS p, tag_ids::text[] AS tags, category_id::text AS cat, country_id::text AS country FROM goods`)).rows.map(
      (r) => [r.id as string, r],
    ),
  );
  const secondary = (await pool.query(`SELECT good_id::text AS g, origin_good_id::text AS o FROM good_origin_goods ORDER BY good_id, position`)).rows;
  for (const g of m.goods.values()) {
    const row = goods.get(g.id);
    if (!row) fail('c', `good ${g.id} is gone; no one deleted it`);
    const got = { name: row.name, p: row.p, tags: row.tags, cat: row.cat, country: row.country };
    const want = { name: g.name, p: g.goodPriority, tags: g.tagIds, cat: g.categoryId, country: g.countryId };
    if (!isDeepStrictEqual(got, want)) fail('c', `good ${g.id}: ${JSON.stringify(got)}, the administrator left ${JSON.stringify(want)}`);
    const sec = secondary.filter((s) => s.g === g.id).map((s) => s.o);
    if (!isDeepStrictEqual(sec, g.secondary)) fail('c', `good ${g.id}: secondary origins ${sec}, set to ${g.secondary}`);
  }
}

/** The model's membership and public visibility against the read models and the storefront. */
async function checkMembershipAndVisibility(m: Model, world: World): Promise<void> {
  const observed = await observedMembership(world);
  const diff = [...m.membershipDiff(observed), ...m.familyDiff(await observedFamilies(world))];
  if (diff.length) fail('membership', diff.slice(0, 10).join('; '));
  const pool = world.svc.db.pool;
  const goodsFamily = new Map((await pool.query(`SELECT id::text, family_id::text AS f FROM goods`)).rows.map((r) => [r.id as string, r.f as string | null]));
  for (const g of m.goods.values()) {
    const expected = m.familyOfGood(g);
    if ((goodsFamily.get(g.id) ?? null) !== expected) fail('membership', `good ${g.id}: family ${goodsFamily.get(g.id)}, model ${expected}`);
  }
  const shown = new Set<string>();
  for (let page = 1; ; page++) {
    const r = await world.svc.request('GET', `/public/goods?page=${page}&pageSize=100`, undefined, {}, { anonymous: true });
    if (r.status !== 200) fail('visibility', `public list page ${page}: ${r.status}`);
    for (const item of r.body.items) shown.add(item.goodId);
    if (page * 100 >= r.body.total) break;
  }
  const expected = m.publicFamilies();
  const missing = expected.filter((id) => !shown.has(id));
  const extra = [...shown].filter((id) => !expected.includes(id));
  if (missing.length || extra.length) fail('visibility', `public list: missing ${missing}, not expected ${extra}`);
  for (const f of m.families.values()) {
    if (isPlaceholder(f.id)) continue;
    const r = await world.svc.request('GET', `/public/goods/${f.id}`, undefined, {}, { anonymous: true });
    const isPublic = expected.includes(f.id);
    if (r.status !== (isPublic ? 200 : 404)) fail('visibility', `public detail of family ${f.id}: ${r.status}, model says ${isPublic ? 'public' : 'not public'}`);
  }
}

/** (b) A second organisation finds nothing to do. */
async function checkSecondOrganise(m: Model, real: Real): Promise<void> {
  const { svc } = real.world;
  const first = await svc.request('POST', '/product-families/organize');
  if (first.status !== 200) fail('b', `organise: ${first.status} ${JSON.stringify(first.body)}`);
  m.organise();
  await caughtUp(svc);
  const unresolved = m.resolveNew(await observedMembership(real.world), await observedFamilies(real.world));
  if (unresolved) fail('membership', `closing organisation: ${unresolved}`);
  const count = async () => Number((await svc.db.pool.query(`SELECT count(*) AS n FROM es_events`)).rows[0].n);
  const before = await count();
  const second = await svc.request('POST', '/product-families/organize');
  if (second.status !== 200) fail('b', `second organise: ${second.status}`);
  await caughtUp(svc);
  const appended = (await svc.db.pool.query(`SELECT stream_id, type, data FROM es_events ORDER BY tx_id, seq OFFSET $1`, [before])).rows;
  if (appended.length)
    fail(
      'b',
      `a second organisation appended ${appended.length} events: ${JSON.stringify(appended.slice(0, 5))}; report ${JSON.stringify({ ...second.body, unparseable: undefined, incomplete: undefined })}`,
    );
}

/** (d) Stored aggregates equal a fresh computation from each family's members, stamps or not. */
async function checkAggregates(world: World): Promise<void> {
  const pool = world.svc.db.pool;
  const ids = (await pool.query(`SELECT id::text FROM families`)).rows.map((r) => r.id as string);
  const stale = await staleFamilies(pool, ids);
  if (stale.length) fail('d', `stored aggregates differ from a recompute: ${JSON.stringify(stale.slice(0, 5))}`);
}

/** (e) Every public read through the cache equals the uncached read of the second instance. */
async function checkPublicReads(m: Model, world: World): Promise<void> {
  const paths = ['/public/home', '/public/categories/tree', '/public/tag-groups', '/public/tree-order', '/public/countries'];
  for (const sort of ['DEFAULT', 'PRICE_ASC', 'PRICE_DESC', 'NEWEST']) {
    paths.push(`/public/goods?sort=${sort}&pageSize=100`);
    for (const page of [1, 2, 3]) paths.push(`/public/goods?sort=${sort}&page=${page}&pageSize=7`);
  }
  for (const t of m.tags.values()) if (t.dimension === null) paths.push(`/public/goods?tagIds=${t.id}`);
  for (const c of [...m.countries.keys()].slice(0, 4)) paths.push(`/public/goods?countryId=${c}`);
  for (const c of [...m.categories].slice(0, 6)) paths.push(`/public/goods?categoryId=${c}`);
  paths.push('/public/goods?keyword=t恤', '/public/goods?keyword=G5000', '/public/goods?keyword=系列');
  for (const f of m.families.keys()) if (!isPlaceholder(f)) paths.push(`/public/goods/${f}`);
  await comparePublic(world, paths);
}

/** (e) for these paths: the cached answer of the service equals the uncached one of the second instance. */
export async function comparePublic(world: World, paths: readonly string[]): Promise<void> {
  for (const p of paths) {
    // The cache hears a commit by notification: a read right after catching up may still race it.
    for (let attempt = 0; ; attempt++) {
      const [cached, plain] = await Promise.all([
        world.svc.request('GET', p, undefined, {}, { anonymous: true }),
        world.reader.request('GET', p, undefined, {}, { anonymous: true }),
      ]);
      if (cached.status === plain.status && isDeepStrictEqual(cached.body, plain.body)) break;
      const last = `${p}: cached ${cached.status} ${JSON.stringify(cached.body).slice(0, 700)} | uncached ${plain.status} ${JSON.stringify(plain.body).slice(0, 700)}`;
      if (attempt >= 10) fail('e', last);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** (f) No link names a family that does not exist; no read model holds a deleted id. */
async function checkReferences(m: Model, world: World): Promise<void> {
  const pool = world.svc.db.pool;
  const dangling = (
    await pool.query(`SELECT og.id::text, og.family_id::text FROM origin_goods og LEFT JOIN families f ON f.id = og.family_id WHERE og.family_id IS NOT NULL AND f.id IS NULL`)
  ).rows;
  if (dangling.length) fail('f', `links in families that do not exist: ${JSON.stringify(dangling)}`);
  for (const l of m.links.values()) {
    if (l.family && !m.liveFamily(l.family) && !isPlaceholder(l.family)) fail('f', `model: link ${l.id} in family ${l.family}, which is gone`);
  }
  const goodsInFamilies = (await pool.query(`SELECT g.id::text FROM goods g LEFT JOIN families f ON f.id = g.family_id WHERE g.family_id IS NOT NULL AND f.id IS NULL`)).rows;
  if (goodsInFamilies.length) fail('f', `goods in families that do not exist: ${JSON.stringify(goodsInFamilies)}`);
  // Every read-model row as text, each table with its own id column left out where the row is the deleted thing's own record.
  const scans: [string, string, string | null][] = [
    ['goods', 'goods', 'id'],
    ['position_goods', 'goods', null],
    ['family_custom_members', 'goods', null],
    ['good_origin_goods', 'goods', null],
    ['families', 'goods', null],
    ['goods', 'tags', null],
    ['goods', 'categories', null],
    ['origin_goods', 'categories', null],
    ['categories', 'categories', 'id'],
    ['goods', 'countries', null],
    ['countries', 'countries', 'id'],
    ['tags', 'tags', 'id'],
  ];
  for (const [table, kind, own] of scans) {
    const ids = [...m.deleted[kind as 'goods' | 'tags' | 'categories' | 'countries']];
    if (!ids.length) continue;
    const r = await pool.query(
      `SELECT x.id AS deleted, t::text AS row FROM ${table} t, unnest($1::text[]) AS x(id)
        WHERE t::text ~ ('(^|[^0-9])' || x.id || '([^0-9]|$)') ${own ? `AND t.${own}::text <> x.id` : ''} LIMIT 5`,
      [ids],
    );
    if (r.rows.length) fail('f', `${table} holds deleted ${kind}: ${JSON.stringify(r.rows)}`);
  }
  const positions = (await pool.query(`SELECT position_id::text AS p, good_id::text AS g FROM position_goods ORDER BY position_id, sort_order`)).rows;
  for (const [p, ids] of m.positions) {
    const got = positions.filter((x) => x.p === p).map((x) => x.g);
    if (!isDeepStrictEqual(got, ids)) fail('c', `position ${p}: goods ${got}, model ${ids}`);
  }
}

/** (a) Every read model equals what a rebuild from the log gives. */
const TABLES = [
  'origin_goods',
  'families',
  'family_custom_members',
  'family_overrides',
  'goods',
  'good_origin_goods',
  'family_stamps',
  'categories',
  'countries',
  'tags',
  'tag_groups',
  'positions',
  'position_goods',
];

async function tableRows(world: World): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const t of TABLES) out[t] = (await world.svc.db.pool.query(`SELECT x::text AS row FROM ${t} x ORDER BY 1`)).rows.map((r) => r.row);
  return out;
}

async function checkRebuild(real: Real): Promise<void> {
  await caughtUp(real.world.svc);
  const live = await tableRows(real.world);
  await rebuild(real, ['catalog', 'catalog_tree', 'tags', 'positions']);
  const rebuilt = await tableRows(real.world);
  for (const t of TABLES) {
    if (isDeepStrictEqual(live[t], rebuilt[t])) continue;
    const onlyLive = live[t]!.filter((x) => !rebuilt[t]!.includes(x));
    const onlyRebuilt = rebuilt[t]!.filter((x) => !live[t]!.includes(x));
    fail('a', `${t} differs from a rebuild: live only ${JSON.stringify(onlyLive.slice(0, 3))}; rebuilt only ${JSON.stringify(onlyRebuilt.slice(0, 3))}`);
  }
}

export async function checkAll(m: Model, real: Real): Promise<void> {
  await caughtUp(real.world.svc);
  await checkDecisions(m, real.world);
  await checkMembershipAndVisibility(m, real.world);
  await checkReferences(m, real.world);
  await checkAggregates(real.world);
  await checkPublicReads(m, real.world);
  await checkSecondOrganise(m, real);
  await checkDecisions(m, real.world);
  await checkMembershipAndVisibility(m, real.world);
  await checkAggregates(real.world);
  await checkRebuild(real);
  await checkPublicReads(m, real.world);
}
