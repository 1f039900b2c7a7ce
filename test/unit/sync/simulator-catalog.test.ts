import { AppError } from '../../../src/platform/errors';
import { applySupplierChange, generateCatalog, linkName } from '../../../src/sync/simulator';
import { categorySchema, countrySchema, detailSchema, linkSchema, type Link } from '../../../src/sync/supplier/schemas';

/** docs/domain.md, section Category names: the supplier category names of its table. */
const DOMAIN_CATEGORY_NAMES = ['短袖T恤(G5000)', '卫衣（加绒款）', 'G5000 短袖T恤 (美版)', 'T恤（男款) 修身', '(美版)'];
/** docs/domain.md, section Link names: the link names of its grammar table. */
const DOMAIN_LINK_NAMES = [
  '美国（包邮）纯棉短袖T恤 G5000 直喷双面',
  '美国(不包邮）纯棉短袖T恤 G5000 烫画',
  '英国（包邮）连帽卫衣 G18500 光板',
  '美国（海运）帆布袋 TB01 热转印单面',
  '纯棉短袖T恤 G5000',
];
const SKU = /^[A-Za-z]{0,4}\d{2,}[A-Za-z0-9-]*$/;

/**
 * docs/domain.md's link grammar, written independently of the generator so the test checks the names
 * against the rule, not against the generator's own idea of it.
 */
function parseLinkName(name: string) {
  const folded = name.replace(/\s+/g, ' ').trim();
  const close = folded.search(/[)）]/);
  if (close < 0) return null;
  const first = /^(.+)（(.+)）$/.exec(
    folded
      .slice(0, close + 1)
      .replace(/\(/g, '（')
      .replace(/\)/g, '）'),
  );
  if (!first) return null;
  const [productName, sku, ...descriptors] = folded.slice(close + 1).split(' ');
  if (!productName || !sku || !SKU.test(sku)) return null;
  return { country: first[1]!, logistics: first[2]!, productName, sku: sku.toUpperCase(), descriptor: descriptors.join(' ') };
}

