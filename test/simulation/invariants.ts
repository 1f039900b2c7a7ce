/**
 * The invariants checked after every sequence (docs/simulation.md):
 * (a) the read models equal a full rebuild from the log;
 * (b) a second organisation appends nothing;
 * (c) no administrator decision was undone by organisation or synchronisation (the model's);
 * (d) every family's stored aggregates and public detail equal the model's own computation of them
 *     (oracle.ts, from docs/domain.md's rules);
 * (e) every public list, page and detail through the cache equals the same read from a second
 *     instance with PUBLIC_CACHE_DISABLED;
 * (f) every link with a family points at a family that exists, and no read model holds the id of a
 *     deleted category, country, tag or good (the model's);
 * (g) every write's answer shows its own effect (checked by each command as it runs);
 * and the model's expected membership and public visibility of each family.
 */
import { isDeepStrictEqual } from 'node:util';
import { compareIds, isPlaceholder, type Model } from './model';
import { cellId, cents4, computeFamily, type Expected, type OracleLink } from './oracle';
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
    // A good's tags are a set (docs/api.md): compared in id order.
    const got = { name: row.name, p: row.p, tags: [...row.tags].sort(compareIds), cat: row.cat, country: row.country };
    const want = { name: g.name, p: g.goodPriority, tags: [...g.tagIds].sort(compareIds), cat: g.categoryId, country: g.countryId };
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

/** What the oracle reads of the service: each link's own inputs (mirrored detail, list price, tags) and each good's creation time. */
async function oracleInputs(world: World): Promise<{ links: Map<string, { listPrice: string; tags: any; detail: any }>; createdAt: Map<string, number> }> {
  const pool = world.svc.db.pool;
  const links = new Map(
    (await pool.query(`SELECT id::text, price::text AS price, tags, detail FROM origin_goods`)).rows.map((r) => [
      r.id as string,
      { listPrice: r.price as string, tags: r.tags, detail: r.detail },
    ]),
  );
  const createdAt = new Map(
    (await pool.query(`SELECT id::text, (extract(epoch FROM created_at) * 1000000)::bigint::text AS us FROM goods`)).rows.map((r) => [r.id as string, Number(r.us)]),
  );
  return { links, createdAt };
}

/** The model's expectation of every live family it knows (placeholders left out), by the oracle (oracle.ts). */
export async function expectedFamilies(m: Model, world: World): Promise<Map<string, Expected>> {
  const { links: rows, createdAt } = await oracleInputs(world);
  const links = new Map<string, OracleLink>();
  for (const l of m.links.values()) {
    const row = rows.get(l.id);
    if (!row) continue;
    links.set(l.id, { id: l.id, organised: l.parsedKey !== null, delisted: l.delisted, tags: row.tags, listPrice: row.listPrice, detail: row.detail });
  }
  const out = new Map<string, Expected>();
  for (const f of m.families.values()) {
    if (f.gone || isPlaceholder(f.id)) continue;
    const goods = m.goodsOf(f.id);
    out.set(
      f.id,
      computeFamily({
        members: m.membersOf(f.id).flatMap((id) => (links.has(id) ? [links.get(id)!] : [])),
        customMembers: [...m.goods.values()].filter((g) => g.customOf === f.id && g.custom && m.liveFamily(g.customOf)).map((g) => ({ goodId: g.id, ...g.custom! })),
        overrides: [...f.overrides].map(([k, price]) => ({ ...JSON.parse(k), price })),
        goods: goods.map((g) => ({ id: g.id, goodPriority: g.goodPriority, createdAt: createdAt.get(g.id) ?? 0, secondary: g.secondary, onShelf: g.shelf === 'on' })),
        links,
      }),
    );
  }
  return out;
}

const sourceOf = (s: { linkId?: string; goodId?: string }) => (s.linkId ? `link:${s.linkId}` : `good:${s.goodId}`);
const sortedJson = (xs: unknown[]) => xs.map((x) => JSON.stringify(x)).sort();

/**
 * (d) Every family's stored aggregates equal what the model computes by docs/domain.md's rules
 * (oracle.ts): members and goods counted, the representative, the matrix (axes, cells in order, the
 * effective prices with overrides, the first producer kept and the later ones listed as conflicts,
 * overrides that name no cell), the lowest price, and the unions and media with secondary origins.
 */
