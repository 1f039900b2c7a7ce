import { sortFamilies, type ListSortKeys } from '../../../src/storefront/ordering';

const row = (id: string, k: Partial<ListSortKeys> = {}): ListSortKeys => ({
  id,
  country_rank: 1,
  category_rank: 1,
  priority: 0,
  created_us: 0,
  price_key: 10,
  ...k,
});
const ids = (rows: ListSortKeys[]) => rows.map((r) => r.id);

describe('public list orders', () => {
  it('DEFAULT: country, then category (middle, style), then priority desc, then family id; missing ranks last', () => {
    const rows = [
      row('5', { country_rank: null }),
      row('4', { country_rank: 2, category_rank: 1 }),
      row('3', { country_rank: 1, category_rank: null }),
      row('2', { country_rank: 1, category_rank: 2 }),
      row('10', { country_rank: 1, category_rank: 1, priority: 0 }),
      row('9', { country_rank: 1, category_rank: 1, priority: 0 }),
      row('1', { country_rank: 1, category_rank: 1, priority: 7.5 }),
    ];
    // '9' before '10': ids compare as numbers, not as text.
    expect(ids(sortFamilies(rows, 'DEFAULT'))).toEqual(['1', '9', '10', '2', '3', '4', '5']);
  });

  it('PRICE_ASC and PRICE_DESC: no price last either way, then the default order', () => {
    const rows = [row('1', { price_key: null }), row('2', { price_key: 30 }), row('3', { price_key: 10, country_rank: 2 }), row('4', { price_key: 10 })];
    expect(ids(sortFamilies([...rows], 'PRICE_ASC'))).toEqual(['4', '3', '2', '1']);
    expect(ids(sortFamilies([...rows], 'PRICE_DESC'))).toEqual(['2', '4', '3', '1']);
  });

  it('NEWEST: representative createdAt descending, then the default order', () => {
    const rows = [row('1', { created_us: 1 }), row('2', { created_us: 3, country_rank: 2 }), row('3', { created_us: 3 }), row('4', { created_us: 2 })];
    expect(ids(sortFamilies(rows, 'NEWEST'))).toEqual(['3', '2', '4', '1']);
  });

  it('is total: any input order gives the same list', () => {
    const rows = Array.from({ length: 60 }, (_, i) =>
      row(String(1000 - i), { country_rank: i % 3 || null, category_rank: i % 4, priority: i % 2, price_key: i % 5 ? i % 7 : null, created_us: i % 6 }),
    );
    for (const sort of ['DEFAULT', 'PRICE_ASC', 'PRICE_DESC', 'NEWEST'] as const) {
      const a = ids(sortFamilies([...rows], sort));
      const b = ids(sortFamilies([...rows].reverse(), sort));
      expect(b).toEqual(a);
    }
  });
});