describe('simulator catalog generation', () => {
  const catalog = generateCatalog({ links: 20_000, seed: 1 });
  const links = catalog.links();
  const categories = catalog.categories();
  const byId = new Map(categories.map((c) => [c.id, c]));
  const parsed = links.map((l) => ({ link: l, parts: parseLinkName(l.name) }));

  it('is deterministic for a seed and differs between seeds', () => {
    const again = generateCatalog({ links: 20_000, seed: 1 });
    expect(again.links()).toEqual(links);
    expect(again.categories()).toEqual(categories);
    expect(again.countries()).toEqual(catalog.countries());
    for (const id of ['100001', '100777', '119999']) expect(again.detail(id)).toEqual(catalog.detail(id));

    const other = generateCatalog({ links: 20_000, seed: 2 });
    expect(other.links().map((l) => l.name)).not.toEqual(links.map((l) => l.name));
    expect(other.categories().map((c) => c.id)).not.toEqual(categories.map((c) => c.id));
  });

  it('has exactly the requested number of links, numbered from 100001', () => {
    for (const n of [0, 3, 5, 6, 1000]) {
      const ids = generateCatalog({ links: n, seed: 9 })
        .links()
        .map((l) => l.id);
      expect(ids).toEqual(Array.from({ length: n }, (_, i) => String(100001 + i)));
    }
    expect(links).toHaveLength(20_000);
  });

  it('generates 200 000 links', () => {
    const big = generateCatalog({ links: 200_000, seed: 3 });
    const all = big.links();
    expect(all).toHaveLength(200_000);
    expect(all[all.length - 1]!.id).toBe('300000');
    expect(big.detail('300000')?.variants.length).toBeGreaterThan(0);
  });

  it('rejects a link count it cannot mean', () => {
    expect(() => generateCatalog({ links: -1, seed: 1 })).toThrow(RangeError);
    expect(() => generateCatalog({ links: 1.5, seed: 1 })).toThrow(RangeError);
  });

  it('contains every row of docs/domain.md verbatim, and the example link of docs/supplier.md as 100001', () => {
    const names = categories.map((c) => c.name);
    for (const name of DOMAIN_CATEGORY_NAMES) expect(names).toContain(name);
    expect(links.slice(0, 5).map((l) => l.name)).toEqual(DOMAIN_LINK_NAMES);
    expect(links[0]).toEqual({
      id: '100001',
      name: '美国（包邮）纯棉短袖T恤 G5000 直喷双面',
      categoryId: '301',
      craftLabel: '直喷',
      price: '39.90',
      image: expect.stringMatching(/^http:\/\/localhost:4010\/demo-pictures\/goods\/f1\/tee-[A-Z]{3}\.svg$/),
      status: 'ON_SALE',
      updatedAt: '2026-11-01T08:00:00Z',
    });
  });

  it('serves only values the contract allows', () => {
    for (const c of categories) expect(categorySchema.safeParse(c).success).toBe(true);
    for (const c of catalog.countries()) expect(countrySchema.safeParse(c).success).toBe(true);
    for (const l of links) expect(linkSchema.safeParse(l).success).toBe(true);
    for (const l of links.slice(0, 300)) expect(detailSchema.safeParse(catalog.detail(l.id)).success).toBe(true);
  });

  it('has countries with ids 1..N and the expected codes', () => {
    const countries = catalog.countries();
    expect(countries.map((c) => c.id)).toEqual(countries.map((_, i) => String(i + 1)));
    expect(countries.slice(0, 7).map((c) => `${c.name} ${c.code}`)).toEqual(['美国 US', '英国 GB', '德国 DE', '法国 FR', '加拿大 CA', '澳大利亚 AU', '日本 JP']);
  });

  it('has a three-level category tree in shuffled order, with icons present, empty and absent', () => {
    const depth = (id: string): number => {
      const parentId = byId.get(id)!.parentId;
      return parentId === null ? 1 : 1 + depth(parentId);
    };
    expect(new Set(categories.map((c) => depth(c.id)))).toEqual(new Set([1, 2, 3]));
    const inSortOrder = [...categories].sort((a, b) => Number(a.id) - Number(b.id));
    expect(categories).not.toEqual(inSortOrder);
    expect(categories.every((c) => Number.isInteger(c.sort))).toBe(true);
    expect(categories.some((c) => c.icon?.startsWith('http://localhost:4010/demo-pictures/icons/'))).toBe(true);
    expect(categories.some((c) => c.icon === '')).toBe(true);
    expect(categories.some((c) => !('icon' in c))).toBe(true);
    // Links hang only on style-level (third-level) categories.
    expect(new Set(links.map((l) => depth(l.categoryId)))).toEqual(new Set([3]));
  });

  it('uses every variant of the link grammar', () => {
    const names = links.map((l) => l.name);
    expect(names.some((n) => /^[^()（）]+（[^()（）]+）/.test(n))).toBe(true); // full-width
    expect(names.some((n) => /^[^()（）]+\([^()（）]+\)/.test(n))).toBe(true); // half-width
    expect(names.some((n) => /^[^()（）]+\([^()（）]+）/.test(n))).toBe(true); // mixed (…）
    expect(names.some((n) => /^[^()（）]+（[^()（）]+\)/.test(n))).toBe(true); // mixed （…)

    const ok = parsed.flatMap((p) => (p.parts ? [p.parts] : []));
    expect(new Set(ok.map((p) => p.logistics))).toEqual(new Set(['包邮', '不包邮', '海运']));
    expect(new Set(ok.map((p) => p.descriptor))).toEqual(new Set(['直喷双面', '直喷单面', '直喷', '烫画', '烫画双面', '光板', '热转印单面', '热转印', '单面', '双面', '']));
    for (const sku of ['G5000', 'G18500', 'TB01', 'DT6000-2', '18500']) expect(ok.some((p) => p.sku === sku)).toBe(true);
    expect(names.some((n) => /\s[a-z]+\d{2,}/.test(n))).toBe(true); // a lower-case style code
    expect(names.some((n) => /\S {2}\S/.test(n))).toBe(true); // doubled white space

    const unparseable = parsed.filter((p) => !p.parts).length / links.length;
    expect(unparseable).toBeGreaterThan(0.02);
    expect(unparseable).toBeLessThan(0.04);
    const offSale = links.filter((l) => l.status === 'OFF_SALE').length / links.length;
    expect(offSale).toBeGreaterThan(0.01);
    expect(offSale).toBeLessThan(0.03);
  });

  it('groups several links into product families that differ in logistics or print', () => {
    const families = new Map<string, string[]>();
    for (const { parts } of parsed) {
      if (!parts) continue;
      const key = `${parts.country}|${parts.productName}|${parts.sku}`;
      families.set(key, [...(families.get(key) ?? []), `${parts.logistics} ${parts.descriptor}`]);
    }
    const sizes = [...families.values()].map((offers) => offers.length);
    expect(sizes.filter((n) => n >= 2).length).toBeGreaterThan(sizes.length / 2);
    expect(families.get('美国|纯棉短袖T恤|G5000')!.length).toBeGreaterThanOrEqual(3);
    // Offers of one family are interleaved with other families' in id order, not adjacent.
    const firstFamily = parsed.filter((p) => p.parts && `${p.parts.country}|${p.parts.productName}|${p.parts.sku}` === '美国|纯棉短袖T恤|G5000');
    expect(Number(firstFamily[firstFamily.length - 1]!.link.id) - Number(firstFamily[0]!.link.id)).toBeGreaterThan(10);
  });

  it('generates details with size/colour variants, size charts, packaging, options and shared media', () => {
    const sample = links.slice(0, 2000);
    const details = sample.map((l) => catalog.detail(l.id)!);
    expect(details.every((d) => d.variants.length > 0 && d.sizeChart.length > 0 && d.packagingSpecs.length > 0)).toBe(true);
    const colours = new Set(details.flatMap((d) => d.variants.map((v) => v.color)));
    for (const c of ['黑色', '白色', '灰色', '藏青', '红色']) expect(colours.has(c)).toBe(true);
    expect(new Set(details.flatMap((d) => d.variants.map((v) => v.size)))).toEqual(new Set(['XS', 'S', 'M', 'L', 'XL', '2XL', '3XL', '均码', '40x40cm', '45x45cm', '50x50cm']));
    const differing = sample.filter((l, i) => details[i]!.variants.some((v) => v.price !== l.price));
    expect(differing.length).toBeGreaterThan(0);
    expect(differing.length).toBeLessThan(sample.length);
    expect(details.some((d) => d.options.length > 0)).toBe(true);
    expect(details.some((d) => d.options.length === 0)).toBe(true);
    expect(details.some((d) => d.packagingSpecs.length > 1)).toBe(true);

    // The same photo URL appears in the details of several links (of one product).
    const linksPerUrl = new Map<string, Set<string>>();
    details.forEach((d) => d.media.forEach((m) => linksPerUrl.set(m.url, (linksPerUrl.get(m.url) ?? new Set()).add(d.id))));
    expect([...linksPerUrl.values()].some((ids) => ids.size > 1)).toBe(true);
  });

  it('gives the variants of a link the style code of its product', () => {
    const detail = catalog.detail('100001')!;
    expect(detail.variants.every((v) => /^G5000-[A-Z]{3}-/.test(v.sku))).toBe(true);
    expect(detail.sizeChart[0]).toEqual({ size: expect.any(String), chest: expect.any(String), length: expect.any(String), sleeve: expect.any(String) });
  });
});

