/**
 * What the admin's screens read beyond the contract's shapes (docs/api.md): the overview's figures,
 * the users' names, the families list's country, filters and orders, and memberCount on the goods
 * tree's family nodes. Against a service with the demo catalog, each figure checked against the
 * read models.
 */
import { linkNameProblem } from '../../../src/catalog/domain/names';
import { seedDemoCatalog } from '../../../src/sync/demo';
import { ADMIN, startTestService, type TestService } from '../../support/service';

jest.setTimeout(180_000);

let svc: TestService;
const count = async (sql: string): Promise<number> => Number((await svc.db.pool.query<{ n: string }>(sql)).rows[0]!.n);

beforeAll(async () => {
  svc = await startTestService();
  await seedDemoCatalog(svc.services);
});
afterAll(async () => {
  await svc?.close();
});

interface FamilyItem {
  id: string;
  name: string;
  locked: boolean;
  autoManaged: boolean;
  memberCount: number;
  lowestPrice: string | null;
  country: { id: string | null; name: string } | null;
}

describe('GET /overview', () => {
  it('counts families, goods, links and the vocabulary as the read models hold them', async () => {
    // A manual family with nothing in it, and a locked one: they show in their figures.
    const manual = await svc.request('POST', '/product-families', { name: '概览测试手工系列' });
    expect(manual.status).toBe(201);
    const some = (await svc.request('GET', '/product-families?pageSize=1')).body.items[0];
    expect((await svc.request('PATCH', `/product-families/${some.id}`, { locked: true })).status).toBe(200);

    const r = await svc.request('GET', '/overview');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      families: {
        total: await count('SELECT count(*) AS n FROM families'),
        public: await count('SELECT count(*) AS n FROM families WHERE good_count > 0'),
        unpriced: await count('SELECT count(*) AS n FROM families WHERE lowest_price IS NULL'),
        locked: await count('SELECT count(*) AS n FROM families WHERE locked'),
        manual: await count('SELECT count(*) AS n FROM families WHERE NOT auto_managed'),
        empty: await count('SELECT count(*) AS n FROM families WHERE member_count = 0 AND good_count = 0'),
        withoutGood: await count('SELECT count(*) AS n FROM families WHERE member_count > 0 AND good_count = 0'),
      },
      goods: {
        total: await count('SELECT count(*) AS n FROM goods'),
        custom: await count('SELECT count(*) AS n FROM goods WHERE origin_good_id IS NULL'),
        withoutFamily: await count('SELECT count(*) AS n FROM goods WHERE family_id IS NULL'),
      },
      links: {
        total: await count('SELECT count(*) AS n FROM origin_goods'),
        organised: await count('SELECT count(*) AS n FROM origin_goods WHERE parsed_country IS NOT NULL'),
        notOrganised: await count('SELECT count(*) AS n FROM origin_goods WHERE parsed_country IS NULL'),
        incomplete: await count(`SELECT count(*) AS n FROM origin_goods WHERE parsed_country IS NOT NULL AND tags_missing <> '[]'::jsonb`),
        delisted: await count('SELECT count(*) AS n FROM origin_goods WHERE delisted'),
        withoutGood: await count('SELECT count(*) AS n FROM origin_goods og WHERE NOT delisted AND NOT EXISTS (SELECT 1 FROM goods g WHERE g.origin_good_id = og.id)'),
        withoutFamily: await count('SELECT count(*) AS n FROM origin_goods WHERE NOT delisted AND family_id IS NULL'),
        groupedWithoutGood: await count(
          'SELECT count(*) AS n FROM origin_goods og WHERE NOT delisted AND family_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM goods g WHERE g.origin_good_id = og.id)',
        ),
      },
      vocabulary: {
        categories: await count('SELECT count(*) AS n FROM categories WHERE NOT removed'),
        countries: await count('SELECT count(*) AS n FROM countries WHERE NOT removed'),
        tagGroups: await count('SELECT count(*) AS n FROM tag_groups'),
        tags: await count('SELECT count(*) AS n FROM tags'),
        positions: await count('SELECT count(*) AS n FROM positions'),
      },
    });
    // Not vacuous: the demo catalogue is there, and the two families above are counted.
    expect(r.body.families.public).toBeGreaterThan(5);
    expect(r.body.families.manual).toBeGreaterThanOrEqual(1);
    expect(r.body.families.empty).toBeGreaterThanOrEqual(1);
    expect(r.body.families.locked).toBeGreaterThanOrEqual(1);
    expect(r.body.links.total).toBeGreaterThan(r.body.links.delisted);
    expect((await svc.request('GET', '/overview', undefined, undefined, { anonymous: true })).status).toBe(401);
  });
});

