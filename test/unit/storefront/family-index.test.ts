import { changedFamilies, patchOrder, type FamilyKeys } from '../../../src/storefront/family-index';
import { sortFamilies } from '../../../src/storefront/ordering';
import type { PublicSort } from '../../../src/storefront/requests';

const v = (version: number, families: string[] | null) => ({ version: BigInt(version), families });

describe('changedFamilies: what a sync of the family index reads again', () => {
  it('joins the families of every version after the one held, up to the head', () => {
    expect(changedFamilies(4n, 6n, [v(5, ['1', '2']), v(6, ['2', '3'])])).toEqual(new Set(['1', '2', '3']));
    expect(changedFamilies(4n, 5n, [v(5, [])])).toEqual(new Set());
    expect(changedFamilies(7n, 7n, [])).toEqual(new Set());
  });

  it('says nothing (every family is read) when the record is incomplete', () => {
    expect(changedFamilies(4n, 6n, [v(6, ['1'])])).toBeNull(); // version 5 has no row
    expect(changedFamilies(4n, 6n, [v(5, ['1'])])).toBeNull(); // the head is past the last row
    expect(changedFamilies(4n, 5n, [v(5, null)])).toBeNull(); // a rebuild's swap
    expect(changedFamilies(4n, 3n, [])).toBeNull(); // the versions went back
  });
});

describe('patchOrder: a kept order after a sync, without sorting it again', () => {
  const family = (id: number, over: Partial<FamilyKeys> = {}): FamilyKeys => ({
    id: `${id}`,
    item_hash: `h${id}`,
    country_id: `${id % 3}`,
    category_id: `${id % 5}`,
    country_rank: id % 3 === 2 ? null : id % 3,
    category_rank: id % 5,
    priority: id % 7,
    created_us: (id * 7919) % 1000,
    price_key: id % 4 === 0 ? null : (id * 31) % 97,
    ...over,
  });
  const SORTS: PublicSort[] = ['DEFAULT', 'PRICE_ASC', 'PRICE_DESC', 'NEWEST'];
  const ids = (rows: readonly FamilyKeys[]) => rows.map((r) => r.id);

  it.each(SORTS)('%s: equals sorting the families after the change, whatever moved', (sort) => {
    const before = sortFamilies(
      Array.from({ length: 200 }, (_, i) => family(i + 1)),
      sort,
    );
    const renamed = family(17, { item_hash: 'renamed' });
    const repriced = family(40, { price_key: 1 });
    const reprioritised = family(99, { priority: 100 });
    const added = family(500);
    const moved = new Set(['40', '99', '150', '500']); // 150: no longer public
    const fresh = [repriced, reprioritised, added];
    const after = patchOrder(before, sort, moved, new Map([['17', renamed]]), fresh);
    const expected = sortFamilies([...before.filter((r) => !moved.has(r.id) && r.id !== '17'), renamed, ...fresh], sort);
    expect(ids(after)).toEqual(ids(expected));
    expect(after.find((r) => r.id === '17')).toBe(renamed);
    expect(ids(before)).toEqual(ids(sortFamilies([...before], sort))); // the kept order is not changed
  });

  it('places many changed families by sorting, with the same result', () => {
    const before = sortFamilies(
      Array.from({ length: 300 }, (_, i) => family(i + 1)),
      'DEFAULT',
    );
    const fresh = Array.from({ length: 100 }, (_, i) => family(i * 3 + 1, { priority: (i * 13) % 11 }));
    const moved = new Set(fresh.map((r) => r.id));
    const after = patchOrder(before, 'DEFAULT', moved, new Map(), fresh);
    expect(ids(after)).toEqual(ids(sortFamilies([...before.filter((r) => !moved.has(r.id)), ...fresh], 'DEFAULT')));
  });
});