describe('simulator catalog mutations', () => {
  it('removes, relists and takes a link off sale', () => {
    const catalog = generateCatalog({ links: 50, seed: 4 });
    catalog.removeLink('100010');
    expect(catalog.link('100010')).toBeUndefined();
    expect(catalog.links().map((l) => l.id)).not.toContain('100010');
    expect(catalog.detail('100010')).toBeNull();

    catalog.offSale(['100011']);
    expect(catalog.link('100011')!.status).toBe('OFF_SALE');

    expect(catalog.relistLink('100010').status).toBe('ON_SALE');
    expect(catalog.relistLink('100011').status).toBe('ON_SALE');
    expect(catalog.links()).toHaveLength(50);
    expect(catalog.detail('100010')).not.toBeNull();
  });

  it('changes a link as a new object with a newer updatedAt', () => {
    const catalog = generateCatalog({ links: 50, seed: 4 });
    const before: Link = catalog.link('100001')!;
    const after = catalog.changeLink('100001', { price: '45.00' });
    expect(before.price).toBe('39.90');
    expect(after.price).toBe('45.00');
    expect(Date.parse(after.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
    expect(catalog.detail('100001')!.variants.some((v) => v.price === '45.00')).toBe(true);
  });

  it('adds a link after the last id, optionally as another offer of an existing product', () => {
    const catalog = generateCatalog({ links: 50, seed: 4 });
    const added = catalog.addLink({ name: '美国（海运）纯棉短袖T恤 G5000 光板', categoryId: '301', price: '19.90', sameProductAs: '100001' });
    expect(added.id).toBe('100051');
    expect(
      catalog
        .links()
        .map((l) => l.id)
        .at(-1),
    ).toBe('100051');
    const sharedUrls = new Set(catalog.detail('100001')!.media.map((m) => m.url));
    expect(catalog.detail('100051')!.media.some((m) => sharedUrls.has(m.url))).toBe(true);

    const fresh = catalog.addLink({ name: '德国（包邮）帆布袋 TB09 直喷', categoryId: '312', price: '22.00' });
    expect(fresh.id).toBe('100052');
    expect(catalog.detail('100052')!.variants.every((v) => v.sku.startsWith('TB09-'))).toBe(true);
  });

  it('removes, restores and changes a category', () => {
    const catalog = generateCatalog({ links: 10, seed: 4 });
    catalog.removeCategory('301');
    expect(catalog.categories().map((c) => c.id)).not.toContain('301');
    catalog.restoreCategory('301');
    expect(catalog.changeCategory('301', { name: '短袖T恤（新款）', sort: 9 })).toMatchObject({ id: '301', name: '短袖T恤（新款）', sort: 9 });
    expect(catalog.categories().find((c) => c.id === '301')!.name).toBe('短袖T恤（新款）');
  });

  it('answers an unknown or removed id with an AppError', () => {
    const catalog = generateCatalog({ links: 10, seed: 4 });
    expect(() => catalog.removeLink('999999')).toThrow(AppError);
    catalog.removeLink('100002');
    expect(() => catalog.changeLink('100002', { price: '1.00' })).toThrow(expect.objectContaining({ code: 'SIMULATOR.UNKNOWN_LINK' }));
    expect(() => catalog.changeCategory('999', { name: 'x' })).toThrow(expect.objectContaining({ code: 'SIMULATOR.UNKNOWN_CATEGORY' }));
  });

  it('pages by keyset: removed links leave a short page, never a skipped one', () => {
    const catalog = generateCatalog({ links: 30, seed: 4 });
    catalog.removeLink('100003');
    const first = catalog.linksAfter(null, 10);
    expect(first.items.map((l) => l.id)).toEqual(['100001', '100002', '100004', '100005', '100006', '100007', '100008', '100009', '100010']);
    expect(first).toMatchObject({ lastId: '100010', more: true });
    catalog.removeLink('100011');
    const second = catalog.linksAfter(first.lastId, 10);
    expect(second.items[0]!.id).toBe('100012');
    const third = catalog.linksAfter(second.lastId, 10);
    expect(third).toMatchObject({ lastId: '100030', more: false });
    expect(third.items).toHaveLength(10);
  });
});

describe('supplier changes as data (src/sync/simulator/mutations.ts)', () => {
  const fresh = () => generateCatalog({ links: 60, seed: 5 });

  it('names a link by the grammar, and a new link of a known product shares its detail', () => {
    const c = fresh();
    const name = linkName({ country: '美国', logistics: '包邮', productName: '纯棉短袖T恤', sku: 'G5000', descriptor: '直喷双面' });
    expect(name).toBe(DOMAIN_LINK_NAMES[0]);
    const [id] = applySupplierChange(c, { kind: 'newLink', name, categoryId: '301', price: '30.00', sameProductAs: '100001' });
    expect(c.link(id!)).toMatchObject({ name, price: '30.00', status: 'ON_SALE' });
    // Another offer of product G5000: its variants carry the product's style code.
    const styleOf = (linkId: string) => new Set(c.detail(linkId)!.variants.map((v) => v.sku.split('-')[0]));
    expect(styleOf(id!)).toEqual(new Set(['G5000']));
    expect(styleOf('100001')).toEqual(new Set(['G5000']));
  });

  it("changes a variant's price or drops a colour in the detail; the listing stays as it was", () => {
    const c = fresh();
    const before = c.detail('100002')!;
    const listing = c.link('100002');
    const v = before.variants[0]!;
    applySupplierChange(c, { kind: 'detail', linkId: '100002', change: { kind: 'variantPrice', size: v.size, color: v.color, price: '99.90' } });
    expect(
      c
        .detail('100002')!
        .variants.filter((x) => x.size === v.size && x.color === v.color)
        .map((x) => x.price),
    ).toEqual(['99.90']);
    expect(c.detail('100002')!.variants.filter((x) => x.price !== '99.90')).toEqual(before.variants.filter((x) => !(x.size === v.size && x.color === v.color)));
    applySupplierChange(c, { kind: 'detail', linkId: '100002', change: { kind: 'dropColor', color: v.color } });
    const after = c.detail('100002')!;
    expect(after.variants.some((x) => x.color === v.color)).toBe(false);
    expect(after.media.some((m) => m.color === v.color)).toBe(false);
    expect(c.link('100002')).toBe(listing);
  });

  it('renames, reprices, delists and relists; an empty listing comes back as it was, off sale included', () => {
    const c = fresh();
    applySupplierChange(c, { kind: 'rename', linkId: '100003', name: '英国（不包邮）连帽卫衣 G18500 烫画' });
    applySupplierChange(c, { kind: 'price', linkId: '100003', price: '12.34' });
    expect(c.link('100003')).toMatchObject({ name: '英国（不包邮）连帽卫衣 G18500 烫画', price: '12.34' });
    applySupplierChange(c, { kind: 'delist', linkId: '100004', how: 'offSale' });
    applySupplierChange(c, { kind: 'delist', linkId: '100005', how: 'removed' });
    expect(c.link('100004')!.status).toBe('OFF_SALE');
    expect(c.link('100005')).toBeUndefined();
    const listed = c.links().map((l) => ({ ...l }));
    const removed = applySupplierChange(c, { kind: 'emptyListing' });
    expect(c.links()).toEqual([]);
    applySupplierChange(c, { kind: 'restoreListing', linkIds: removed });
    expect(c.links()).toEqual(listed);
    applySupplierChange(c, { kind: 'relist', linkId: '100005' });
    applySupplierChange(c, { kind: 'relist', linkId: '100004' });
    expect(c.link('100005')!.status).toBe('ON_SALE');
    expect(c.link('100004')!.status).toBe('ON_SALE');
  });
});
