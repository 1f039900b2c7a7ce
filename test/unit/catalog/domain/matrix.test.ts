import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { LinkDetail } from '../../../../src/catalog/links/events';
import { isInt64 } from '../../../../src/platform/ids';
import { stableJson } from '../../../../src/platform/content-hash';
import {
  compareIds,
  computeFamilyMatrix,
  contributingLinks,
  mediaByColor,
  mediaId,
  toPublicPriceMatrix,
  unionOptions,
  unionPackagingSpecs,
  unionSizeChart,
  unionVariants,
  validateOverrideKey,
  type CellKey,
  type FamilyMatrix,
  type MatrixCustomMember,
  type MatrixLink,
  type Override,
} from '../../../../src/catalog/domain/matrix';
import type { DimensionValuesInput } from '../../../../src/catalog/domain/tags';

type Variant = [size: string, color: string, price: string];
const detail = (variants: Variant[], extra: Partial<LinkDetail> = {}): LinkDetail => ({
  variants: variants.map(([size, color, price]) => ({ sku: `SKU-${size}-${color}`, size, color, price, stock: 10 })),
  sizeChart: [],
  packagingSpecs: [],
  options: [],
  media: [],
  ...extra,
});

/** A tee in M/黑色, direct print single-sided, free shipping, unless told otherwise. */
const TEE: DimensionValuesInput = { size: ['M'], color: ['黑色'], printCount: ['单面印花'], craft: ['直喷'], logistics: ['包邮'] };
const link = (id: string, over: Partial<MatrixLink> = {}): MatrixLink => ({
  id,
  organised: true,
  delisted: false,
  tags: TEE,
  listPrice: '39.90',
  detail: null,
  ...over,
});
const custom = (goodId: string, tags: DimensionValuesInput, price: string): MatrixCustomMember => ({ goodId, tags, price });
const key = (size: string, color: string, printCount: string, craft: string, logistics: string): CellKey => ({
  size,
  color,
  printCount,
  craft,
  logistics,
});
const override = (k: CellKey, price: string): Override => ({ ...k, price });
const matrix = (links: MatrixLink[], more: { customMembers?: MatrixCustomMember[]; overrides?: Override[]; tagSortOrder?: Map<string, number> } = {}) =>
  computeFamilyMatrix({ links, customMembers: more.customMembers ?? [], overrides: more.overrides ?? [], tagSortOrder: more.tagSortOrder });
const cellsOf = (m: FamilyMatrix) => m.cells.map((c) => [c.size, c.color, c.printCount, c.craft, c.logistics, c.price].join(' '));

describe('link ids are ordered as 64-bit integers', () => {
  it.each([
    ['9', '10', -1],
    ['10', '9', 1],
    ['100001', '100001', 0],
    ['9223372036854775807', '9223372036854775806', 1],
    ['99999999999999999', '100000000000000000', -1],
  ])('given %s and %s, then they compare %i', (a, b, expected) => {
    expect(compareIds(a, b)).toBe(expected);
  });

  it('given members in any order, then contributing links are the organised, listed ones by id ascending', () => {
    const links = [link('10'), link('9', { delisted: true }), link('100'), link('8', { organised: false }), link('9223372036854775807'), link('11')];
    expect(contributingLinks(links).map((l) => l.id)).toEqual(['10', '11', '100', '9223372036854775807']);
  });
});

