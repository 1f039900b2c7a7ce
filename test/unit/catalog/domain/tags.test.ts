import type { LinkDetail } from '../../../../src/catalog/links/events';
import { parseLinkName } from '../../../../src/catalog/domain/names';
import {
  DIMENSIONS,
  DISPLAY_ORDER,
  deriveLinkTags,
  emptyDimensionValues,
  fillMissingDimensions,
  sortDimensionValues,
  type DimensionValues,
} from '../../../../src/catalog/domain/tags';

const detailWith = (variants: [size: string, color: string][]): Pick<LinkDetail, 'variants'> => ({
  variants: variants.map(([size, color]) => ({ sku: `X-${size}-${color}`, size, color, price: '39.90', stock: 5 })),
});
const values = (v: Partial<DimensionValues>): DimensionValues => ({ ...emptyDimensionValues(), ...v });
const parsedName = (name: string) => {
  const p = parseLinkName(name);
  if (!p) throw new Error(`unparseable: ${name}`);
  return p;
};

describe('the dimensions and their display order (docs/domain.md, Tags and dimensions)', () => {
  it('given the matrix, then it has exactly five dimensions', () => {
    expect(DIMENSIONS).toEqual(['size', 'color', 'printCount', 'craft', 'logistics']);
  });

  it('given the closed vocabularies, then they are listed in display order', () => {
    expect(DISPLAY_ORDER).toEqual({
      printCount: ['单面印花', '双面印花'],
      craft: ['烫画', '直喷', '不打印', '热转印'],
      logistics: ['不包邮', '包邮'],
    });
  });
});