describe('GET /users', () => {
  it('names each user by id, and nothing else of it', async () => {
    const me = (await svc.request('GET', '/auth/me')).body.user;
    const r = await svc.request('GET', '/users');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ items: [{ id: me.id, username: ADMIN.username }] });
    expect((await svc.request('GET', '/users', undefined, undefined, { anonymous: true })).status).toBe(401);
  });
});

describe('GET /product-families', () => {
  const list = async (q: string) => {
    const r = await svc.request('GET', `/product-families?pageSize=1000${q}`);
    expect(r.status).toBe(200);
    return r.body as { items: FamilyItem[]; total: number };
  };

  it('gives each family its country: its representative good’s, else its links’', async () => {
    const all = await list('');
    const expected = await svc.db.pool.query<{ id: string; country: string | null }>(
      `SELECT f.id::text AS id, coalesce(
          (SELECT co.name FROM goods g JOIN countries co ON co.id = g.country_id WHERE g.id = f.representative_good_id),
          (SELECT og.parsed_country FROM origin_goods og WHERE og.family_id = f.id AND og.parsed_country IS NOT NULL LIMIT 1)) AS country
         FROM families f`,
    );
    const byId = new Map(expected.rows.map((r) => [r.id, r.country]));
    for (const f of all.items) expect([f.id, f.country?.name ?? null]).toEqual([f.id, byId.get(f.id) ?? null]);
    expect(all.items.filter((f) => f.country).length).toBeGreaterThan(5);
    // The detail says the same.
    const one = all.items.find((f) => f.country)!;
    expect((await svc.request('GET', `/product-families/${one.id}`)).body.country).toEqual(one.country);
  });

  it('filters by country, lock, manual and price', async () => {
    const all = (await list('')).items;
    const country = all.find((f) => f.country?.id)!.country!;
    const inCountry = await list(`&countryId=${country.id}`);
    expect(inCountry.total).toBe(all.filter((f) => f.country?.id === country.id).length);
    expect(inCountry.total).toBeLessThan(all.length);
    expect(inCountry.items.every((f) => f.country?.id === country.id)).toBe(true);

    const locked = await list('&locked=true');
    expect(locked.items.map((f) => f.id).sort()).toEqual(
      all
        .filter((f) => f.locked)
        .map((f) => f.id)
        .sort(),
    );
    const manual = await list('&manual=true');
    expect(manual.items.map((f) => f.id).sort()).toEqual(
      all
        .filter((f) => !f.autoManaged)
        .map((f) => f.id)
        .sort(),
    );
    expect(manual.total).toBeGreaterThan(0);
    const unpriced = await list('&priced=false');
    expect(unpriced.items.map((f) => f.id).sort()).toEqual(
      all
        .filter((f) => f.lowestPrice === null)
        .map((f) => f.id)
        .sort(),
    );
    expect((await list('&priced=true')).total + unpriced.total).toBe(all.length);
    // Filters add up: manual and unpriced.
    expect((await list('&manual=true&priced=false')).total).toBe(all.filter((f) => !f.autoManaged && f.lowestPrice === null).length);
    expect((await svc.request('GET', '/product-families?countryId=abc')).status).toBe(400);
    expect((await svc.request('GET', '/product-families?sort=CHEAPEST')).status).toBe(400);
  });

  it('orders by name, members, price and last change, and pages in that order', async () => {
    const all = (await list('')).items;
    const ids = (xs: FamilyItem[]) => xs.map((f) => f.id);
    const byNum = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
    const byName = (await list('&sort=NAME')).items;
    expect(ids(byName)).toEqual(ids([...all].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : byNum(a.id, b.id)))));
    const byMembers = (await list('&sort=MEMBERS_DESC')).items;
    expect(byMembers.map((f) => f.memberCount)).toEqual([...all].map((f) => f.memberCount).sort((a, b) => b - a));
    const cheap = (await list('&sort=PRICE_ASC')).items;
    const prices = cheap.filter((f) => f.lowestPrice !== null).map((f) => Number(f.lowestPrice));
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    // Unpriced last.
    expect(cheap.findIndex((f) => f.lowestPrice === null)).toBeGreaterThanOrEqual(prices.length);
    const dear = (await list('&sort=PRICE_DESC')).items.filter((f) => f.lowestPrice !== null).map((f) => Number(f.lowestPrice));
    expect(dear).toEqual([...dear].sort((a, b) => b - a));
    // A page of the ordered list is that slice of it.
    const page2 = await svc.request('GET', '/product-families?sort=MEMBERS_DESC&page=2&pageSize=5');
    expect(ids(page2.body.items)).toEqual(ids(byMembers.slice(5, 10)));
    // The family changed last heads the list by last change.
    const renamed = all[3]!;
    expect((await svc.request('PATCH', `/product-families/${renamed.id}`, { name: `${renamed.name} 改` })).status).toBe(200);
    expect((await list('&sort=UPDATED_DESC')).items[0]!.id).toBe(renamed.id);
  });
});