describe('the family price matrix (docs/domain.md, Price matrix)', () => {
  it('given one organised link with a detail, then each size × colour is a cell priced from its variant, else from the list price', () => {
    const m = matrix([
      link('100001', {
        tags: { size: ['M', 'L'], color: ['黑色', '白色'], printCount: ['双面印花'], craft: ['直喷'], logistics: ['包邮'] },
        listPrice: '45',
        detail: detail([
          ['M', '黑色', '39.9'],
          ['L', '黑色', '42.5'],
          ['M', '白色', '39.90'],
        ]),
      }),
    ]);
    expect(cellsOf(m)).toEqual([
      'M 黑色 双面印花 直喷 包邮 39.90',
      'M 白色 双面印花 直喷 包邮 39.90',
      'L 黑色 双面印花 直喷 包邮 42.50',
      'L 白色 双面印花 直喷 包邮 45.00', // no such variant: the link's list price
    ]);
    expect(m.cells.every((c) => !c.overridden && c.price === c.basePrice && stableJson(c.source) === '{"linkId":"100001"}')).toBe(true);
    expect(m.lowestPrice).toBe('39.90');
    expect(m.conflicts).toEqual([]);
  });

  it('given the printCount, craft and logistics tags of a link, then every combination is crossed with every size and colour', () => {
    const m = matrix([
      link('1', {
        tags: { size: ['M', 'L'], color: ['黑色'], printCount: ['单面印花', '双面印花'], craft: ['直喷', '烫画'], logistics: ['包邮', '不包邮'] },
      }),
    ]);
    expect(m.cells).toHaveLength(2 * 1 * 2 * 2 * 2);
    expect([m.sizes, m.colors, m.printCounts, m.crafts, m.logistics]).toEqual([['M', 'L'], ['黑色'], ['单面印花', '双面印花'], ['烫画', '直喷'], ['不包邮', '包邮']]);
  });

  it.each([
    { given: 'a link not yet organised', over: { organised: false } },
    { given: 'a delisted link', over: { delisted: true } },
    { given: 'a link without size tags', over: { tags: { ...TEE, size: [] } } },
    { given: 'a link without colour tags', over: { tags: { ...TEE, color: [] } } },
    { given: 'an incomplete link without a craft', over: { tags: { ...TEE, craft: [] } } },
    { given: 'an incomplete link without a logistics', over: { tags: { ...TEE, logistics: [] } } },
    { given: 'a link whose tags miss a dimension entirely', over: { tags: { size: ['M'], color: ['黑色'], craft: ['直喷'] } } },
    { given: 'a link with craft 直喷 and no printCount (only hand-edited tags get here)', over: { tags: { ...TEE, printCount: [] } } },
  ])('given $given, then it contributes no cell and the lowest price is null', ({ over }) => {
    const m = matrix([link('1', over)]);
    expect(m.cells).toEqual([]);
    expect([m.sizes, m.colors, m.printCounts, m.crafts, m.logistics]).toEqual([[], [], [], [], []]);
    expect(m.lowestPrice).toBeNull();
  });

  it('rule 6: given a link whose craft is 不打印 without a printCount, then its cells use 单面印花 as placeholder', () => {
    const m = matrix([link('1', { tags: { size: ['M'], color: ['黑色'], craft: ['不打印'], logistics: ['包邮'] }, listPrice: '29.9' })]);
    expect(cellsOf(m)).toEqual(['M 黑色 单面印花 不打印 包邮 29.90']);
    expect(m.printCounts).toEqual(['单面印花']);
  });

  it('rule 6: given a 不打印 link with an explicit printCount, then the explicit one is used', () => {
    const m = matrix([link('1', { tags: { ...TEE, printCount: ['双面印花'], craft: ['不打印'] } })]);
    expect(cellsOf(m)).toEqual(['M 黑色 双面印花 不打印 包邮 39.90']);
  });

  it("given links '10' and '9' producing the same cell, then '9' wins (numeric, not string order) and '10' is a conflict", () => {
    const m = matrix([link('10', { listPrice: '30.00' }), link('9', { listPrice: '50.00' })]);
    const k = key('M', '黑色', '单面印花', '直喷', '包邮');
    expect(m.cells).toEqual([{ ...k, price: '50.00', basePrice: '50.00', overridden: false, source: { linkId: '9' } }]);
    expect(m.conflicts).toEqual([{ linkId: '10', key: k, keptFrom: { linkId: '9' } }]);
    expect(m.lowestPrice).toBe('50.00'); // the losing link's cheaper price is not in the matrix
  });

  it('given overlapping links, then only the overlapping cells conflict and the rest are added', () => {
    const m = matrix([link('2', { tags: { ...TEE, size: ['M', 'L'] }, listPrice: '41' }), link('1', { tags: { ...TEE, size: ['S', 'M'] }, listPrice: '40' })]);
    expect(cellsOf(m)).toEqual(['S 黑色 单面印花 直喷 包邮 40.00', 'M 黑色 单面印花 直喷 包邮 40.00', 'L 黑色 单面印花 直喷 包邮 41.00']);
    expect(m.conflicts.map((c) => [c.key.size, 'linkId' in c ? c.linkId : c.goodId])).toEqual([['M', '2']]);
  });

  it('given a link listing the same tag twice, then it does not conflict with itself', () => {
    const m = matrix([link('1', { tags: { ...TEE, size: ['M', 'M'], logistics: ['包邮', '包邮'] } })]);
    expect(m.cells).toHaveLength(1);
    expect(m.conflicts).toEqual([]);
  });

  it('given custom members, then they add the cross product of their explicit tags at their own price, after the links', () => {
    const m = matrix([link('5', { listPrice: '39.90' })], {
      customMembers: [
        custom('300', { size: ['M', 'L'], color: ['黑色'], printCount: ['单面印花'], craft: ['直喷'], logistics: ['包邮'] }, '35'),
        custom('200', { size: ['L'], color: ['黑色'], printCount: ['单面印花'], craft: ['直喷'], logistics: ['包邮'] }, '36.5'),
      ],
    });
    expect(cellsOf(m)).toEqual(['M 黑色 单面印花 直喷 包邮 39.90', 'L 黑色 单面印花 直喷 包邮 36.50']);
    expect(m.cells.map((c) => c.source)).toEqual([{ linkId: '5' }, { goodId: '200' }]);
    expect(m.conflicts).toEqual([
      { goodId: '300', key: key('M', '黑色', '单面印花', '直喷', '包邮'), keptFrom: { linkId: '5' } },
      { goodId: '300', key: key('L', '黑色', '单面印花', '直喷', '包邮'), keptFrom: { goodId: '200' } },
    ]);
  });

  it('rule 6 for custom members: given 不打印 without a printCount, then the placeholder is used too', () => {
    const m = matrix([], { customMembers: [custom('7', { size: ['均码'], color: ['米白'], craft: ['不打印'], logistics: ['不包邮'] }, '12')] });
    expect(cellsOf(m)).toEqual(['均码 米白 单面印花 不打印 不包邮 12.00']);
  });

  describe('overrides', () => {
    const family = [link('1', { tags: { size: ['M', 'L'], color: ['黑色'], printCount: ['单面印花'], craft: ['直喷'], logistics: ['包邮', '不包邮'] }, listPrice: '39.90' })];
    const M_FREE = key('M', '黑色', '单面印花', '直喷', '包邮');

    it('given an override of an existing cell, then it replaces the price and keeps the base price', () => {
      const m = matrix(family, { overrides: [override(M_FREE, '35.5')] });
      expect(m.cells.find((c) => c.size === 'M' && c.logistics === '包邮')).toEqual({
        ...M_FREE,
        price: '35.50',
        basePrice: '39.90',
        overridden: true,
        source: { linkId: '1' },
      });
      expect(m.cells.filter((c) => c.overridden)).toHaveLength(1);
      expect(m.lowestPrice).toBe('35.50');
      expect(m.invalidOverrides).toEqual([]);
    });

    it('given an override that raises the only cheapest cell, then the lowest price is the next one', () => {
      const m = matrix([link('1', { tags: { ...TEE, size: ['M', 'L'] }, detail: detail([['M', '黑色', '30']]), listPrice: '40' })], {
        overrides: [override(M_FREE, '45')],
      });
      expect(m.lowestPrice).toBe('40.00');
    });

    it.each([
      { given: 'a size not in the matrix', o: override(key('XXL', '黑色', '单面印花', '直喷', '包邮'), '1') },
      { given: 'a colour not in the matrix', o: override(key('M', '红色', '单面印花', '直喷', '包邮'), '1') },
      { given: 'a printCount not in the matrix', o: override(key('M', '黑色', '双面印花', '直喷', '包邮'), '1') },
      { given: 'a craft not in the matrix', o: override(key('M', '黑色', '单面印花', '热转印', '包邮'), '1') },
      { given: 'a logistics not in the matrix', o: override(key('M', '黑色', '单面印花', '直喷', '海运'), '1') },
    ])('given an override with $given, then it changes nothing and is listed as invalid', ({ o }) => {
      const m = matrix(family, { overrides: [o] });
      expect(m.cells.some((c) => c.overridden)).toBe(false);
      expect(m.invalidOverrides).toEqual([o]);
      expect(m.lowestPrice).toBe('39.90');
    });

    it('given an override whose five values exist but whose cell does not, then it is invalid', () => {
      const m = matrix([link('1', { tags: { ...TEE, size: ['M'], logistics: ['包邮'] } }), link('2', { tags: { ...TEE, size: ['L'], logistics: ['不包邮'] } })], {
        overrides: [override(key('M', '黑色', '单面印花', '直喷', '不包邮'), '1')],
      });
      expect(m.sizes).toEqual(['M', 'L']);
      expect(m.logistics).toEqual(['不包邮', '包邮']);
      expect(m.invalidOverrides).toHaveLength(1);
      expect(m.lowestPrice).toBe('39.90');
    });

    it('given two overrides of one cell, then the last one counts', () => {
      const m = matrix(family, { overrides: [override(M_FREE, '30'), override(M_FREE, '31')] });
      expect(m.cells.find((c) => c.overridden)?.price).toBe('31.00');
      expect(m.invalidOverrides).toEqual([]);
    });
  });

  it.each([
    { given: "'39.9' and '39.10' (as text '39.10' < '39.9', by value it is the lowest too)", prices: ['39.9', '39.10'], lowest: '39.10' },
    { given: "'9.99' and '10' (as text '10' < '9.99')", prices: ['9.99', '10'], lowest: '9.99' },
    { given: "'0.30' and '0.3000' (equal amounts)", prices: ['0.30', '0.3000'], lowest: '0.30' },
    { given: "'100' and '99.9999'", prices: ['100', '99.9999'], lowest: '99.9999' },
  ])('given cells priced $given, then the lowest price is $lowest', ({ prices, lowest }) => {
    const sizes = prices.map((_, i) => `S${i}`);
    const m = matrix([
      link('1', {
        tags: { ...TEE, size: sizes },
        detail: detail(prices.map((p, i): Variant => [`S${i}`, '黑色', p])),
      }),
    ]);
    expect(m.lowestPrice).toBe(lowest);
  });

  describe('axis and cell order', () => {
    it('rule 1: given logistics 海运 and 空运 before 包邮 and 不包邮, then the axis is 不包邮, 包邮, 海运, 空运', () => {
      const m = matrix([
        link('1', { tags: { ...TEE, logistics: ['海运'] } }),
        link('2', { tags: { ...TEE, logistics: ['空运', '包邮'] } }),
        link('3', { tags: { ...TEE, logistics: ['不包邮'] } }),
      ]);
      expect(m.logistics).toEqual(['不包邮', '包邮', '海运', '空运']);
      expect(m.cells.map((c) => c.logistics)).toEqual(['不包邮', '包邮', '海运', '空运']);
    });

    it('given crafts and printCounts in any order, then they follow the display order', () => {
      const m = matrix([
        link('1', { tags: { ...TEE, craft: ['热转印', '不打印'], printCount: ['双面印花'] } }),
        link('2', { tags: { ...TEE, craft: ['直喷', '烫画'], printCount: ['单面印花'] } }),
      ]);
      expect(m.crafts).toEqual(['烫画', '直喷', '不打印', '热转印']);
      expect(m.printCounts).toEqual(['单面印花', '双面印花']);
    });

    it('given a tag sort order, then sizes and colours follow it, values without one after in first-encounter order', () => {
      const m = matrix(
        [link('1', { tags: { ...TEE, size: ['XL', 'Free', 'S'], color: ['白色', '粉色', '黑色'] } }), link('2', { tags: { ...TEE, size: ['M', 'One'], color: ['灰色'] } })],
        {
          tagSortOrder: new Map([
            ['S', 1],
            ['M', 2],
            ['XL', 4],
            ['黑色', 1],
            ['白色', 2],
          ]),
        },
      );
      expect(m.sizes).toEqual(['S', 'M', 'XL', 'Free', 'One']);
      expect(m.colors).toEqual(['黑色', '白色', '粉色', '灰色']);
    });

    it('given no tag sort order, then sizes and colours are in first-encounter order of the id-ordered links', () => {
      const m = matrix([link('20', { tags: { ...TEE, size: ['L'], color: ['白色'] } }), link('3', { tags: { ...TEE, size: ['XL', 'M'], color: ['黑色'] } })]);
      expect(m.sizes).toEqual(['XL', 'M', 'L']);
      expect(m.colors).toEqual(['黑色', '白色']);
    });

    it('given several dimensions, then cells are ordered by size, colour, printCount, craft, logistics', () => {
      const m = matrix([
        link('1', {
          tags: { size: ['L', 'M'], color: ['白色', '黑色'], printCount: ['双面印花', '单面印花'], craft: ['直喷'], logistics: ['包邮', '不包邮'] },
        }),
      ]);
      expect(m.cells.map((c) => `${c.size}/${c.color}/${c.printCount}/${c.logistics}`)).toEqual([
        'L/白色/单面印花/不包邮',
        'L/白色/单面印花/包邮',
        'L/白色/双面印花/不包邮',
        'L/白色/双面印花/包邮',
        'L/黑色/单面印花/不包邮',
        'L/黑色/单面印花/包邮',
        'L/黑色/双面印花/不包邮',
        'L/黑色/双面印花/包邮',
        'M/白色/单面印花/不包邮',
        'M/白色/单面印花/包邮',
        'M/白色/双面印花/不包邮',
        'M/白色/双面印花/包邮',
        'M/黑色/单面印花/不包邮',
        'M/黑色/单面印花/包邮',
        'M/黑色/双面印花/不包邮',
        'M/黑色/双面印花/包邮',
      ]);
    });
  });

  it('given the same members in any order, then the matrix is byte-identical (recompute is deterministic)', () => {
    const links = [
      link('10', { tags: { ...TEE, size: ['M', 'L'], logistics: ['包邮', '海运'] }, listPrice: '41', detail: detail([['L', '黑色', '43.5']]) }),
      link('9', { tags: { ...TEE, size: ['S', 'M'] }, listPrice: '39.9' }),
      link('100', { tags: { ...TEE, craft: ['不打印'], printCount: [] }, listPrice: '29' }),
      link('11', { delisted: true, listPrice: '1' }),
      link('12', { organised: false, listPrice: '1' }),
    ];
    const customMembers = [custom('900', { ...TEE, size: ['XL'] }, '45'), custom('80', { ...TEE, size: ['XL'] }, '44')];
    const overrides = [override(key('M', '黑色', '单面印花', '直喷', '包邮'), '38'), override(key('Q', '黑色', '单面印花', '直喷', '包邮'), '1')];
    const expected = stableJson(computeFamilyMatrix({ links, customMembers, overrides }));
    fc.assert(
      fc.property(fc.shuffledSubarray(links, { minLength: links.length }), fc.shuffledSubarray(customMembers, { minLength: 2 }), (ls, cs) => {
        expect(stableJson(computeFamilyMatrix({ links: ls, customMembers: cs, overrides }))).toBe(expected);
      }),
      { seed: 20261122, numRuns: 200 }, // a fixed seed: the same permutations on every run, no flaky test
    );
  });
});

