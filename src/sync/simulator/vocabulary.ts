/**
 * The fixed vocabulary of the simulated supplier, a Chinese print-on-demand apparel wholesaler:
 * countries, the category tree, product names, style codes, print descriptors, sizes and colours.
 * The seed decides how these are combined into links, never the vocabulary itself.
 */

/** Listed in id order ("1".."N"); `weight` is the share of product families sold to that country. */
export const COUNTRIES = [
  { name: '美国', code: 'US', weight: 40 },
  { name: '英国', code: 'GB', weight: 12 },
  { name: '德国', code: 'DE', weight: 10 },
  { name: '法国', code: 'FR', weight: 7 },
  { name: '加拿大', code: 'CA', weight: 9 },
  { name: '澳大利亚', code: 'AU', weight: 8 },
  { name: '日本', code: 'JP', weight: 6 },
  { name: '意大利', code: 'IT', weight: 3 },
  { name: '西班牙', code: 'ES', weight: 3 },
  { name: '墨西哥', code: 'MX', weight: 2 },
] as const;

/** What a style-level category sells; it decides sizes, measurements, weights and prices of details. */
export type ProductKind = 'tee' | 'longTee' | 'hoodie' | 'pants' | 'shorts' | 'bag' | 'pillow' | 'apron';

/** How a category carries its icon: a URL, an empty string, or no `icon` field at all. */
export type IconForm = 'url' | 'empty' | 'absent';

export interface CategoryDef {
  id: number;
  parentId: number | null;
  name: string;
  icon: IconForm;
  sort: number;
}

export interface StyleDef extends CategoryDef {
  kind: ProductKind;
  /** Product names sold in this style; a family's name is an optional prefix plus one of these. */
  bases: readonly string[];
  /** Real-world style codes; each catalog adds generated ones on top. */
  skus: readonly string[];
}

export const TOP_CATEGORIES: readonly CategoryDef[] = [
  { id: 101, parentId: null, name: '服装', icon: 'url', sort: 1 },
  { id: 102, parentId: null, name: '箱包', icon: 'url', sort: 2 },
  { id: 103, parentId: null, name: '家居', icon: 'url', sort: 3 },
];

export const MIDDLE_CATEGORIES: readonly CategoryDef[] = [
  { id: 201, parentId: 101, name: 'T恤', icon: 'url', sort: 1 },
  { id: 202, parentId: 101, name: '卫衣', icon: 'empty', sort: 2 },
  { id: 203, parentId: 101, name: '裤装', icon: 'absent', sort: 3 },
  { id: 204, parentId: 102, name: '帆布袋', icon: 'url', sort: 1 },
  { id: 205, parentId: 102, name: '背包', icon: 'absent', sort: 2 },
  { id: 206, parentId: 103, name: '抱枕', icon: 'url', sort: 1 },
  { id: 207, parentId: 103, name: '围裙', icon: 'absent', sort: 2 },
];

/**
 * Style-level names are as dirty as the real supplier's: model qualifiers and descriptive brackets in
 * both widths, mixed pairs, a name that is only a bracket. Every row of docs/domain.md's category table
 * is here verbatim (301, 302, 303, 304, 307).
 */