export async function checkFamilyAggregates(m: Model, world: World): Promise<void> {
  const expected = await expectedFamilies(m, world);
  const rows = new Map(
    (
      await world.svc.db.pool.query(
        `SELECT id::text, member_count, good_count, representative_good_id::text AS rep, price_matrix, conflicts, lowest_price::text AS lowest,
                variants, size_chart, packaging_specs, options, media_by_color FROM families`,
      )
    ).rows.map((r) => [r.id as string, r]),
  );
  for (const [id, e] of [...expected].sort(([a], [b]) => compareIds(a, b))) {
    const row = rows.get(id);
    if (!row) continue; // membership reports a missing family
    const pm = row.price_matrix ?? {};
    const got = {
      memberCount: row.member_count,
      goodCount: row.good_count,
      representativeGoodId: row.rep,
      sizes: pm.sizes ?? [],
      colors: pm.colors ?? [],
      printCounts: pm.printCounts ?? [],
      crafts: pm.crafts ?? [],
      logistics: pm.logistics ?? [],
      cells: (pm.cells ?? []).map((c: any) => ({ size: c.size, color: c.color, printCount: c.printCount, craft: c.craft, logistics: c.logistics, price: c.price })),
      conflicts: sortedJson((row.conflicts ?? []).map((c: any) => ({ source: sourceOf(c), key: cellId(c.key), keptFrom: sourceOf(c.keptFrom) }))),
      invalidOverrides: ((pm.invalidOverrides ?? []) as any[]).map((o) => cellId(o)).sort(),
      lowestPrice: row.lowest,
      variants: row.variants,
      sizeChart: row.size_chart,
      packagingSpecs: row.packaging_specs,
      options: row.options,
      mediaByColor: row.media_by_color,
    };
    const want = { ...e, conflicts: sortedJson(e.conflicts), invalidOverrides: [...e.invalidOverrides].sort() };
    for (const k of Object.keys(want) as (keyof typeof want)[]) {
      let same: boolean;
      if (k === 'lowestPrice')
        same = (got.lowestPrice === null) === (want.lowestPrice === null) && (got.lowestPrice === null || cents4(got.lowestPrice) === cents4(want.lowestPrice!));
      else same = isDeepStrictEqual(got[k], want[k]);
      if (!same) fail('d', `family ${id}: ${k} is ${JSON.stringify(got[k]).slice(0, 600)}; the model computes ${JSON.stringify(want[k]).slice(0, 600)}`);
    }
  }
}

/**
 * (d) on the storefront: each public family's detail and list item show the model's representative
 * (name, country, category, tags), lowest price, matrix (cells with their effective prices; axes as
 * sets, ordered by tag order at read time), unions and media.
 */
export async function checkPublicAggregates(m: Model, world: World): Promise<void> {
  const expected = await expectedFamilies(m, world);
  const items = new Map<string, any>();
  for (let page = 1; ; page++) {
    const r = await world.svc.request('GET', `/public/goods?page=${page}&pageSize=100`, undefined, {}, { anonymous: true });
    for (const item of r.body.items ?? []) items.set(item.goodId, item);
    if (r.status !== 200 || page * 100 >= r.body.total) break;
  }
  for (const id of m.publicFamilies()) {
    const e = expected.get(id);
    if (!e) continue;
    const rep = m.goods.get(e.representativeGoodId ?? '');
    if (!rep) fail('d', `family ${id}: public, but the model finds no representative`);
    const r = await world.reader.request('GET', `/public/goods/${id}`, undefined, {}, { anonymous: true });
    if (r.status !== 200) continue; // visibility reports it
    const d = r.body;
    const same = (a: string | null, b: string | null) => (a === null) === (b === null) && (a === null || cents4(a) === cents4(b!));
    const problems: string[] = [];
    if (d.name !== rep.name) problems.push(`name ${d.name}, representative ${rep.id} is ${rep.name}`);
    if ((d.countryId ?? null) !== rep.countryId) problems.push(`countryId ${d.countryId}, representative's ${rep.countryId}`);
    if ((d.categoryId ?? null) !== rep.categoryId) problems.push(`categoryId ${d.categoryId}, representative's ${rep.categoryId}`);
    const tagIds = ((d.tags ?? []) as { id: string }[]).map((t) => t.id).sort();
    const repTags = rep.tagIds.filter((t) => !m.deleted.tags.has(t)).sort();
    if (!isDeepStrictEqual(tagIds, repTags)) problems.push(`tags ${tagIds}, representative's ${repTags}`);
    if (!same(d.lowestPrice, e.lowestPrice)) problems.push(`lowestPrice ${d.lowestPrice}, model ${e.lowestPrice}`);
    if (!isDeepStrictEqual(sortedJson(d.priceMatrix.cells), sortedJson(e.cells)))
      problems.push(`cells ${JSON.stringify(d.priceMatrix.cells).slice(0, 400)}, model ${JSON.stringify(e.cells).slice(0, 400)}`);
    for (const [axis, want] of [
      ['sizes', e.sizes],
      ['colors', e.colors],
      ['printCounts', e.printCounts],
      ['crafts', e.crafts],
      ['logistics', e.logistics],
    ] as const) {
      if (!isDeepStrictEqual([...d.priceMatrix[axis]].sort(), [...want].sort())) problems.push(`${axis} ${d.priceMatrix[axis]}, model ${want}`);
    }
    for (const axis of ['printCounts', 'crafts', 'logistics'] as const)
      if (!isDeepStrictEqual(d.priceMatrix[axis], e[axis])) problems.push(`${axis} order ${d.priceMatrix[axis]}, model ${e[axis]}`);
    if (!isDeepStrictEqual(d.variants, e.variants)) problems.push(`variants differ`);
    if (!isDeepStrictEqual(d.options, e.options)) problems.push(`options ${JSON.stringify(d.options)}, model ${JSON.stringify(e.options)}`);
    if (!isDeepStrictEqual(d.sizeChart, e.sizeChart)) problems.push('sizeChart differs');
    if (!isDeepStrictEqual(d.packagingSpecs, e.packagingSpecs)) problems.push('packagingSpecs differ');
    if (!isDeepStrictEqual(d.mediaByColor, e.mediaByColor)) problems.push('mediaByColor differs');
    const item = items.get(id);
    if (item && (item.name !== rep.name || !same(item.price, e.lowestPrice))) problems.push(`list item ${item.name} ${item.price}, model ${rep.name} ${e.lowestPrice}`);
    if (problems.length) fail('d', `public family ${id}: ${problems.join('; ')}`);
  }
}

