/**
 * The catalog projection applies a batch set-based (events folded per row, one statement per kind of
 * change). Its rows must be those of applying the events one at a time, whatever the batch
 * boundaries, and applying a batch again must change nothing. A seeded generator writes a history with
 * every event kind the projection handles, in orders a real log has (a link mirrored and delisted in
 * one append, a good created, edited and deleted, links moving between families, a family merged
 * into another, custom members, overrides inside and outside the matrix), interleaved across streams.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { catalogProjection } from '../../../projections/catalog';
import { checkFamilies, recomputeFamilies, recordStamps, staleFamilies } from '../../../src/catalog/families/recompute';
import { createEventRegistry } from '../../../src/catalog/event-registry';
import type { DecodedEvent } from '../../../src/platform/events/registry';
import { eventMetadata } from '../../../src/platform/events/registry';
import { START, comparePositions, type RecordedEvent } from '../../../src/platform/event-store/port';
import { MIGRATIONS_DIR } from '../../../src/platform/migrate';
import { mulberry32 } from '../../../src/sync/simulator/prng';
import { createTestDatabase, type TestDatabase } from '../../support/db';
import { postgresStore } from '../../support/event-store';
import { goodCreatedData } from '../../support/goods';

const registry = createEventRegistry();
const def = catalogProjection;
const SIZES = ['S', 'M', 'L', 'XL'];
const COLORS = ['黑色', '白色', '红色'];
const CRAFTS = ['烫画', '直喷', '不打印'];
const LOGISTICS = ['包邮', '不包邮'];

type Pending = { stream: string; type: string; data: unknown };

/** A valid history over a handful of links, goods and families, decided by a seeded PRNG. */
function generateHistory(seed: number, steps: number): Pending[][] {
  const rnd = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const links = Array.from({ length: 8 }, (_, i) => String(100_001 + i));
  const familyIds = Array.from({ length: 4 }, (_, i) => String(9_000_000_000_000 + i));
  const goodIds = Array.from({ length: 6 }, (_, i) => String(8_000_000_000_000 + i));
  const linkState = new Map<string, { mirrored: boolean; delisted: boolean; family: string | null; good: string | null }>();
  const familyState = new Map<string, 'none' | 'live' | 'gone'>(familyIds.map((f) => [f, 'none']));
  const goodState = new Map<string, 'none' | 'live' | 'gone'>(goodIds.map((g) => [g, 'none']));
  const customOf = new Map<string, string>(); // custom good → family
  const appends: Pending[][] = [];
  const tags = () => ({
    size: SIZES.filter(() => rnd() < 0.6),
    color: COLORS.filter(() => rnd() < 0.6),
    printCount: rnd() < 0.8 ? ['单面印花'] : [],
    craft: rnd() < 0.9 ? [pick(CRAFTS)] : [],
    logistics: rnd() < 0.9 ? [pick(LOGISTICS)] : [],
  });
  const detail = (link: string) => ({
    variants: SIZES.flatMap((size) =>
      COLORS.filter(() => rnd() < 0.7).map((color) => ({
        sku: `${link}-${size}-${color}`,
        size,
        color,
        price: `${20 + Math.floor(rnd() * 30)}.${pick(['00', '50', '90'])}`,
        stock: Math.floor(rnd() * 100),
      })),
    ),
    sizeChart: SIZES.map((size) => ({ size, chest: String(90 + Math.floor(rnd() * 20)) })),
    packagingSpecs: [{ name: '单件', weightGrams: 150 + Math.floor(rnd() * 50), lengthCm: 30, widthCm: 25, heightCm: 2 }],
    options: [{ name: '领标', values: ['有', '无'].filter(() => rnd() < 0.7) }, ...(rnd() < 0.5 ? [{ name: '包装', values: ['OPP袋'] }] : [])],
    media: COLORS.filter(() => rnd() < 0.5).map((color, i) => ({ color, url: `https://img.example.com/${link}/${i}-${Math.floor(rnd() * 3)}.jpg`, sort: i })),
  });
  const mirrored = (link: string) => ({
    linkId: link,
    name: `美国（${pick(LOGISTICS)}）纯棉短袖T恤 G${5000 + (Number(link) % 3)} ${pick(CRAFTS)}`,
    categoryId: '301',
    craftLabel: pick(CRAFTS),
    price: `${30 + Math.floor(rnd() * 20)}.90`,
    image: rnd() < 0.8 ? `https://img.example.com/${link}.jpg` : null,
    status: 'ON_SALE',
    supplierUpdatedAt: `2026-11-0${1 + Math.floor(rnd() * 8)}T08:00:00Z`,
  });
  const liveFamilies = () => familyIds.filter((f) => familyState.get(f) === 'live');
  const goodFields = (withAll: boolean) => {
    const f: Record<string, unknown> = {
      name: `商品 ${Math.floor(rnd() * 1000)}`,
      description: rnd() < 0.5 ? null : '描述',
      image: rnd() < 0.5 ? null : 'https://img.example.com/g.jpg',
      goodPriority: Math.floor(rnd() * 5),
      tagIds: rnd() < 0.5 ? [] : ['11', '12'].filter(() => rnd() < 0.7),
      tagFontColor: rnd() < 0.5 ? null : '#ff0000',
      categoryId: rnd() < 0.3 ? null : '301',
      countryId: rnd() < 0.3 ? null : '1',
    };
    if (!withAll) for (const k of Object.keys(f)) if (rnd() < 0.5) delete f[k];
    return f;
  };

  for (let step = 0; step < steps; step++) {
    const r = rnd();
    const link = pick(links);
    const ls = linkState.get(link) ?? { mirrored: false, delisted: false, family: null, good: null };
    linkState.set(link, ls);
    const ev = (type: string, data: unknown, stream = `link-${link}`): Pending => ({ stream, type, data });
    if (!ls.mirrored || r < 0.08) {
      // first sight (possibly off sale at once) or a change
      const first = !ls.mirrored;
      const events = [ev('LinkMirrored', mirrored(link))];
      if (first && rnd() < 0.3) {
        events.push(ev('LinkDelisted', { linkId: link, reason: 'OFF_SALE' }));
        ls.delisted = true;
      }
      ls.mirrored = true;
      appends.push(events);
    } else if (r < 0.12) {
      appends.push([ev(ls.delisted ? 'LinkRelisted' : 'LinkDelisted', ls.delisted ? { linkId: link } : { linkId: link, reason: 'MISSING_FROM_LISTING' })]);
      ls.delisted = !ls.delisted;
    } else if (r < 0.22) {
      appends.push([ev('LinkDetailSynced', { linkId: link, detail: detail(link) })]);
    } else if (r < 0.32) {
      const t = tags();
      const missing = (['craft', 'logistics'] as const).filter((d) => t[d].length === 0);
      const parsed = {
        linkId: link,
        country: '美国',
        logistics: pick(LOGISTICS),
        productName: '纯棉短袖T恤',
        sku: `G${5000 + (Number(link) % 3)}`,
        familyNameKey: `美国|纯棉短袖T恤|G${5000 + (Number(link) % 3)}`,
      };
      const withParse = rnd() < 0.5;
      const { linkId: _l, ...columns } = parsed;
      // Half the links as organisation appends now (one LinkOrganised), half as earlier versions did: the same rows.
      if (Number(link) % 2 === 0) appends.push([ev('LinkOrganised', { linkId: link, ...(withParse ? { parsed: columns } : {}), tags: t, missing })]);
      else
        appends.push(
          withParse ? [ev('LinkParsed', parsed), ev('LinkTagsDerived', { linkId: link, tags: t, missing })] : [ev('LinkTagsDerived', { linkId: link, tags: t, missing })],
        );
    } else if (r < 0.36) {
      appends.push([ev('LinkTagsTakenOver', { linkId: link, tags: tags(), filled: [{ dimension: 'logistics', value: '包邮' }] })]);
    } else if (r < 0.38) {
      const t = tags();
      appends.push([ev('LinkTagsRestored', { linkId: link, tags: t, missing: (['craft', 'logistics'] as const).filter((d) => t[d].length === 0) })]);
    } else if (r < 0.5 && liveFamilies().length) {
      const target = pick(liveFamilies());
      const events: Pending[] = [];
      // A link without a family joins as organisation appends it now for half the links (LinkOrganised, FamilyMembersAdded).
      const organised = !ls.family && Number(link) % 2 === 0;
      if (ls.family) events.push(ev('LinkLeftFamily', { linkId: link, familyId: ls.family }));
      if (ls.family !== target) events.push(organised ? ev('LinkOrganised', { linkId: link, familyId: target }) : ev('LinkJoinedFamily', { linkId: link, familyId: target }));
      const left = ls.family;
      ls.family = ls.family === target ? null : target;
      appends.push(events);
      if (left) appends.push([{ stream: `family-${left}`, type: 'FamilyMemberRemoved', data: { familyId: left, linkId: link } }]);
      if (ls.family)
        appends.push([
          organised
            ? { stream: `family-${target}`, type: 'FamilyMembersAdded', data: { familyId: target, linkIds: [link] } }
            : { stream: `family-${target}`, type: 'FamilyMemberAdded', data: { familyId: target, linkId: link } },
        ]);
    } else if (r < 0.72) {
      const f = pick(familyIds);
      if (familyState.get(f) === 'none') {
        familyState.set(f, 'live');
        appends.push([
          {
            stream: `family-${f}`,
            type: 'FamilyCreated',
            data: {
              familyId: f,
              name: `系列 ${f.slice(-1)}`,
              familyNameKey: rnd() < 0.7 ? `美国|纯棉短袖T恤|G${5000 + (Number(f) % 3)}` : null,
              autoManaged: rnd() < 0.7,
              locked: false,
              // some families start off the shelf (下架), as an administrator may create one
              shelf: Number(f) % 4 === 0 ? 'off' : 'on',
            },
          },
        ]);
      } else if (familyState.get(f) === 'live') {
        const k = rnd();
        const fe = (type: string, data: Record<string, unknown>): Pending => ({ stream: `family-${f}`, type, data: { familyId: f, ...data } });
        if (k < 0.2) appends.push([fe('FamilyRenamed', { name: `改名 ${Math.floor(rnd() * 100)}` })]);
        else if (k < 0.3) appends.push([fe(rnd() < 0.5 ? 'FamilyLocked' : 'FamilyUnlocked', {})]);
        else if (k < 0.35) appends.push([fe('FamilyShelfSet', { state: k < 0.325 ? 'off' : 'on' })]);
        else if (k < 0.65) {
          const key = { size: pick(SIZES), color: pick(COLORS), printCount: '单面印花', craft: pick(CRAFTS), logistics: pick(LOGISTICS) };
          appends.push([
            rnd() < 0.7 ? fe('FamilyPriceOverrideSet', { ...key, price: `${10 + Math.floor(rnd() * 90)}.${pick(['00', '5', '99'])}` }) : fe('FamilyPriceOverrideRemoved', key),
          ]);
        } else if (k < 0.9) {
          const custom = goodIds.find((g) => goodState.get(g) === 'live' && customOf.has(g) && customOf.get(g) === f);
          if (custom) {
            appends.push([fe('FamilyCustomMemberRemoved', { goodId: custom })]);
            customOf.delete(custom);
          } else {
            const g = goodIds.find((x) => goodState.get(x) === 'live' && !customOf.has(x) && !linkOfGood(x));
            if (g) {
              appends.push([fe('FamilyCustomMemberAdded', { goodId: g, tags: tags(), price: `${50 + Math.floor(rnd() * 50)}.00` })]);
              customOf.set(g, f);
            }
          }
        } else if (k < 0.93) {
          appends.push([fe('FamilyRecomputed', { columns: ['lowest_price'] })]);
        } else if (k > 0.97 && familyIds.indexOf(f) >= 2) {
          // Merge into another live family, or delete: its links leave first, as organisation and the admin do.
          const into = liveFamilies().find((x) => x !== f);
          const members = [...linkState].filter(([, s]) => s.family === f).map(([id]) => id);
          for (const m of members) {
            const events = [{ stream: `link-${m}`, type: 'LinkLeftFamily', data: { linkId: m, familyId: f } }];
            if (into) events.push({ stream: `link-${m}`, type: 'LinkJoinedFamily', data: { linkId: m, familyId: into } });
            appends.push(events);
            linkState.get(m)!.family = into ?? null;
          }
          for (const [g, fam] of customOf) if (fam === f) customOf.delete(g);
          appends.push([into ? fe('FamilyMergedInto', { intoFamilyId: into }) : fe('FamilyDeleted', {})]);
          familyState.set(f, 'gone');
        }
      }
    } else if (r < 0.86) {
      const g = pick(goodIds);
      const ge = (type: string, data: Record<string, unknown>): Pending => ({ stream: `good-${g}`, type, data: { goodId: g, ...data } });
      if (goodState.get(g) === 'none') {
        const origin = rnd() < 0.6 ? (links.find((l) => linkState.get(l)?.mirrored && !linkState.get(l)!.good) ?? null) : null;
        if (origin) {
          appends.push([{ stream: `link-${origin}`, type: 'LinkGoodAssigned', data: { linkId: origin, goodId: g } }]);
          linkState.get(origin)!.good = g;
        }
        const created = [ge('GoodCreated', { ...goodFields(true), originGoodId: origin })];
        if (rnd() < 0.3) created.push(ge('GoodUpdated', goodFields(false)));
        appends.push(created);
        goodState.set(g, 'live');
      } else if (goodState.get(g) === 'live') {
        const k = rnd();
        if (k < 0.4) appends.push([ge('GoodUpdated', goodFields(false))]);
        else if (k < 0.5) appends.push([ge('GoodShelfSet', { state: k < 0.46 ? 'off' : 'on' })]);
        else if (k < 0.8) appends.push([ge('GoodOriginsSet', { secondaryOriginGoodIds: links.filter(() => rnd() < 0.3) })]);
        else {
          appends.push([ge('GoodDeleted', {})]);
          const origin = linkOfGood(g);
          if (origin) {
            appends.push([{ stream: `link-${origin}`, type: 'LinkGoodUnassigned', data: { linkId: origin, goodId: g } }]);
            linkState.get(origin)!.good = null;
          }
          customOf.delete(g);
          goodState.set(g, 'gone');
        }
      }
    }
  }
  // Whatever the dice said: a family deleted and one merged, an override and goods that stay.
  const extra = (n: number) => String(9_000_000_000_100 + n);
  const survivor = liveFamilies()[0] ?? extra(0);
  if (!liveFamilies().length)
    appends.push([
      { stream: `family-${survivor}`, type: 'FamilyCreated', data: { familyId: survivor, name: '留下', familyNameKey: null, autoManaged: false, locked: false, shelf: 'on' } },
    ]);
  for (const [n, end] of [
    [1, 'FamilyDeleted'],
    [2, 'FamilyMergedInto'],
  ] as const) {
    const f = extra(n);
    appends.push([{ stream: `family-${f}`, type: 'FamilyCreated', data: { familyId: f, name: `临时 ${n}`, familyNameKey: null, autoManaged: true, locked: false, shelf: 'on' } }]);
    appends.push([
      {
        stream: `family-${f}`,
        type: 'FamilyPriceOverrideSet',
        data: { familyId: f, size: 'S', color: '黑色', printCount: '单面印花', craft: '直喷', logistics: '包邮', price: '9.90' },
      },
    ]);
    appends.push([{ stream: `family-${f}`, type: end, data: end === 'FamilyDeleted' ? { familyId: f } : { familyId: f, intoFamilyId: survivor } }]);
  }
  appends.push([
    {
      stream: `family-${survivor}`,
      type: 'FamilyPriceOverrideSet',
      data: { familyId: survivor, size: 'M', color: '白色', printCount: '单面印花', craft: '烫画', logistics: '不包邮', price: '19.90' },
    },
  ]);
  const lastGood = String(8_000_000_000_100);
  appends.push([{ stream: `good-${lastGood}`, type: 'GoodCreated', data: { goodId: lastGood, ...goodFields(true), originGoodId: null } }]);
  return appends;

  function linkOfGood(g: string): string | null {
    for (const [id, s] of linkState) if (s.good === g) return id;
    return null;
  }
}