describe('tags derived from a link name by organisation', () => {
  // docs/domain.md's link table: the name and its "derived tags" column, verbatim. Notes in brackets
  // ("(default fill)", "(no printCount)") explain the row; the tags are the words before them.
  it.each([
    ['美国（包邮）纯棉短袖T恤 G5000 直喷双面', '直喷, 双面印花, 包邮'],
    ['美国(不包邮）纯棉短袖T恤 G5000 烫画', '烫画, 单面印花 (default fill), 不包邮'],
    ['英国（包邮）连帽卫衣 G18500 光板', '不打印, 包邮 (no printCount)'],
    ['美国（海运）帆布袋 TB01 热转印单面', '热转印, 单面印花, 海运'],
  ])('docs/domain.md row: given the link %s, when organisation derives its tags, then they are %s', (name, column) => {
    const expected = column
      .replace(/\s*\([^)]*\)/g, '')
      .split(',')
      .map((t) => t.trim());
    const { values: derived, missing } = deriveLinkTags(parsedName(name), null);
    expect([...derived.printCount, ...derived.craft, ...derived.logistics].sort()).toEqual([...expected].sort());
    expect(missing).toEqual([]);
  });

  it('docs/domain.md row: given the unparseable link 纯棉短袖T恤 G5000, then there is nothing to derive from (reported, never grouped)', () => {
    expect(parseLinkName('纯棉短袖T恤 G5000')).toBeNull();
  });

  it.each([
    {
      rule: 'rule 2: 光板 maps to 不打印',
      descriptors: ['光板'],
      logistics: '包邮',
      expected: values({ craft: ['不打印'], logistics: ['包邮'] }),
    },
    {
      rule: 'rule 2: 不打印 written out is 不打印 too',
      descriptors: ['不打印'],
      logistics: '包邮',
      expected: values({ craft: ['不打印'], logistics: ['包邮'] }),
    },
    {
      rule: 'rule 3: 热转印 is its own craft, not 烫画',
      descriptors: ['热转印'],
      logistics: '不包邮',
      expected: values({ printCount: ['单面印花'], craft: ['热转印'], logistics: ['不包邮'] }),
    },
    {
      rule: 'rule 4: the bare word 双面 with a craft (直喷双面)',
      descriptors: ['直喷双面'],
      logistics: '包邮',
      expected: values({ printCount: ['双面印花'], craft: ['直喷'], logistics: ['包邮'] }),
    },
    {
      rule: 'rule 4: the bare word 单面 with a craft (烫画单面)',
      descriptors: ['烫画单面'],
      logistics: '包邮',
      expected: values({ printCount: ['单面印花'], craft: ['烫画'], logistics: ['包邮'] }),
    },
    {
      rule: 'rule 4: the full words 双面印花 and 单面印花',
      descriptors: ['直喷', '双面印花'],
      logistics: '包邮',
      expected: values({ printCount: ['双面印花'], craft: ['直喷'], logistics: ['包邮'] }),
    },
    {
      rule: 'rule 4: side and craft in separate descriptors',
      descriptors: ['双面', '烫画'],
      logistics: '包邮',
      expected: values({ printCount: ['双面印花'], craft: ['烫画'], logistics: ['包邮'] }),
    },
    {
      rule: 'rule 5: no side and a craft other than 不打印 → 单面印花',
      descriptors: ['直喷'],
      logistics: '包邮',
      expected: values({ printCount: ['单面印花'], craft: ['直喷'], logistics: ['包邮'] }),
    },
    {
      rule: 'rule 5: no side and no craft at all → 单面印花 (the craft is still missing)',
      descriptors: [],
      logistics: '不包邮',
      expected: values({ printCount: ['单面印花'], logistics: ['不包邮'] }),
    },
    {
      rule: 'rule 5/6: a side named with 光板 is kept',
      descriptors: ['光板双面'],
      logistics: '包邮',
      expected: values({ printCount: ['双面印花'], craft: ['不打印'], logistics: ['包邮'] }),
    },
    {
      rule: 'the supplier wording 数码直喷 contains 直喷',
      descriptors: ['数码直喷'],
      logistics: '包邮',
      expected: values({ printCount: ['单面印花'], craft: ['直喷'], logistics: ['包邮'] }),
    },
    {
      rule: 'both sides and two crafts come out in display order',
      descriptors: ['双面', '热转印', '单面', '烫画'],
      logistics: '包邮',
      expected: values({ printCount: ['单面印花', '双面印花'], craft: ['烫画', '热转印'], logistics: ['包邮'] }),
    },
    {
      rule: 'rule 1: a logistics value outside the vocabulary (海运) is kept as written',
      descriptors: ['直喷'],
      logistics: '海运',
      expected: values({ printCount: ['单面印花'], craft: ['直喷'], logistics: ['海运'] }),
    },
  ])('$rule: given descriptors $descriptors and logistics $logistics, then the tags are $expected', ({ descriptors, logistics, expected }) => {
    expect(deriveLinkTags({ descriptors, logistics }, null).values).toEqual(expected);
  });

  it('given a product name that mentions a side, then only the descriptors count', () => {
    const p = parsedName('美国（包邮）双面绒卫衣 G18000 烫画');
    expect(deriveLinkTags(p, null).values.printCount).toEqual(['单面印花']);
  });

  it.each([
    { given: 'a name with no craft', descriptors: ['双面'], logistics: '包邮', missing: ['craft'] },
    { given: 'a name with no descriptors', descriptors: [], logistics: '包邮', missing: ['craft'] },
    { given: 'an empty logistics', descriptors: ['直喷'], logistics: '', missing: ['logistics'] },
    { given: 'neither craft nor logistics', descriptors: [], logistics: ' ', missing: ['craft', 'logistics'] },
    { given: 'a craft and a logistics', descriptors: ['光板'], logistics: '海运', missing: [] },
  ])('given $given, when derived, then the link is incomplete for $missing', ({ descriptors, logistics, missing }) => {
    expect(deriveLinkTags({ descriptors, logistics }, null).missing).toEqual(missing);
  });

  it.each([
    { given: 'no synced detail', detail: null, size: [], color: [] },
    { given: 'a detail without variants', detail: detailWith([]), size: [], color: [] },
    {
      given: 'variants over sizes and colours',
      detail: detailWith([
        ['M', '黑色'],
        ['L', '黑色'],
        ['M', '白色'],
        ['S', '白色'],
        ['L', '黑色'],
      ]),
      size: ['M', 'L', 'S'],
      color: ['黑色', '白色'],
    },
    { given: 'a variant with an empty size', detail: detailWith([['', '黑色']]), size: [], color: ['黑色'] },
  ])('given $given, when derived, then size is $size and colour is $color (distinct, first encounter)', ({ detail, size, color }) => {
    const derived = deriveLinkTags({ descriptors: ['直喷'], logistics: '包邮' }, detail).values;
    expect(derived.size).toEqual(size);
    expect(derived.color).toEqual(color);
  });
});

