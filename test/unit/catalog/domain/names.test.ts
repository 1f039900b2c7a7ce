import fc from 'fast-check';
import {
  familyNameKey,
  goodNameFromLink,
  isStyleCode,
  linkNameProblem,
  normaliseGoodName,
  normaliseSku,
  parseLinkName,
  readLinkName,
  type ParsedLinkName,
} from '../../../../src/catalog/domain/names';

describe('style codes (docs/domain.md, Style codes: 0–4 ASCII letters, 2+ digits, optional letters, digits or -)', () => {
  it.each([
    // docs/domain.md's examples
    ['G5000', true],
    ['18500', true],
    ['TB01', true],
    ['DT6000-2', true],
    // beyond the examples
    ['g5000', true],
    ['ABCD12', true],
    ['G18500', true],
    ['45x45', true],
    ['ABCDE12', false], // five letters
    ['G5', false], // one digit
    ['T恤', false],
    ['直喷双面', false],
    ['G-5000', false], // the dash only after the digits
    ['G5000）', false],
    ['Ｇ５０００', false], // full-width letters and digits are not ASCII
    ['', false],
  ])('given the token %j, then it is a style code: %s', (token, expected) => {
    expect(isStyleCode(token)).toBe(expected);
  });

  it.each([
    ['G5000', 'G5000'],
    ['g5000', 'G5000'],
    ['dt6000-2', 'DT6000-2'],
    [' tb01 ', 'TB01'],
    ['18500', '18500'],
    ['T恤', null],
    ['G5', null],
  ])('given the token %j, when normalised, then the SKU is %j (upper case)', (token, sku) => {
    expect(normaliseSku(token)).toBe(sku);
  });
});