describe('catalog projection: set-based batches', () => {
  let db: TestDatabase;
  let events: DecodedEvent[];
  let close: () => Promise<void>;

  beforeAll(async () => {
    db = await createTestDatabase();
    const built = postgresStore(db);
    close = built.close;
    const meta = eventMetadata('system:test', 'CatalogProjectionTest');
    let last = START;
    for (const append of generateHistory(7, 1500)) {
      const byStream = new Map<string, Pending[]>();
      for (const p of append) byStream.set(p.stream, [...(byStream.get(p.stream) ?? []), p]);
      for (const [stream, list] of byStream)
        last = (
          await built.store.appendToStream(
            stream,
            list.map((p) => registry.encode(p.type, p.data, meta)),
          )
        ).position;
    }
    // Read up to the last append: another transaction on the server can hold readers back a while.
    const recorded: RecordedEvent[] = [];
    for (let after = START; comparePositions(after, last) < 0;) {
      const page = await built.store.readAll({ after, limit: 1000, streamPrefixes: def.streamPrefixes });
      if (page.length === 0) await new Promise((r) => setTimeout(r, 50));
      recorded.push(...page);
      if (page.length) after = page[page.length - 1]!.position;
    }
    events = recorded.filter((e) => def.handles.includes(e.type)).map((e) => registry.decode(e));
  });
  afterAll(async () => {
    await close();
    await db.drop();
  });

  const aggregates = (schema: string) =>
    db.pool.query<{ h: string }>(
      `SELECT md5(string_agg(concat_ws('|', id, member_count, good_count, representative_good_id, variants, size_chart, packaging_specs, options,
                                       price_matrix, conflicts, lowest_price, media_by_color), ',' ORDER BY id)) AS h FROM ${schema}.families`,
    );

  /**
   * Applies the events into fresh copies of the projection's tables, batch by batch. With `checkFresh`,
   * after every batch each family's aggregates must equal a recompute from the rows as they are: a
   * batch that changed a family's inputs without marking it for recompute leaves it stale.
   */
  // The rows of the history projected an event at a time, each event's batch checked against a full
  // recompute: the reference the other ways of batching are held to, projected once for all of them
  // (the slowest projection here, minutes on a busy machine).
  let reference: Promise<Record<string, string>> | undefined;
  const eventAtATime = () =>
    (reference ??= project(
      'cp_one',
      events.map((e) => [e]),
      true,
    ));

  async function project(schema: string, batches: DecodedEvent[][], checkFresh = false, deferDerived = false): Promise<Record<string, string>> {
    const client = await db.pool.connect();
    try {
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.query(`CREATE SCHEMA ${schema}`);
      for (const t of def.tables) await client.query(`CREATE TABLE ${schema}.${t} (LIKE public.${t} INCLUDING ALL)`);
      for (const batch of batches) {
        await client.query('BEGIN');
        await client.query(`SELECT set_config('search_path', $1, true)`, [`${schema}, public`]);
        await def.applyBatch(client, batch, { deferDerived });
        await client.query('COMMIT');
        if (checkFresh) {
          const stored = (await aggregates(schema)).rows[0]!.h;
          await client.query('BEGIN');
          await client.query(`SELECT set_config('search_path', $1, true)`, [`${schema}, public`]);
          await recomputeFamilies(
            client,
            (await client.query<{ id: string }>(`SELECT id FROM families`)).rows.map((r) => r.id),
          );
          const recomputed = (
            await client.query<{
              h: string;
            }>(`SELECT md5(string_agg(concat_ws('|', id, member_count, good_count, representative_good_id, variants, size_chart, packaging_specs, options,
                                       price_matrix, conflicts, lowest_price, media_by_color), ',' ORDER BY id)) AS h FROM families`)
          ).rows[0]!.h;
          await client.query('ROLLBACK');
          if (recomputed !== stored) throw new Error(`after the batch ending with ${batch.at(-1)?.type} ${JSON.stringify(batch.at(-1)?.data)}, a family's aggregates are stale`);
        }
      }
      // A rebuild's replay deferred the aggregates: settle them as the runner does, step by step.
      for (let after: string | null = null, first = true; deferDerived && (first || after !== null); first = false) {
        await client.query('BEGIN');
        await client.query(`SELECT set_config('search_path', $1, true)`, [`${schema}, public`]);
        after = await def.settle!(client, after);
        await client.query('COMMIT');
      }
      const out: Record<string, string> = {};
      for (const t of def.tables) {
        const r = await client.query<{ n: string; h: string | null }>(`SELECT count(*) AS n, md5(string_agg(x::text, '|' ORDER BY x::text)) AS h FROM ${schema}.${t} x`);
        out[t] = `${r.rows[0]!.n} rows ${r.rows[0]!.h}`;
      }
      return out;
    } finally {
      client.release();
    }
  }

  it('the history has every event kind the projection handles, many of them in one stream', () => {
    const kinds = new Set(events.map((e) => e.type));
    expect([...def.handles].filter((k) => !kinds.has(k))).toEqual([]);
    expect(events.length).toBeGreaterThan(500);
  });

  it('one batch of everything, random batches and one event at a time give the same rows; families are recomputed', async () => {
    const oneByOne = await eventAtATime();
    const whole = await project('cp_whole', [events]);
    const rnd = mulberry32(99);
    const random: DecodedEvent[][] = [];
    for (let i = 0; i < events.length;) {
      const n = 1 + Math.floor(rnd() * 60);
      random.push(events.slice(i, i + n));
      i += n;
    }
    const randomly = await project('cp_random', random, true);
    expect(whole).toEqual(oneByOne);
    expect(randomly).toEqual(oneByOne);
    // Not trivially equal: the history leaves families with members, cells, goods and overrides.
    const families = await db.pool.query(`SELECT member_count, good_count, lowest_price, price_matrix FROM cp_whole.families`);
    expect(families.rows.some((f) => f.member_count > 0 && f.lowest_price !== null && f.price_matrix.cells.length > 0)).toBe(true);
    expect(Number((await db.pool.query(`SELECT count(*) AS n FROM cp_whole.goods`)).rows[0].n)).toBeGreaterThan(0);
    expect(Number((await db.pool.query(`SELECT count(*) AS n FROM cp_whole.family_overrides`)).rows[0].n)).toBeGreaterThan(0);
  }, 240_000); // three full projections, one of them an event at a time with a recompute check after each: minutes on a busy machine

  it('a rebuild that defers the aggregates to the end of its replay and then settles them gives the same rows', async () => {
    const oneByOne = await eventAtATime();
    const rnd = mulberry32(5);
    const batches: DecodedEvent[][] = [];
    for (let i = 0; i < events.length;) {
      const n = 1 + Math.floor(rnd() * 200);
      batches.push(events.slice(i, i + n));
      i += n;
    }
    expect(await project('cp_deferred', batches, false, true)).toEqual(oneByOne);
  }, 240_000); // alone (jest -t), it projects the reference too

  it('the full recompute check finds no family stale in projected rows, and finds one changed by hand with its columns', async () => {
    await project('cp_check', [events]);
    const client = await db.pool.connect();
    try {
      await client.query(`SET search_path TO cp_check, public`);
      const ids = (await client.query<{ id: string }>(`SELECT id FROM families ORDER BY id`)).rows.map((r) => r.id);
      expect(ids.length).toBeGreaterThan(0);
      expect(await staleFamilies(client, ids)).toEqual([]);
      const priced = (await client.query<{ id: string }>(`SELECT id FROM families WHERE lowest_price IS NOT NULL ORDER BY id LIMIT 1`)).rows[0]!.id;
      // Same value, another scale: the storefront would show it differently, so it counts.
      await client.query(`UPDATE families SET lowest_price = lowest_price::numeric(20,6), options = '[{"name":"x","values":[]}]' WHERE id = $1`, [priced]);
      expect(await staleFamilies(client, ids)).toEqual([{ id: priced, columns: ['options', 'lowest_price'] }]);
    } finally {
      await client.query(`SET search_path TO public`);
      client.release();
    }
  });

  it('stamps: a projected family is proven right without a recompute until its aggregates, an input or its stamp change', async () => {
    await project('cp_stamps', [events]);
    const client = await db.pool.connect();
    try {
      await client.query(`SET search_path TO cp_stamps, public`);
      const ids = (await client.query<{ id: string }>(`SELECT id FROM families ORDER BY id`)).rows.map((r) => r.id);
      expect(await checkFamilies(client, ids)).toEqual({ stale: [], verified: [] });
      const priced = (await client.query<{ id: string }>(`SELECT id FROM families WHERE lowest_price IS NOT NULL ORDER BY id LIMIT 1`)).rows[0]!.id;
      const other = (await client.query<{ id: string }>(`SELECT id FROM families WHERE member_count > 0 AND id <> $1 ORDER BY id LIMIT 1`, [priced])).rows[0]!.id;

      // A missing stamp: recomputed, found right, and proven again once recorded.
      await client.query(`DELETE FROM family_stamps WHERE family_id = $1`, [other]);
      const missing = await checkFamilies(client, ids);
      expect(missing).toEqual({ stale: [], verified: [{ id: other, stamp: expect.stringMatching(/^[0-9a-f]{32}$/), base: expect.stringMatching(/^[0-9a-f]{32}$/) }] });
      await recordStamps(client, missing.verified);
      expect(await checkFamilies(client, ids)).toEqual({ stale: [], verified: [] });

      // An aggregate changed by hand, even to an equal value at another scale.
      await client.query(`UPDATE families SET lowest_price = lowest_price::numeric(20,6) WHERE id = $1`, [priced]);
      expect(await checkFamilies(client, ids)).toEqual({ stale: [{ id: priced, columns: ['lowest_price'] }], verified: [] });
      await recomputeFamilies(client, [priced]);
      expect(await checkFamilies(client, ids)).toEqual({ stale: [], verified: [] });

      // An input changed by hand: the family is recomputed, whether or not its aggregates then differ.
      const member = (await client.query<{ id: string }>(`SELECT id FROM origin_goods WHERE family_id = $1 ORDER BY id LIMIT 1`, [other])).rows[0]!.id;
      await client.query(`UPDATE origin_goods SET price = price + 1 WHERE id = $1`, [member]);
      const changed = await checkFamilies(client, ids);
      expect([...changed.stale, ...changed.verified].map((f) => f.id)).toEqual([other]);
    } finally {
      await client.query(`SET search_path TO public`);
      client.release();
    }
  });

  // Migration 037 rewrote the stamps of rules '1' (and the goods' fingerprint of then) for its new hash
  // of the aggregates; stamps of later rules (a good's shelf state among the inputs, migration 041) are
  // not its to touch, so a database that runs it, either way, keeps them as they are and they still hold.
  it('migration 037 leaves the stamps of later rules as they are, both ways, and they still hold', async () => {
    await project('cp_hash_migration', [events]);
    const sql = readFileSync(path.join(MIGRATIONS_DIR, '037_family-base-hash.sql'), 'utf8');
    const [up, down] = sql.split('-- Down Migration') as [string, string];
    const client = await db.pool.connect();
    const stamps = async () => (await client.query<{ family_id: string; stamp: string }>(`SELECT family_id, stamp FROM family_stamps ORDER BY family_id`)).rows;
    try {
      await client.query(`SET search_path TO cp_hash_migration, public`);
      const ids = (await client.query<{ id: string }>(`SELECT id FROM families ORDER BY id`)).rows.map((r) => r.id);
      expect(await checkFamilies(client, ids)).toEqual({ stale: [], verified: [] });
      const held = await stamps();
      expect(held.length).toBe(ids.length);
      await client.query(down);
      expect(await stamps()).toEqual(held);
      await client.query(up);
      expect(await stamps()).toEqual(held);
      expect(await checkFamilies(client, ids)).toEqual({ stale: [], verified: [] });
    } finally {
      await client.query(`SET search_path TO public`);
      client.release();
    }
  });

  it('a batch that changes only a family’s goods never stamps aggregates it did not compute: an unproven family is recomputed whole', async () => {
    await project('cp_goods_only', [events]);
    const client = await db.pool.connect();
    try {
      await client.query(`SET search_path TO cp_goods_only, public`);
      // A family with variants, left as an older version (or a hand) would: its variants '[]' and no
      // stamp. The check sees it.
      const families = (
        await client.query<{ id: string; link: string }>(
          `SELECT f.id::text AS id, min(og.id)::text AS link FROM families f JOIN origin_goods og ON og.family_id = f.id
            WHERE f.variants <> '[]' GROUP BY f.id ORDER BY f.id LIMIT 2`,
        )
      ).rows;
      expect(families).toHaveLength(2);
      const [row, proven] = families as [{ id: string; link: string }, { id: string; link: string }];
      await client.query(`UPDATE families SET variants = '[]' WHERE id = $1`, [row.id]);
      await client.query(`DELETE FROM family_stamps WHERE family_id = $1`, [row.id]);
      expect((await checkFamilies(client, [row.id])).stale).toEqual([{ id: row.id, columns: ['variants'] }]);

      // A batch of one GoodCreated from a member link: the projection's goods-only path for that family.
      const last = events[events.length - 1]!;
      const goodMade = (n: number, link: string): DecodedEvent => ({
        ...last,
        id: `00000000-0000-4000-8000-00000000000${n}`,
        streamId: `good-${7_000_000_000_000 + n}`,
        revision: 0n,
        position: { commit: last.position.commit + BigInt(n), prepare: 0n },
        type: 'GoodCreated',
        data: goodCreatedData(String(7_000_000_000_000 + n), link, `新商品 ${n}`),
        metadata: eventMetadata('system:test', 'CreateGood'),
      });
      const apply = async (e: DecodedEvent) => {
        await client.query('BEGIN');
        await client.query(`SELECT set_config('search_path', 'cp_goods_only, public', true)`);
        await def.applyBatch(client, [e], { deferDerived: false });
        await client.query('COMMIT');
      };
      await apply(goodMade(1, row.link));

      // The family's aggregates are right again (recomputed whole), and its stamp proves exactly them.
      expect(await staleFamilies(client, [row.id])).toEqual([]);
      expect((await client.query(`SELECT variants <> '[]' AS restored FROM families WHERE id = $1`, [row.id])).rows[0].restored).toBe(true);
      expect(await checkFamilies(client, [row.id])).toEqual({ stale: [], verified: [] });

      // A family whose stamp held stays on the goods-only path: its stamp is carried forward and holds.
      const goodsBefore = (await client.query(`SELECT good_count FROM families WHERE id = $1`, [proven.id])).rows[0].good_count as number;
      await apply(goodMade(2, proven.link));
      expect((await client.query(`SELECT good_count FROM families WHERE id = $1`, [proven.id])).rows[0].good_count).toBe(goodsBefore + 1);
      expect(await checkFamilies(client, [proven.id])).toEqual({ stale: [], verified: [] });
      expect(await staleFamilies(client, [proven.id])).toEqual([]);
    } finally {
      await client.query(`SET search_path TO public`);
      client.release();
    }
  });

  it('a batch applied twice, or each event twice, changes nothing the second time', async () => {
    const once = await project('cp_once', [events]);
    expect(await project('cp_twice', [events, events])).toEqual(once);
    expect(
      await project(
        'cp_each_twice',
        events.flatMap((e) => [[e], [e]]),
      ),
    ).toEqual(once);
  });
});
