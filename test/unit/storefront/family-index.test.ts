import { changedFamilies } from '../../../src/storefront/family-index';

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