describe('link names: <country>（<logistics>）<productName> <SKU> [descriptors]', () => {
  const parsed = (country: string, logistics: string, productName: string, sku: string, descriptors: string[]): ParsedLinkName => ({
    country,
    logistics,
    productName,
    sku,
    descriptors,
  });

  // docs/domain.md's link table, verbatim (the derived-tags column is tested in tags.test.ts).
  it.each([
    ['美国（包邮）纯棉短袖T恤 G5000 直喷双面', parsed('美国', '包邮', '纯棉短袖T恤', 'G5000', ['直喷双面'])],
    ['美国(不包邮）纯棉短袖T恤 G5000 烫画', parsed('美国', '不包邮', '纯棉短袖T恤', 'G5000', ['烫画'])],
    ['英国（包邮）连帽卫衣 G18500 光板', parsed('英国', '包邮', '连帽卫衣', 'G18500', ['光板'])],
    ['美国（海运）帆布袋 TB01 热转印单面', parsed('美国', '海运', '帆布袋', 'TB01', ['热转印单面'])],
    ['纯棉短袖T恤 G5000', null],
  ])('docs/domain.md row: given the link name %s, when organisation parses it, then the parsed columns are %j', (name, expected) => {
    expect(parseLinkName(name)).toEqual(expected);
  });

  it.each([
    ['half-width brackets', '美国(包邮)纯棉短袖T恤 G5000 直喷双面', parsed('美国', '包邮', '纯棉短袖T恤', 'G5000', ['直喷双面'])],
    ['full-width opening, half-width closing', '美国（包邮)纯棉短袖T恤 G5000 直喷双面', parsed('美国', '包邮', '纯棉短袖T恤', 'G5000', ['直喷双面'])],
    ['extra spaces everywhere', '  美国 （ 包邮 ）  纯棉短袖T恤   G5000   直喷双面 ', parsed('美国', '包邮', '纯棉短袖T恤', 'G5000', ['直喷双面'])],
    ['an ideographic space before the SKU', '美国（包邮）纯棉短袖T恤\u3000G5000', parsed('美国', '包邮', '纯棉短袖T恤', 'G5000', [])],
    ['a lower-case SKU', '美国（包邮）纯棉短袖T恤 g5000 直喷双面', parsed('美国', '包邮', '纯棉短袖T恤', 'G5000', ['直喷双面'])],
    ['a Chinese parenthetical in the product name', '美国（包邮）纯棉短袖T恤（加厚款） G5000 烫画', parsed('美国', '包邮', '纯棉短袖T恤（加厚款）', 'G5000', ['烫画'])],
    ['half-width brackets after the first segment stay as written', '美国（包邮）纯棉短袖T恤(加厚款) G5000', parsed('美国', '包邮', '纯棉短袖T恤(加厚款)', 'G5000', [])],
    ['a product name with a space and a dashed SKU, no descriptors', '德国（不包邮）重磅 纯棉T恤 DT6000-2', parsed('德国', '不包邮', '重磅 纯棉T恤', 'DT6000-2', [])],
    ['an all-digit SKU and two descriptors', '美国（包邮）T恤 18500 直喷 双面', parsed('美国', '包邮', 'T恤', '18500', ['直喷', '双面'])],
    ['a number in the product name: the last style code is the SKU', '美国（包邮）抱枕套 45x45 PL45 直喷', parsed('美国', '包邮', '抱枕套 45x45', 'PL45', ['直喷'])],
    ['a logistics value outside the vocabulary', '日本（空运）围裙 AP01', parsed('日本', '空运', '围裙', 'AP01', [])],
  ])('given %s (%s), when parsed, then %j', (_case, name, expected) => {
    expect(parseLinkName(name)).toEqual(expected);
  });

  it.each([
    ['no bracket at all', '美国 纯棉短袖T恤 G5000 直喷'],
    ['logistics without brackets', '美国包邮纯棉短袖T恤 G5000'],
    ['lenticular brackets are not round brackets', '【包邮】美国纯棉短袖T恤 G5000 直喷'],
    ['an empty country', '（包邮）纯棉短袖T恤 G5000'],
    ['an empty logistics', '美国（）纯棉短袖T恤 G5000'],
    ['a blank logistics', '美国（ ）纯棉短袖T恤 G5000'],
    ['no SKU token', '美国（包邮）纯棉短袖T恤 直喷双面'],
    ['no product name before the SKU', '美国（包邮）G5000 直喷双面'],
    ['a SKU glued to the product name', '美国（包邮）纯棉短袖T恤G5000'],
    ['a closing bracket before any opening one', '美国)包邮（纯棉短袖T恤 G5000'],
    ['two opening brackets in the first segment', '美国（包（邮）纯棉短袖T恤 G5000'],
    ['a style code only inside a parenthetical', '美国（包邮）纯棉短袖T恤（加厚 2024 款） 直喷'],
    ['an empty name', ''],
  ])('given %s (%j), when parsed, then it is unparseable (null)', (_case, name) => {
    expect(parseLinkName(name)).toBeNull();
  });

  // What the organisation report tells an administrator: the part of the name that could not be read.
  it.each([
    ['no bracket at all', '美国 纯棉短袖T恤 G5000 直喷', { part: 'logistics', reason: 'NO_LOGISTICS_BRACKET' }],
    ['lenticular brackets', '【包邮】美国纯棉短袖T恤 G5000 直喷', { part: 'logistics', reason: 'NO_LOGISTICS_BRACKET' }],
    ['an empty country', '（包邮）纯棉短袖T恤 G5000', { part: 'country', reason: 'EMPTY_COUNTRY' }],
    ['a blank logistics', '美国（ ）纯棉短袖T恤 G5000', { part: 'logistics', reason: 'EMPTY_LOGISTICS', text: '美国（ ）' }],
    ['two opening brackets in the first segment', '美国（包（邮）纯棉短袖T恤 G5000', { part: 'logistics', reason: 'MALFORMED_FIRST_SEGMENT', text: '美国（包（邮）' }],
    ['a closing bracket before any opening one', '美国)包邮（纯棉短袖T恤 G5000', { part: 'logistics', reason: 'MALFORMED_FIRST_SEGMENT', text: '美国)' }],
    ['no SKU token', '美国（包邮）纯棉短袖T恤 直喷双面', { part: 'sku', reason: 'NO_STYLE_CODE', text: '纯棉短袖T恤 直喷双面' }],
    ['a SKU glued to the product name', '美国（包邮）纯棉短袖T恤G5000', { part: 'sku', reason: 'NO_STYLE_CODE', text: '纯棉短袖T恤G5000' }],
    ['nothing after the logistics', '美国（包邮）', { part: 'sku', reason: 'NO_STYLE_CODE' }],
    ['no product name before the SKU', '美国（包邮）G5000 直喷双面', { part: 'productName', reason: 'NO_PRODUCT_NAME', text: 'G5000' }],
    ['an empty name', '', { part: 'logistics', reason: 'NO_LOGISTICS_BRACKET' }],
  ])('given %s (%j), then the problem named is %j', (_case, name, problem) => {
    expect(linkNameProblem(name)).toEqual(problem);
    expect(readLinkName(name)).toEqual({ problem });
  });

  it('names no problem exactly when the name parses', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[美国英（）() 包邮T恤G50直喷]{0,16}$/), (name) => {
        expect(linkNameProblem(name) === null).toBe(parseLinkName(name) !== null);
      }),
    );
  });
});