describe('override keys checked for a 400 (docs/domain.md, Price matrix)', () => {
  const m = matrix([link('1', { tags: { ...TEE, size: ['M'], logistics: ['包邮'] } }), link('2', { tags: { ...TEE, size: ['L'], logistics: ['不包邮'] } })]);

  it.each([
    { given: 'an existing cell', k: key('M', '黑色', '单面印花', '直喷', '包邮'), issues: null },
    { given: 'an unknown size', k: key('XXL', '黑色', '单面印花', '直喷', '包邮'), issues: [{ dimension: 'size', value: 'XXL' }] },
    {
      given: 'an unknown colour and craft',
      k: key('M', '红色', '单面印花', '烫画', '包邮'),
      issues: [
        { dimension: 'color', value: '红色' },
        { dimension: 'craft', value: '烫画' },
      ],
    },
    { given: 'an unknown printCount', k: key('M', '黑色', '双面印花', '直喷', '包邮'), issues: [{ dimension: 'printCount', value: '双面印花' }] },
    { given: 'an unknown logistics', k: key('M', '黑色', '单面印花', '直喷', '海运'), issues: [{ dimension: 'logistics', value: '海运' }] },
    {
      given: 'known values but a missing cell',
      k: key('M', '黑色', '单面印花', '直喷', '不包邮'),
      issues: [{ dimension: 'cell', value: 'M / 黑色 / 单面印花 / 直喷 / 不包邮' }],
    },
  ])('given an override key with $given, then the issues are $issues', ({ k, issues }) => {
    expect(validateOverrideKey(m, k)).toEqual(issues);
  });
});