describe('updateTags: missing dimension groups are filled from the derivation', () => {
  const derived = values({ size: ['M', 'L'], color: ['黑色'], printCount: ['双面印花'], craft: ['直喷'], logistics: ['包邮'] });

  it.each([
    {
      given: 'manual tags with a craft only',
      manual: { craft: ['烫画'] },
      result: values({ size: ['M', 'L'], color: ['黑色'], printCount: ['双面印花'], craft: ['烫画'], logistics: ['包邮'] }),
      filled: [
        { dimension: 'size', value: 'M' },
        { dimension: 'size', value: 'L' },
        { dimension: 'color', value: '黑色' },
        { dimension: 'printCount', value: '双面印花' },
        { dimension: 'logistics', value: '包邮' },
      ],
    },
    {
      given: 'manual tags in every dimension that differ from the name',
      manual: { size: ['XL'], color: ['红色'], printCount: ['单面印花'], craft: ['热转印'], logistics: ['海运'] },
      result: values({ size: ['XL'], color: ['红色'], printCount: ['单面印花'], craft: ['热转印'], logistics: ['海运'] }),
      filled: [],
    },
    {
      given: 'no manual tags at all',
      manual: {},
      result: derived,
      filled: [
        { dimension: 'size', value: 'M' },
        { dimension: 'size', value: 'L' },
        { dimension: 'color', value: '黑色' },
        { dimension: 'printCount', value: '双面印花' },
        { dimension: 'craft', value: '直喷' },
        { dimension: 'logistics', value: '包邮' },
      ],
    },
    {
      given: 'an empty manual group (the administrator removed it)',
      manual: { size: ['M'], color: ['黑色'], printCount: [], craft: ['直喷'], logistics: ['包邮'] },
      result: values({ size: ['M'], color: ['黑色'], printCount: ['双面印花'], craft: ['直喷'], logistics: ['包邮'] }),
      filled: [{ dimension: 'printCount', value: '双面印花' }],
    },
  ])('given $given, when tags are updated, then manual values stay and the gaps are filled', ({ manual, result, filled }) => {
    const answer = fillMissingDimensions(manual, derived);
    expect(answer.values).toEqual(result);
    expect(answer.filled).toEqual(filled);
  });

  it('given a derivation that has nothing for a dimension (光板: no printCount), then that group stays empty', () => {
    const fromName = deriveLinkTags(parsedName('英国（包邮）连帽卫衣 G18500 光板'), null).values;
    const answer = fillMissingDimensions({ size: ['M'], color: ['黑色'] }, fromName);
    expect(answer.values).toEqual(values({ size: ['M'], color: ['黑色'], craft: ['不打印'], logistics: ['包邮'] }));
    expect(answer.filled).toEqual([
      { dimension: 'craft', value: '不打印' },
      { dimension: 'logistics', value: '包邮' },
    ]);
  });

  it('given manual tags, then the input is not changed', () => {
    const manual = { craft: ['烫画'] };
    fillMissingDimensions(manual, derived);
    expect(manual).toEqual({ craft: ['烫画'] });
  });
});

describe('display order of dimension values', () => {
  it.each([
    { dimension: 'logistics', given: ['海运', '包邮', '空运', '不包邮'], sorted: ['不包邮', '包邮', '海运', '空运'] },
    { dimension: 'logistics', given: ['空运', '包邮', '海运'], sorted: ['包邮', '空运', '海运'] },
    { dimension: 'craft', given: ['热转印', '不打印', '直喷', '烫画'], sorted: ['烫画', '直喷', '不打印', '热转印'] },
    { dimension: 'craft', given: ['丝印', '热转印', '烫画'], sorted: ['烫画', '热转印', '丝印'] },
    { dimension: 'printCount', given: ['双面印花', '单面印花'], sorted: ['单面印花', '双面印花'] },
    { dimension: 'printCount', given: ['双面印花', '双面印花', '单面印花'], sorted: ['单面印花', '双面印花'] },
    { dimension: 'size', given: ['XL', 'S', 'M', 'S'], sorted: ['XL', 'S', 'M'] },
    { dimension: 'color', given: ['白色', '黑色'], sorted: ['白色', '黑色'] },
  ] as const)('rule 1: given $dimension values $given and no tag sort order, then they are ordered $sorted (unknown after, first encounter)', ({ dimension, given, sorted }) => {
    expect(sortDimensionValues(dimension, given)).toEqual(sorted);
  });

  const tagSortOrder = new Map([
    ['S', 1],
    ['M', 2],
    ['L', 3],
    ['XL', 4],
    ['黑色', 1],
    ['白色', 2],
    ['红色', 2],
  ]);
  it.each([
    { dimension: 'size', given: ['XL', 'XXS', 'S', 'M', 'Free'], sorted: ['S', 'M', 'XL', 'XXS', 'Free'] },
    { dimension: 'color', given: ['红色', '灰色', '白色', '黑色'], sorted: ['黑色', '红色', '白色', '灰色'] },
    // the tag sort order is for sizes and colours; the vocabulary dimensions keep the display order
    { dimension: 'logistics', given: ['包邮', '海运', '不包邮'], sorted: ['不包邮', '包邮', '海运'] },
  ] as const)('given $dimension values $given and a tag sort order, then they are ordered $sorted (sort order, then first encounter)', ({ dimension, given, sorted }) => {
    expect(sortDimensionValues(dimension, given, tagSortOrder)).toEqual(sorted);
  });
});