describe('good names: stored as <product name> <SKU>', () => {
  // docs/domain.md's good-name table, verbatim.
  it.each([
    ['纯棉短袖T恤 (Gildan 5000) G5000', null, '纯棉短袖T恤 G5000'],
    ['纯棉短袖T恤（加厚款） G5000', null, '纯棉短袖T恤（加厚款） G5000'],
    ['G5000 纯棉短袖T恤', null, '纯棉短袖T恤 G5000'],
    ['G5000', '短袖T恤', '短袖T恤 G5000'],
    ['  纯棉   短袖T恤  G5000 ', null, '纯棉 短袖T恤 G5000'],
  ])('docs/domain.md row: given the name %j (category %j), when normalised, then it is stored as %j', (input, categoryName, stored) => {
    expect(normaliseGoodName(input, { categoryName })).toBe(stored);
  });

  const beyond: [string, string, string | null, string][] = [
    ['an ASCII qualifier in full-width brackets', '纯棉短袖T恤（Gildan 5000） G5000', null, '纯棉短袖T恤 G5000'],
    ['an ASCII qualifier in mixed brackets', '纯棉短袖T恤(Gildan 5000） G5000', null, '纯棉短袖T恤 G5000'],
    ['an ASCII qualifier between words', '纯棉(Gildan)短袖T恤 G5000', null, '纯棉 短袖T恤 G5000'],
    ['a Chinese parenthetical in half-width brackets', '纯棉短袖T恤(加厚款) G5000', null, '纯棉短袖T恤(加厚款) G5000'],
    ['a Chinese parenthetical holding an ASCII one', '纯棉短袖T恤（加厚款(G5000)） G5000', null, '纯棉短袖T恤（加厚款(G5000)） G5000'],
    ['a lower-case leading SKU', 'g5000 纯棉短袖T恤', null, '纯棉短袖T恤 G5000'],
    ['a lower-case trailing SKU', '纯棉短袖T恤 dt6000-2', null, '纯棉短袖T恤 DT6000-2'],
    ['a SKU in the middle', '纯棉短袖T恤 G5000 直喷双面', null, '纯棉短袖T恤 直喷双面 G5000'],
    ['no SKU', '纯棉短袖T恤', null, '纯棉短袖T恤'],
    ['no SKU, a qualifier and spaces', '  纯棉短袖T恤 (Gildan) ', null, '纯棉短袖T恤'],
    ['a SKU only and no category', 'G5000', null, 'G5000'],
    ['a SKU only and a raw category name (cleaned first)', 'G5000', '短袖T恤(G5000)', '短袖T恤 G5000'],
    ['a SKU only and a category holding a style code', 'G5000', 'G5000 短袖T恤 (美版)', '短袖T恤 G5000'],
    ['a SKU and a qualifier only', 'G5000 (Gildan 5000)', '卫衣（加绒款）', '卫衣 G5000'],
    ['a SKU only and a category that is only a bracket', 'G2000', '(美版)', '(美版) G2000'],
    ['a qualifier only (stripping would leave nothing)', '(Gildan 5000)', null, '(Gildan 5000)'],
    ['a name with a number inside a Chinese parenthetical', '纯棉短袖T恤（加厚 2024 款） G5000', null, '纯棉短袖T恤（加厚 2024 款） G5000'],
  ];
  it.each(beyond)('given %s (%j, category %j), when normalised, then %j', (_case, input, categoryName, stored) => {
    expect(normaliseGoodName(input, { categoryName })).toBe(stored);
  });

  it('given a category but a name with a description, then the category is not used', () => {
    expect(normaliseGoodName('卫衣 G18500', { categoryName: '短袖T恤' })).toBe('卫衣 G18500');
  });

  it('given any stored name, when normalised again, then it is unchanged (create then update keeps the name)', () => {
    const rows: [string, string | null][] = [
      ['纯棉短袖T恤 (Gildan 5000) G5000', null],
      ['G5000 纯棉短袖T恤', null],
      ['G5000', '短袖T恤'],
      ['G2000', '(美版)'],
      ...beyond.map(([, input, category]): [string, string | null] => [input, category]),
    ];
    for (const [input, categoryName] of rows) {
      const once = normaliseGoodName(input, { categoryName });
      expect(normaliseGoodName(once, { categoryName })).toBe(once);
    }
  });

  it('given arbitrary names built from product words, SKUs and qualifiers, then normalisation is idempotent', () => {
    const word = fc.constantFrom('纯棉', '短袖T恤', '（加厚款）', '(Gildan 5000)', 'G5000', 'g64000', '直喷双面', '45x45', ' ', '  ', '(', '）');
    fc.assert(
      fc.property(fc.array(word, { maxLength: 8 }), fc.option(fc.constantFrom('短袖T恤(G5000)', 'G5000 短袖T恤 (美版)', '(美版)')), (words, categoryName) => {
        const once = normaliseGoodName(words.join(' '), { categoryName });
        expect(normaliseGoodName(once, { categoryName })).toBe(once);
      }),
      { seed: 20261122, numRuns: 1000 }, // a fixed seed: the same names on every run, no flaky test
    );
  });
});