/**
 * The storefront's orders of what the shop made itself follow the model (docs/domain.md, Public
 * catalog: by sortOrder, then id): its countries and categories in /public/tree-order, the tags of
 * its own groups in /public/tag-groups, and the home's positions, each listing one entry per public
 * family, the first placed good of a family deciding where it shows.
 */
export async function checkVocabulary(m: Model, world: World): Promise<void> {
  const get = async (path: string) => {
    const r = await world.reader.request('GET', path, undefined, {}, { anonymous: true });
    if (r.status !== 200) fail('vocabulary', `${path}: ${r.status}`);
    return r.body;
  };
  const order = await get('/public/tree-order');
  const countries = (order.countries as string[]).filter((c) => m.ownCountries.has(c));
  const wantCountries = m.ordered(
    'country',
    [...m.ownCountries].filter((c) => m.countries.has(c)),
  );
  if (!isDeepStrictEqual(countries, wantCountries)) fail('vocabulary', `own countries in the order ${countries}, the model's ${wantCountries}`);
  const own = [...m.ownCategories].filter((c) => m.categories.has(c));
  for (const parent of new Set(own.map((c) => m.categoryParent.get(c) ?? null))) {
    const got = ((order.categories[parent ?? 'root'] ?? []) as string[]).filter((c) => m.ownCategories.has(c));
    const want = m.ordered(
      'category',
      own.filter((c) => (m.categoryParent.get(c) ?? null) === parent),
    );
    if (!isDeepStrictEqual(got, want)) fail('vocabulary', `own categories under ${parent ?? 'the root'}: ${got}, the model's ${want}`);
  }
  const groups = (await get('/public/tag-groups')).items as { id: string; tags: { id: string }[] }[];
  for (const g of m.ownGroups) {
    const got = (groups.find((x) => x.id === g)?.tags ?? []).map((t) => t.id);
    const want = m.ordered(
      'tag',
      [...m.tags.values()].filter((t) => t.groupId === g).map((t) => t.id),
    );
    if (!isDeepStrictEqual(got, want)) fail('vocabulary', `tags of group ${g}: ${got}, the model's ${want}`);
  }
  const home = (await get('/public/home')).positions as { id: string; items: { goodId: string }[] }[];
  const shown = new Set(m.publicFamilies());
  const want = m.ordered('position', m.positions.keys()).map((p) => {
    const families: string[] = [];
    for (const g of m.positions.get(p)!) {
      const good = m.goods.get(g);
      const f = good && m.familyOfGood(good);
      if (f && shown.has(f) && !families.includes(f)) families.push(f);
    }
    return { id: p, items: families };
  });
  const got = home.map((p) => ({ id: p.id, items: p.items.map((i) => i.goodId) }));
  const nonEmpty = (xs: { id: string; items: string[] }[]) => xs.filter((x) => x.items.length > 0);
  if (!isDeepStrictEqual(nonEmpty(got), nonEmpty(want))) fail('vocabulary', `home ${JSON.stringify(got)}, the model's ${JSON.stringify(want)}`);
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
      const [cached, other, plain] = await Promise.all([
        world.svc.request('GET', p, undefined, {}, { anonymous: true }),
        world.cacher.request('GET', p, undefined, {}, { anonymous: true }),
        world.reader.request('GET', p, undefined, {}, { anonymous: true }),
      ]);
      const same = (x: { status: number; body: unknown }) => x.status === plain.status && isDeepStrictEqual(x.body, plain.body);
      if (same(cached) && same(other)) break;
      const bad = same(cached) ? { who: 'the caching reader', r: other } : { who: 'the service', r: cached };
      const last = `${p}: ${bad.who} cached ${bad.r.status} ${JSON.stringify(bad.r.body).slice(0, 700)} | uncached ${plain.status} ${JSON.stringify(plain.body).slice(0, 700)}`;
      if (attempt >= 20) fail('e', last);
      await new Promise((r) => setTimeout(r, 150));
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
  await checkFamilyAggregates(m, real.world);
  await checkPublicAggregates(m, real.world);
  await checkVocabulary(m, real.world);
  await checkPublicReads(m, real.world);
  await checkSecondOrganise(m, real);
  await checkDecisions(m, real.world);
  await checkMembershipAndVisibility(m, real.world);
  await checkFamilyAggregates(m, real.world);
  await checkRebuild(real);
  await checkFamilyAggregates(m, real.world);
  await checkPublicReads(m, real.world);
}