describe('the public priceMatrix (docs/api.md)', () => {
  it('given a matrix, then the public shape has the five axes and cells with the effective price only', () => {
    const m = matrix([link('1')], { overrides: [override(key('M', '黑色', '单面印花', '直喷', '包邮'), '30')] });
    expect(toPublicPriceMatrix(m)).toEqual({
      sizes: ['M'],
      colors: ['黑色'],
      printCounts: ['单面印花'],
      crafts: ['直喷'],
      logistics: ['包邮'],
      cells: [{ size: 'M', color: '黑色', printCount: '单面印花', craft: '直喷', logistics: '包邮', price: '30.00' }],
    });
  });
});

describe('unions of the family (docs/domain.md, Unions and media)', () => {
  const chart = (size: string, chest: string) => ({ size, chest });
  const spec = (name: string, weightGrams: number) => ({ name, weightGrams, lengthCm: 30, widthCm: 25, heightCm: 2 });
  const links = [
    link('10', {
      detail: detail(
        [
          ['M', '黑色', '41'],
          ['L', '黑色', '42'],
        ],
        { sizeChart: [chart('M', '100'), chart('L', '106')], packagingSpecs: [spec('单件', 200), spec('十件', 1900)] },
      ),
    }),
    link('9', {
      detail: detail(
        [
          ['M', '黑色', '39.9'],
          ['S', '白色', '38'],
        ],
        { sizeChart: [chart('S', '88'), chart('M', '94')], packagingSpecs: [spec('单件', 180)] },
      ),
    }),
    link('8', { delisted: true, detail: detail([['XS', '黑色', '1']], { sizeChart: [chart('XS', '1')], packagingSpecs: [spec('箱', 1)] }) }),
    link('7', { organised: false, detail: detail([['XL', '黑色', '1']]) }),
    link('6'), // organised, no synced detail yet
  ];

  it("given links '10' and '9', then variants are keyed by (size, colour) with '9' first, delisted and unorganised links left out", () => {
    expect(unionVariants(links)).toEqual([
      { size: 'M', color: '黑色', price: '39.90', sku: 'SKU-M-黑色' },
      { size: 'S', color: '白色', price: '38.00', sku: 'SKU-S-白色' },
      { size: 'L', color: '黑色', price: '42.00', sku: 'SKU-L-黑色' },
    ]);
  });

  it('given overlapping size charts, then one row per size, the lowest link id wins, first-encounter order', () => {
    expect(unionSizeChart(links)).toEqual([chart('S', '88'), chart('M', '94'), chart('L', '106')]);
  });

  it('given size-chart rows without a size column, then equal rows are kept once and none is lost', () => {
    const rows = unionSizeChart([
      link('1', { detail: detail([], { sizeChart: [{ note: '平铺测量' }, { note: '误差1-2cm' }] }) }),
      link('2', { detail: detail([], { sizeChart: [{ note: '平铺测量' }] }) }),
    ]);
    expect(rows).toEqual([{ note: '平铺测量' }, { note: '误差1-2cm' }]);
  });

  it('given overlapping packaging specs, then one per name, the lowest link id wins', () => {
    expect(unionPackagingSpecs(links)).toEqual([spec('单件', 180), spec('十件', 1900)]);
  });

  it('given no contributing link, then the unions are empty', () => {
    expect([unionVariants([]), unionSizeChart([]), unionPackagingSpecs([]), unionOptions([])]).toEqual([[], [], [], []]);
  });

  it('given options, then one per name in first-encounter order, the values of every link once each', () => {
    const withOptions = [
      link('10', {
        detail: detail([], {
          options: [
            { name: '包装', values: ['简装'] },
            { name: '领标', values: ['无', '有'] },
          ],
        }),
      }),
      link('9', { detail: detail([], { options: [{ name: '领标', values: ['有'] }] }) }),
      link('8', { delisted: true, detail: detail([], { options: [{ name: '抽绳', values: ['有'] }] }) }),
    ];
    expect(unionOptions(withOptions)).toEqual([
      { name: '领标', values: ['有', '无'] },
      { name: '包装', values: ['简装'] },
    ]);
  });

  describe('secondary origins (merged links of the family’s goods)', () => {
    const secondary = [
      {
        id: '5',
        detail: detail(
          [
            ['M', '黑色', '1'], // the member link '9' has it: its variant stays
            ['XXL', '红色', '45'],
          ],
          {
            sizeChart: [chart('M', '1'), chart('XXL', '120')],
            packagingSpecs: [spec('单件', 1), spec('箱', 9000)],
            options: [
              { name: '领标', values: ['无'] },
              { name: '抽绳', values: ['有'] },
            ],
          },
        ),
      },
      { id: '4', detail: null },
    ];

    it('given a secondary origin, then its variants, size rows, packaging specs and options come after the member links’, de-duplicated', () => {
      expect(unionVariants(links, secondary)).toEqual([
        { size: 'M', color: '黑色', price: '39.90', sku: 'SKU-M-黑色' },
        { size: 'S', color: '白色', price: '38.00', sku: 'SKU-S-白色' },
        { size: 'L', color: '黑色', price: '42.00', sku: 'SKU-L-黑色' },
        { size: 'XXL', color: '红色', price: '45.00', sku: 'SKU-XXL-红色' },
      ]);
      expect(unionSizeChart(links, secondary)).toEqual([chart('S', '88'), chart('M', '94'), chart('L', '106'), chart('XXL', '120')]);
      expect(unionPackagingSpecs(links, secondary)).toEqual([spec('单件', 180), spec('十件', 1900), spec('箱', 9000)]);
      expect(unionOptions([link('9', { detail: detail([], { options: [{ name: '领标', values: ['有'] }] }) })], secondary)).toEqual([
        { name: '领标', values: ['有', '无'] },
        { name: '抽绳', values: ['有'] },
      ]);
    });

    it('given only secondary origins, then they alone make the unions; the matrix never takes their variants', () => {
      expect(unionVariants([], secondary).map((v) => `${v.size}/${v.color}`)).toEqual(['M/黑色', 'XXL/红色']);
      expect(matrix([]).cells).toEqual([]);
    });
  });
});