describe('the name of a good created from a link (docs/domain.md, Goods and delisting)', () => {
  it.each([
    {
      given: 'an organised link',
      link: { name: '美国（包邮）纯棉短袖T恤 G5000 直喷双面', parsed: { productName: '纯棉短袖T恤', sku: 'G5000' }, categoryName: '短袖T恤(G5000)' },
      name: '纯棉短袖T恤 G5000',
    },
    {
      given: 'an organised link whose product name carries an ASCII qualifier',
      link: { name: '美国（包邮）纯棉短袖T恤(Gildan 5000) G5000', parsed: { productName: '纯棉短袖T恤(Gildan 5000)', sku: 'G5000' }, categoryName: null },
      name: '纯棉短袖T恤 G5000',
    },
    {
      given: 'an organised link whose product name is a Chinese parenthetical only',
      link: { name: '美国（包邮）纯棉短袖T恤（加厚款） G5000', parsed: { productName: '纯棉短袖T恤（加厚款）', sku: 'G5000' }, categoryName: null },
      name: '纯棉短袖T恤（加厚款） G5000',
    },
    {
      given: 'an unorganised link (the unparseable docs/domain.md row)',
      link: { name: '纯棉短袖T恤 G5000', parsed: null, categoryName: '短袖T恤(G5000)' },
      name: '纯棉短袖T恤 G5000',
    },
    {
      given: 'an unorganised link named by its SKU only',
      link: { name: 'g5000', parsed: null, categoryName: '短袖T恤(G5000)' },
      name: '短袖T恤 G5000',
    },
    {
      given: 'an unorganised link with the SKU first',
      link: { name: 'G18500  连帽卫衣', parsed: null, categoryName: null },
      name: '连帽卫衣 G18500',
    },
  ])('given $given, when a good is created from it, then the good is named $name', ({ link, name }) => {
    expect(goodNameFromLink(link)).toBe(name);
  });
});

describe('family name key: country + product name + SKU', () => {
  const key = (linkName: string): string => {
    const p = parseLinkName(linkName);
    if (!p) throw new Error(`unparseable: ${linkName}`);
    return familyNameKey(p);
  };

  it('given the free-shipping and no-free-shipping links of one product, then they share a key (logistics excluded)', () => {
    expect(key('美国（包邮）纯棉短袖T恤 G5000 直喷双面')).toBe(key('美国(不包邮）纯棉短袖T恤 G5000 烫画'));
  });

  it.each([
    ['extra white space and a lower-case SKU', '  美国（海运）纯棉短袖T恤   g5000 光板', true],
    ['another country', '英国（包邮）纯棉短袖T恤 G5000 直喷双面', false],
    ['another product name', '美国（包邮）短袖T恤 G5000 直喷双面', false],
    ['another SKU', '美国（包邮）纯棉短袖T恤 G64000 直喷双面', false],
  ])('given a link with %s, then it shares the key of 美国 纯棉短袖T恤 G5000: %s', (_case, linkName, same) => {
    expect(key(linkName) === key('美国（包邮）纯棉短袖T恤 G5000 直喷双面')).toBe(same);
  });

  it('given white space inside the parts, then it is folded', () => {
    expect(familyNameKey({ country: ' 美国 ', productName: '纯棉  短袖T恤', sku: 'g5000' })).toBe(familyNameKey({ country: '美国', productName: '纯棉 短袖T恤', sku: 'G5000' }));
  });

  it('given parts that would run together under a plain separator, then the keys stay distinct', () => {
    expect(familyNameKey({ country: 'a|b', productName: 'c', sku: 'G5000' })).not.toBe(familyNameKey({ country: 'a', productName: 'b|c', sku: 'G5000' }));
  });
});
