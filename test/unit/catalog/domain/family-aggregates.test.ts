import { createHash } from 'node:crypto';
import { FAMILY_AGGREGATE_RULES, computeFamilyAggregates, type FamilyAggregatesInput } from '../../../../src/catalog/domain/family-aggregates';
import type { MatrixLink } from '../../../../src/catalog/domain/matrix';
import type { DimensionValuesInput } from '../../../../src/catalog/domain/tags';
import type { LinkDetail } from '../../../../src/catalog/links/events';
import { stableJson } from '../../../../src/platform/content-hash';

/**
 * A family's stamp (src/catalog/families/recompute.ts) proves its aggregates right only while the
 * rules that computed them are the present ones, so any change to what `computeFamilyAggregates`
 * answers must come with a new FAMILY_AGGREGATE_RULES. This holds the answers for families that use
 * every part of the rules against a digest recorded with the version.
 */
const RECORDED = { rules: '2', digest: '962ef145805f72c9b84ed5c3b0762c5dc0fb42ddabb612427f52dd0dfbc48d32' };

const TEE: DimensionValuesInput = { size: ['M', 'L'], color: ['黑色', '白色'], printCount: ['单面印花'], craft: ['直喷'], logistics: ['包邮'] };
const detail = (price: string, extra: Partial<LinkDetail> = {}): LinkDetail => ({
  variants: [
    { sku: `A-${price}`, size: 'M', color: '黑色', price, stock: 3 },
    { sku: `B-${price}`, size: 'L', color: '白色', price: `${Number(price) + 2}`, stock: 0 },
  ],
  sizeChart: [{ size: 'M', chest: '100' }],
  packagingSpecs: [{ name: '单件', weightGrams: 200, lengthCm: 30, widthCm: 25, heightCm: 2 }],
  options: [{ name: '领口', values: ['圆领'] }],
  media: [
    { color: '黑色', url: `https://img.example/${price}/black.jpg`, sort: 1 },
    { color: '白色', url: `https://img.example/${price}/white.jpg`, sort: 2 },
  ],
  ...extra,
});
const link = (id: string, over: Partial<MatrixLink> = {}): MatrixLink => ({ id, organised: true, delisted: false, tags: TEE, listPrice: '39.90', detail: null, ...over });

const families: FamilyAggregatesInput[] = [
  { links: [], customMembers: [], overrides: [], goods: [], secondaryOrigins: [] },
  {
    links: [
      link('10', { detail: detail('41.5') }),
      link('9', { detail: detail('39', { options: [{ name: '领口', values: ['V领'] }], sizeChart: [{ size: 'L', chest: '106' }] }) }),
      link('8', { delisted: true, detail: detail('1') }),
      link('7', { organised: false }),
      link('6', { tags: { ...TEE, craft: ['不打印'], printCount: [], logistics: ['包邮', '海运'] } }),
    ],
    customMembers: [{ goodId: '500', tags: { size: ['XL'], color: ['黑色'], printCount: ['双面印花'], craft: ['烫画'], logistics: ['包邮'] }, price: '59' }],
    overrides: [
      { size: 'M', color: '黑色', printCount: '单面印花', craft: '直喷', logistics: '包邮', price: '35.00' },
      { size: 'XXS', color: '黑色', printCount: '单面印花', craft: '直喷', logistics: '包邮', price: '1' },
    ],
    goods: [
      { id: '500', goodPriority: 0, createdAt: new Date('2026-01-02T00:00:00Z'), onShelf: true },
      { id: '501', goodPriority: 5, createdAt: new Date('2026-01-01T00:00:00Z'), onShelf: true },
      // the newest of the highest priority, but off the shelf (下架): never the representative
      { id: '502', goodPriority: 5, createdAt: new Date('2026-01-03T00:00:00Z'), onShelf: false },
    ],
    secondaryOrigins: [{ id: '77', detail: detail('20', { options: [{ name: '袖长', values: ['短袖'] }], sizeChart: [{ size: 'S', chest: '90' }] }) }],
  },
];

describe('the family aggregate rules carry a version (docs/domain.md, Organisation)', () => {
  it('given families that use every rule, then their aggregates are the ones recorded with FAMILY_AGGREGATE_RULES', () => {
    const digest = createHash('sha256')
      .update(stableJson(families.map((f) => computeFamilyAggregates(f))))
      .digest('hex');
    // A failure here: the rules' answers changed. Change FAMILY_AGGREGATE_RULES, then record both.
    expect({ rules: FAMILY_AGGREGATE_RULES, digest }).toEqual(RECORDED);
  });

  it('the families are not trivial: conflicts, an invalid override, secondary origins and a representative', () => {
    const a = computeFamilyAggregates(families[1]!);
    expect(a.conflicts.length).toBeGreaterThan(0);
    expect(a.priceMatrix.invalidOverrides).toHaveLength(1);
    expect(a.representativeGoodId).toBe('501');
    expect(a.options.map((o) => o.name)).toEqual(['领口', '袖长']);
    expect(a.lowestPrice).not.toBeNull();
  });
});