describe('media by colour (docs/domain.md, Unions and media)', () => {
  const media = (color: string, url: string, sort: number) => ({ color, url, sort });
  const expectedId = (url: string) => ((1n << 62n) + BigInt(`0x${createHash('sha256').update(url).digest('hex').slice(0, 15)}`)).toString();

  it('given a URL, then its media id is 2^62 + the first 60 bits of sha256(url), a decimal 64-bit id', () => {
    const url = 'https://img.example.com/goods/f1/black-1.jpg';
    expect(mediaId(url)).toBe(expectedId(url));
    expect(mediaId(url)).toBe(mediaId(url));
    expect(isInt64(mediaId(url))).toBe(true);
    expect(BigInt(mediaId(url)) >= 1n << 62n && BigInt(mediaId(url)) < (1n << 62n) + (1n << 60n)).toBe(true);
    expect(mediaId(`${url}?v=2`)).not.toBe(mediaId(url));
  });

  it('given member links and a secondary origin sharing images, then each URL appears once (first wins) grouped by colour', () => {
    const byColor = mediaByColor([
      { linkId: '9', media: [media('黑色', 'https://x/b2.jpg', 2), media('黑色', 'https://x/b1.jpg', 1), media('白色', 'https://x/w1.jpg', 1)] },
      { linkId: '10', media: [media('黑色', 'https://x/b1.jpg', 0), media('黑色', 'https://x/b3.jpg', 1), media('白色', 'https://x/b2.jpg', 0)] },
      { linkId: '500', media: [media('红色', 'https://x/r1.jpg', 5), media('白色', 'https://x/w1.jpg', 9)] },
    ]);
    expect(byColor).toEqual({
      黑色: [
        // supplier sort first (b1: 1, b3: 1, b2: 2); equal sorts keep first encounter (b1 before b3)
        { id: expectedId('https://x/b1.jpg'), url: 'https://x/b1.jpg', sortOrder: 0 },
        { id: expectedId('https://x/b3.jpg'), url: 'https://x/b3.jpg', sortOrder: 1 },
        { id: expectedId('https://x/b2.jpg'), url: 'https://x/b2.jpg', sortOrder: 2 },
      ],
      白色: [{ id: expectedId('https://x/w1.jpg'), url: 'https://x/w1.jpg', sortOrder: 0 }],
      红色: [{ id: expectedId('https://x/r1.jpg'), url: 'https://x/r1.jpg', sortOrder: 0 }],
    });
  });

  it('given no media, then there are no colours', () => {
    expect(mediaByColor([])).toEqual({});
    expect(mediaByColor([{ linkId: '1', media: [] }])).toEqual({});
  });

  it('given the same sources twice, then the output is byte-identical', () => {
    const sources = [{ linkId: '1', media: [media('黑色', 'https://x/1.jpg', 1), media('白色', 'https://x/2.jpg', 0)] }];
    expect(stableJson(mediaByColor(sources))).toBe(stableJson(mediaByColor(sources)));
  });
});