describe('GET /goods', () => {
  it('gives each good its own price and whether the storefront shows it', async () => {
    const goods = (await svc.request('GET', '/goods?pageSize=1000')).body.items as {
      id: string;
      price: string | null;
      public: boolean;
      familyId: string | null;
      originGoodId: string | null;
    }[];
    const rows = await svc.db.pool.query<{ id: string; price: string | null; family_id: string | null }>(
      `SELECT g.id::text AS id, og.price::text AS price, g.family_id::text AS family_id FROM goods g LEFT JOIN origin_goods og ON og.id = g.origin_good_id`,
    );
    const byId = new Map(rows.rows.map((r) => [r.id, r]));
    for (const g of goods.filter((x) => x.originGoodId)) expect([g.id, g.price, g.public]).toEqual([g.id, byId.get(g.id)!.price, byId.get(g.id)!.family_id !== null]);
    expect(goods.filter((g) => g.public).length).toBeGreaterThan(5);
    // A custom good outside any family: no price, not shown.
    const custom = await svc.request('POST', '/goods', { name: '无系列的自定义商品 CU01' });
    expect((await svc.request('GET', `/goods/${custom.body.id}`)).body).toMatchObject({ price: null, public: false });
  });
});

describe('GET /origin-goods', () => {
  it('lists the links a category, a country or a tag is used by, as many as the usage counts', async () => {
    const total = async (q: string) => (await svc.request('GET', `/origin-goods?pageSize=1${q}`)).body.total as number;
    const category = (
      await svc.db.pool.query<{ id: string }>('SELECT category_id::text AS id FROM origin_goods WHERE category_id IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 1')
    ).rows[0]!.id;
    const country = (await svc.request('GET', '/countries?pageSize=1000')).body.items[0].id as string;
    const tags = (await svc.request('GET', '/tags?pageSize=1000')).body.items as { id: string; groupId: string | null }[];
    const groups = (await svc.request('GET', '/tag-groups?pageSize=100')).body.items as { id: string; dimension: string | null }[];
    const sizeTag = tags.find((t) => groups.find((g) => g.id === t.groupId)?.dimension === 'size')!;
    for (const [kind, id, q] of [
      ['categories', category, `&categoryId=${category}`],
      ['countries', country, `&countryId=${country}`],
      ['tags', sizeTag.id, `&tagId=${sizeTag.id}`],
    ] as const) {
      const usage = (await svc.request('GET', `/${kind}/${id}/usage`)).body;
      expect(usage.counts.links).toBeGreaterThan(0);
      expect(await total(q)).toBe(usage.counts.links);
    }
  });

  it('lists the incomplete links and those without a good, as the overview counts them', async () => {
    const total = async (q: string) => (await svc.request('GET', `/origin-goods?pageSize=1${q}`)).body.total as number;
    const o = (await svc.request('GET', '/overview')).body;
    expect(await total('&incomplete=true')).toBe(o.links.incomplete);
    expect(o.links.incomplete).toBeGreaterThan(0);
    expect(await total('&hasGood=false&delisted=false')).toBe(o.links.withoutGood);
    expect((await total('&hasGood=true')) + (await total('&hasGood=false'))).toBe(o.links.total);
  });

  it('lists the links in no family and those in one without a good, as the overview counts them, each with its family by name', async () => {
    const total = async (q: string) => (await svc.request('GET', `/origin-goods?pageSize=1${q}`)).body.total as number;
    // A family with links but no good, and a link of it: the figures below count them.
    const link = (
      await svc.db.pool.query<{ id: string; family_id: string }>(`SELECT id, family_id FROM origin_goods WHERE family_id IS NOT NULL AND NOT delisted ORDER BY id LIMIT 1`)
    ).rows[0]!;
    const goods = (await svc.db.pool.query<{ id: string }>(`SELECT id FROM goods WHERE family_id = $1`, [link.family_id])).rows;
    for (const g of goods) expect((await svc.request('DELETE', `/goods/${g.id}`)).status).toBe(204);
    const o = (await svc.request('GET', '/overview')).body;
    expect(o.families.withoutGood).toBeGreaterThan(0);
    expect(o.links.withoutFamily).toBeGreaterThan(0);
    expect(o.links.groupedWithoutGood).toBeGreaterThan(0);
    expect(await total('&hasFamily=false&delisted=false')).toBe(o.links.withoutFamily);
    expect(await total('&hasFamily=true&hasGood=false&delisted=false')).toBe(o.links.groupedWithoutGood);
    expect((await total('&hasFamily=true')) + (await total('&hasFamily=false'))).toBe(o.links.total);
    const listed = (await svc.request('GET', `/origin-goods?hasFamily=true&hasGood=false&pageSize=1000`)).body.items as {
      id: string;
      family: { id: string; name: string } | null;
    }[];
    const name = (await svc.db.pool.query<{ name: string }>(`SELECT name FROM families WHERE id = $1`, [link.family_id])).rows[0]!.name;
    expect(listed.find((l) => l.id === link.id)?.family).toEqual({ id: link.family_id, name, memberCount: expect.any(Number) });
    const bad = await svc.request('GET', '/origin-goods?hasFamily=maybe');
    expect([bad.status, bad.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
  });
});

describe('the organisation report', () => {
  it('says of each unparseable link which part of its name could not be read', async () => {
    const [run] = (await svc.request('GET', '/product-families/organize/runs')).body.items;
    const { report } = (await svc.request('GET', `/product-families/organize/runs/${run.runId}`)).body;
    expect(report.unparseable.length).toBeGreaterThan(3);
    for (const u of report.unparseable) {
      expect(u.problem).toEqual(linkNameProblem(u.name));
      expect(['country', 'logistics', 'productName', 'sku']).toContain(u.problem.part);
    }
    // The link's own page says the same; a parsed link has no problem.
    const first = report.unparseable[0];
    expect((await svc.request('GET', `/origin-goods/${first.id}`)).body.nameProblem).toEqual(first.problem);
    const parsed = (await svc.request('GET', '/origin-goods?organised=true&pageSize=1')).body.items[0];
    expect(parsed.nameProblem).toBeNull();
  });
});

describe('GET /goods/tree', () => {
  it('carries memberCount on each family node, next to its configuration count', async () => {
    // A link without a good joins a public family: a member more, no configuration more.
    const loose = (await svc.request('GET', '/origin-goods?organised=false&pageSize=100')).body.items.find((l: { good: unknown; delisted: boolean }) => !l.good && !l.delisted);
    const family = (await svc.request('GET', '/product-families?pageSize=1&sort=MEMBERS_DESC')).body.items[0];
    expect((await svc.request('POST', `/product-families/${family.id}/members`, { originGoodId: loose.id })).status).toBe(201);
    const tree = (await svc.request('GET', '/goods/tree')).body.items as {
      categories: { items: { kind: string; id: string; memberCount?: number; configurationCount?: number }[] }[];
    }[];
    const nodes = tree.flatMap((c) => c.categories.flatMap((g) => g.items.filter((n) => n.kind === 'family')));
    expect(nodes.length).toBeGreaterThan(5);
    const members = new Map(
      (await svc.db.pool.query<{ id: string; member_count: number }>('SELECT id::text AS id, member_count FROM families')).rows.map((r) => [r.id, r.member_count]),
    );
    for (const n of nodes) expect({ id: n.id, memberCount: n.memberCount }).toEqual({ id: n.id, memberCount: members.get(n.id) });
    const grown = nodes.filter((n) => n.id === family.id);
    expect(grown.length).toBeGreaterThan(0);
    expect(grown.reduce((k, n) => k + n.configurationCount!, 0)).toBe(members.get(family.id)! - 1);
  });
});