export const STYLE_CATEGORIES: readonly StyleDef[] = [
  {
    id: 301,
    parentId: 201,
    name: '短袖T恤(G5000)',
    icon: 'absent',
    sort: 1,
    kind: 'tee',
    bases: ['纯棉短袖T恤', '短袖T恤', '纯棉短袖T恤（加厚款）'],
    skus: ['G5000', 'G500', '5000'],
  },
  { id: 302, parentId: 201, name: 'G5000 短袖T恤 (美版)', icon: 'empty', sort: 2, kind: 'tee', bases: ['美版短袖T恤', '短袖T恤'], skus: ['G5000', 'G64000'] },
  { id: 303, parentId: 201, name: 'T恤（男款) 修身', icon: 'url', sort: 3, kind: 'tee', bases: ['男款修身T恤', '修身T恤'], skus: ['PC54', 'DT6000-2', '64000'] },
  { id: 304, parentId: 201, name: '(美版)', icon: 'absent', sort: 4, kind: 'tee', bases: ['美版宽松T恤'], skus: ['G2000', '2000'] },
  { id: 305, parentId: 201, name: '长袖T恤（秋季款）', icon: 'empty', sort: 5, kind: 'longTee', bases: ['长袖T恤', '纯棉长袖T恤'], skus: ['G5400', 'G2400'] },
  { id: 306, parentId: 201, name: '重磅T恤(DT6000)', icon: 'url', sort: 6, kind: 'tee', bases: ['重磅短袖T恤', '重磅纯棉T恤'], skus: ['DT6000', 'DT6000-2', 'DT6000-3'] },
  { id: 307, parentId: 202, name: '卫衣（加绒款）', icon: 'absent', sort: 1, kind: 'hoodie', bases: ['加绒卫衣', '加绒圆领卫衣'], skus: ['G18000', '18000', 'JH030'] },
  { id: 308, parentId: 202, name: '连帽卫衣(G18500)', icon: 'url', sort: 2, kind: 'hoodie', bases: ['连帽卫衣', '加厚连帽卫衣'], skus: ['G18500', '18500', 'JH001'] },
  { id: 309, parentId: 202, name: '圆领卫衣 (18000)', icon: 'empty', sort: 3, kind: 'hoodie', bases: ['圆领卫衣'], skus: ['18000', 'G18000'] },
  { id: 310, parentId: 203, name: '卫裤（束脚）', icon: 'absent', sort: 1, kind: 'pants', bases: ['束脚卫裤', '运动卫裤'], skus: ['G18400', 'JH075'] },
  { id: 311, parentId: 203, name: '运动短裤', icon: 'url', sort: 2, kind: 'shorts', bases: ['运动短裤', '纯棉短裤'], skus: ['ST355', '4402'] },
  { id: 312, parentId: 204, name: '帆布袋(TB01)', icon: 'absent', sort: 1, kind: 'bag', bases: ['帆布袋', '单肩帆布袋'], skus: ['TB01', 'TB02'] },
  { id: 313, parentId: 204, name: '托特包（大号）', icon: 'empty', sort: 2, kind: 'bag', bases: ['托特包', '大号托特包'], skus: ['TB05', 'BE008'] },
  { id: 314, parentId: 205, name: '双肩包', icon: 'url', sort: 1, kind: 'bag', bases: ['双肩包', '帆布双肩包'], skus: ['BG200', '1830'] },
  { id: 315, parentId: 206, name: '抱枕套(45x45)', icon: 'absent', sort: 1, kind: 'pillow', bases: ['抱枕套', '方形抱枕套'], skus: ['PL45', 'PL4545'] },
  { id: 316, parentId: 207, name: '围裙（可调节）', icon: 'empty', sort: 1, kind: 'apron', bases: ['围裙', '帆布围裙'], skus: ['AP01', 'AP02'] },
];

/** Prefixes that multiply the product names, so a large catalog has many distinct families. */
export const NAME_PREFIXES = [
  '',
  '',
  '',
  '纯色',
  '情侣',
  '亲子',
  '复古',
  '宽松',
  '潮牌',
  '简约',
  '个性定制',
  '印花',
  '儿童',
  '女款',
  '男款',
  '大码',
  '圣诞',
  '万圣节',
  '毕业季',
  '团体',
  '班服',
  '工作服',
] as const;

/** Letter parts of generated style codes; '' gives all-digit codes such as `18500`. */
export const SKU_LETTERS = ['G', 'DT', 'JH', 'AS', 'B', 'PC', 'TB', '', 'ZY', 'HX', 'BC', 'NL'] as const;

export const LOGISTICS = [
  { name: '包邮', weight: 50, priceDelta: 500 },
  { name: '不包邮', weight: 35, priceDelta: 0 },
  { name: '海运', weight: 15, priceDelta: -200 },
] as const;

/**
 * The trailing descriptors of link names. `craft` is the raw craft label the supplier usually sends
 * with such a link (null: the name says nothing, the label is a guess or empty).
 */
export const DESCRIPTORS = [
  { text: '直喷双面', craft: '直喷', weight: 14, priceDelta: 800 },
  { text: '直喷单面', craft: '直喷', weight: 10, priceDelta: 0 },
  { text: '直喷', craft: '直喷', weight: 10, priceDelta: 0 },
  { text: '烫画', craft: '烫画', weight: 12, priceDelta: 0 },
  { text: '烫画双面', craft: '烫画', weight: 5, priceDelta: 800 },
  { text: '光板', craft: '光板', weight: 8, priceDelta: -600 },
  { text: '热转印单面', craft: '热转印', weight: 6, priceDelta: 200 },
  { text: '热转印', craft: '热转印', weight: 4, priceDelta: 200 },
  { text: '单面', craft: null, weight: 5, priceDelta: 0 },
  { text: '双面', craft: null, weight: 4, priceDelta: 800 },
  { text: '', craft: null, weight: 8, priceDelta: 0 },
] as const;

/** Opening and closing bracket of the first segment: mostly full-width, sometimes half or mixed. */
export const BRACKETS = [
  { open: '（', close: '）', weight: 70 },
  { open: '(', close: ')', weight: 10 },
  { open: '(', close: '）', weight: 12 },
  { open: '（', close: ')', weight: 8 },
] as const;

export const COLORS = [
  { name: '黑色', code: 'BLK' },
  { name: '白色', code: 'WHT' },
  { name: '灰色', code: 'GRY' },
  { name: '藏青', code: 'NVY' },
  { name: '红色', code: 'RED' },
  { name: '军绿', code: 'OLV' },
  { name: '卡其', code: 'KHK' },
  { name: '粉色', code: 'PNK' },
  { name: '宝蓝', code: 'RBL' },
  { name: '酒红', code: 'MRN' },
  { name: '米白', code: 'CRM' },
  { name: '浅蓝', code: 'LBL' },
] as const;

