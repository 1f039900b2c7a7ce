import { mediaId } from '../../../src/catalog/domain/matrix';
import {
  TagDictionary,
  categoryTree,
  goodDetail,
  homePositions,
  publicPriceMatrix,
  treeOrder,
  type CategoryRow,
  type FamilyDetailRow,
  type PublicGoodItem,
  type TagInfo,
} from '../../../src/storefront/views';

const tag = (id: string, name: string, sortOrder: number, dimension: string | null): TagInfo => ({ id, name, sortOrder, dimension });

describe('tags as the storefront shows them', () => {
  const dict = new TagDictionary([tag('7', 'XL', 0, 'size'), tag('3', 'S', 1, 'size'), tag('9', '黑色', 2, 'color'), tag('4', 'new', 2, null)]);

  it('live tags only, by tag sort order then id, each once', () => {
    expect(dict.tagsOf(['4', '3', 'gone', '9', '7', '3'])).toEqual([
      { id: '7', name: 'XL' },
      { id: '3', name: 'S' },
      { id: '4', name: 'new' },
      { id: '9', name: '黑色' },
    ]);
    expect(dict.tagsOfList('')).toEqual([]);
    expect(dict.tagsOfList('9,7')).toEqual([
      { id: '7', name: 'XL' },
      { id: '9', name: '黑色' },
    ]);
  });

  it('keeps the size and colour orders by tag name for the price matrix', () => {
    expect([...dict.sizeOrder]).toEqual([
      ['XL', 0],
      ['S', 1],
    ]);
    expect([...dict.colorOrder]).toEqual([['黑色', 2]]);
  });
});

describe('the public price matrix', () => {
  const cell = (size: string, color: string, printCount: string, craft: string, logistics: string, price: string) => ({
    size,
    color,
    printCount,
    craft,
    logistics,
    price,
  });
  // As the family row stores it: sizes and colours in first-encounter order.
  const stored = {
    sizes: ['S', 'M', 'XL'],
    colors: ['红色', '黑色'],
    printCounts: ['单面印花'],
    crafts: ['烫画', '直喷'],
    logistics: ['包邮'],
    cells: [
      cell('S', '红色', '单面印花', '烫画', '包邮', '10.00'),
      cell('S', '黑色', '单面印花', '直喷', '包邮', '11.00'),
      cell('M', '红色', '单面印花', '烫画', '包邮', '12.00'),
      cell('XL', '黑色', '单面印花', '烫画', '包邮', '13.00'),
      cell('XL', '黑色', '单面印花', '直喷', '包邮', '14.00'),
    ],
    invalidOverrides: [{ size: 'Q' }],
  };

  it('orders sizes and colours by tag sort order, untagged values after in first-encounter order; cells follow', () => {
    const tags = new TagDictionary([tag('1', 'XL', 0, 'size'), tag('2', 'S', 5, 'size'), tag('3', '黑色', 1, 'color')]);
    const m = publicPriceMatrix(stored, tags);
    expect(m.sizes).toEqual(['XL', 'S', 'M']);
    expect(m.colors).toEqual(['黑色', '红色']);
    expect(m.cells.map((c) => c.price)).toEqual(['13.00', '14.00', '11.00', '10.00', '12.00']);
    expect(Object.keys(m)).toEqual(['sizes', 'colors', 'printCounts', 'crafts', 'logistics', 'cells']);
  });

  it('keeps the stored order without size or colour tags, and the display order of the others', () => {
    const m = publicPriceMatrix({ ...stored, crafts: ['直喷', '烫画'] }, new TagDictionary([]));
    expect(m.sizes).toEqual(['S', 'M', 'XL']);
    expect(m.crafts).toEqual(['烫画', '直喷']);
    expect(m.cells.map((c) => c.price)).toEqual(['10.00', '11.00', '12.00', '13.00', '14.00']);
  });

  it('of a family never recomputed (`{}`) is empty', () => {
    expect(publicPriceMatrix({}, new TagDictionary([]))).toEqual({ sizes: [], colors: [], printCounts: [], crafts: [], logistics: [], cells: [] });
  });
});

describe('the public detail', () => {
  it('puts media colours in the matrix colour order and answers the contract fields only', () => {
    const img = (url: string, sortOrder: number) => ({ id: mediaId(url), url, sortOrder });
    const row: FamilyDetailRow = {
      id: '42',
      name: '纯棉短袖T恤 G5000',
      image: null,
      description: null,
      country_id: '1',
      category_id: '301',
      tag_ids: ['1'],
      lowest_price: '9.90',
      variants: [{ sku: 'x', price: '9.90', color: '黑色', size: 'S' }],
      size_chart: [],
      packaging_specs: [],
      price_matrix: { sizes: ['S'], colors: ['红色', '黑色'], printCounts: [], crafts: [], logistics: [], cells: [] },
      // jsonb's key order, not the encounter order
      media_by_color: { 白色: [img('u3', 0)], 红色: [img('u2', 0)], 黑色: [img('u1', 0)] },
    };
    const d = goodDetail(row, new TagDictionary([tag('1', '黑色', 0, 'color')]));
    expect(Object.keys(d.mediaByColor)).toEqual(['黑色', '红色', '白色']);
    expect(d.variants).toEqual([{ size: 'S', color: '黑色', price: '9.90', sku: 'x' }]);
    expect(Object.keys(d.variants[0]!)).toEqual(['size', 'color', 'price', 'sku']);
    expect(d.tags).toEqual([{ id: '1', name: '黑色' }]);
    expect(Object.keys(d)).toEqual([
      'goodId',
      'name',
      'image',
      'description',
      'countryId',
      'categoryId',
      'tags',
      'lowestPrice',
      'variants',
      'sizeChart',
      'packagingSpecs',
      'options',
      'priceMatrix',
      'mediaByColor',
    ]);
    expect(d.options).toEqual([]);
    const withOptions = goodDetail({ ...row, options: [{ name: '领标', values: ['有', '无'] }] }, new TagDictionary([]));
    expect(withOptions.options).toEqual([{ name: '领标', values: ['有', '无'] }]);
  });
});

describe('the category tree', () => {
  const c = (id: string, parent_id: string | null, sort_order: number): CategoryRow => ({ id, parent_id, name: `c${id}`, effective_icon: `i${id}`, sort_order });
  const rows = [c('1', null, 2), c('2', null, 1), c('11', '1', 0), c('12', '1', 0), c('111', '11', 0), c('99', 'removed', 0), c('991', '99', 0)];

  it('nests by parent, ordered by sortOrder then id, leaving out what hangs under a removed category', () => {
    const tree = categoryTree(rows, []);
    expect(tree.map((n) => n.id)).toEqual(['2', '1']);
    expect(tree[1]!.children.map((n) => n.id)).toEqual(['11', '12']);
    expect(tree[1]!.children[0]!.children.map((n) => n.id)).toEqual(['111']);
    expect(JSON.stringify(tree)).not.toContain('"99"');
  });

  it('counts the families under each node at any depth, with their lowest price', () => {
    const tree = categoryTree(rows, [
      { category_id: '111', families: 3, lowest_price: '19.90' },
      { category_id: '11', families: 1, lowest_price: '9.5' },
      { category_id: '12', families: 2, lowest_price: null },
      { category_id: '991', families: 5, lowest_price: '1.00' },
    ]);
    const one = tree[1]!;
    expect(one).toMatchObject({ id: '1', icon: 'i1', sortOrder: 2, familyCount: 6, lowestPrice: '9.5' });
    expect(one.children[0]).toMatchObject({ id: '11', familyCount: 4, lowestPrice: '9.5' });
    expect(one.children[1]).toMatchObject({ id: '12', familyCount: 2, lowestPrice: null });
    expect(tree[0]).toMatchObject({ id: '2', familyCount: 0, lowestPrice: null, children: [] });
  });

  it('tree-order lists the same children per parent, "root" for the top', () => {
    expect(treeOrder(['3', '1'], rows)).toEqual({ countries: ['3', '1'], categories: { root: ['2', '1'], '1': ['11', '12'], '11': ['111'] } });
  });
});

describe('home positions', () => {
  const item = (goodId: string): PublicGoodItem => ({ goodId, name: goodId, image: null, price: null, countryId: null, categoryId: null, tags: [], tagFontColor: null });
  it('one entry per family per position, the first good placed deciding where; non-public families left out', () => {
    const items = new Map([
      ['F1', item('F1')],
      ['F2', item('F2')],
    ]);
    const rows = [
      { position_id: 'p1', position_name: 'Hot', family_id: 'F2' },
      { position_id: 'p1', position_name: 'Hot', family_id: 'F1' },
      { position_id: 'p1', position_name: 'Hot', family_id: 'F2' },
      { position_id: 'p1', position_name: 'Hot', family_id: null },
      { position_id: 'p1', position_name: 'Hot', family_id: 'hidden' },
      { position_id: 'p2', position_name: 'Empty', family_id: null },
      { position_id: 'p3', position_name: 'Again', family_id: 'F2' },
    ];
    expect(homePositions(rows, items)).toEqual([
      { id: 'p1', name: 'Hot', items: [item('F2'), item('F1')] },
      { id: 'p2', name: 'Empty', items: [] },
      { id: 'p3', name: 'Again', items: [item('F2')] },
    ]);
  });
});