export const APPAREL_SIZES = ['XS', 'S', 'M', 'L', 'XL', '2XL', '3XL'] as const;

export interface KindDef {
  /** Sizes the kind can come in; apparel families take a contiguous run of them. */
  sizes: readonly string[];
  /** Measurement columns of the size chart, each with its value at the first size and its step. */
  measurements: readonly { name: string; first: number; step: number }[];
  /** Family list prices are drawn from this range, in cents. */
  priceCents: readonly [number, number];
  weightGrams: number;
  /** Folded single-item parcel, in cm. */
  parcel: readonly [number, number, number];
  /** Colours it comes in (codes). */
  colors: readonly string[];
  options: readonly { name: string; values: readonly string[] }[];
}

const APPAREL_COLORS = COLORS.map((c) => c.code);
const CANVAS_COLORS = ['CRM', 'BLK', 'KHK', 'OLV', 'NVY'];

export const KINDS: Record<ProductKind, KindDef> = {
  tee: {
    sizes: APPAREL_SIZES,
    measurements: [
      { name: 'chest', first: 88, step: 6 },
      { name: 'length', first: 66, step: 2 },
      { name: 'sleeve', first: 18, step: 1 },
    ],
    priceCents: [2490, 4490],
    weightGrams: 180,
    parcel: [30, 25, 2],
    colors: APPAREL_COLORS,
    options: [
      { name: '领标', values: ['有', '无'] },
      { name: '包装', values: ['OPP袋', '简装'] },
    ],
  },
  longTee: {
    sizes: APPAREL_SIZES,
    measurements: [
      { name: 'chest', first: 90, step: 6 },
      { name: 'length', first: 66, step: 2 },
      { name: 'sleeve', first: 58, step: 1 },
    ],
    priceCents: [3490, 5490],
    weightGrams: 240,
    parcel: [30, 25, 3],
    colors: APPAREL_COLORS,
    options: [{ name: '领标', values: ['有', '无'] }],
  },
  hoodie: {
    sizes: APPAREL_SIZES,
    measurements: [
      { name: 'chest', first: 100, step: 6 },
      { name: 'length', first: 66, step: 2 },
      { name: 'sleeve', first: 60, step: 1 },
    ],
    priceCents: [5990, 8990],
    weightGrams: 550,
    parcel: [35, 30, 6],
    colors: APPAREL_COLORS,
    options: [
      { name: '领标', values: ['有', '无'] },
      { name: '抽绳', values: ['有', '无'] },
    ],
  },
  pants: {
    sizes: APPAREL_SIZES,
    measurements: [
      { name: 'waist', first: 64, step: 4 },
      { name: 'hip', first: 96, step: 4 },
      { name: 'length', first: 96, step: 2 },
    ],
    priceCents: [4490, 6990],
    weightGrams: 400,
    parcel: [35, 30, 4],
    colors: APPAREL_COLORS,
    options: [],
  },
  shorts: {
    sizes: APPAREL_SIZES,
    measurements: [
      { name: 'waist', first: 64, step: 4 },
      { name: 'length', first: 44, step: 2 },
    ],
    priceCents: [2490, 3990],
    weightGrams: 200,
    parcel: [30, 25, 2],
    colors: APPAREL_COLORS,
    options: [],
  },
  bag: {
    sizes: ['均码'],
    measurements: [
      { name: 'width', first: 38, step: 0 },
      { name: 'height', first: 42, step: 0 },
      { name: 'depth', first: 10, step: 0 },
    ],
    priceCents: [1490, 3490],
    weightGrams: 150,
    parcel: [40, 30, 1],
    colors: CANVAS_COLORS,
    options: [{ name: '内袋', values: ['有', '无'] }],
  },
  pillow: {
    sizes: ['40x40cm', '45x45cm', '50x50cm'],
    measurements: [
      { name: 'width', first: 40, step: 5 },
      { name: 'height', first: 40, step: 5 },
    ],
    priceCents: [1590, 2990],
    weightGrams: 200,
    parcel: [30, 30, 3],
    colors: ['WHT', 'CRM', 'GRY', 'BLK'],
    options: [{ name: '填充', values: ['含枕芯', '仅枕套'] }],
  },
  apron: {
    sizes: ['均码'],
    measurements: [
      { name: 'width', first: 70, step: 0 },
      { name: 'length', first: 80, step: 0 },
    ],
    priceCents: [1990, 2990],
    weightGrams: 180,
    parcel: [30, 25, 2],
    colors: CANVAS_COLORS,
    options: [{ name: '口袋', values: ['单口袋', '双口袋'] }],
  },
};

/** Larger apparel sizes cost a little more, so variant prices sometimes differ from the list price. */
export const SIZE_SURCHARGE_CENTS: Readonly<Record<string, number>> = { '2XL': 300, '3XL': 500 };

/** Base of `updatedAt`: generated links were changed at some time in the half year before it. */
export const CATALOG_EPOCH = Date.parse('2026-11-01T08:00:00Z');
