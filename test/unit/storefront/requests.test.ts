import { AppError } from '../../../src/platform/errors';
import { parseQuery } from '../../../src/platform/http/validate';
import { listCacheKey, listSpecOf, publicGoodsQuery } from '../../../src/storefront/requests';

const parse = (q: Record<string, unknown>) => parseQuery(publicGoodsQuery, q);

describe('public goods list query', () => {
  it('defaults to page 1 of 20 in the DEFAULT order, without filters', () => {
    expect(parse({})).toEqual({ page: 1, pageSize: 20, sort: 'DEFAULT' });
  });

  it('takes the filters of docs/api.md', () => {
    expect(parse({ page: '2', pageSize: '100', sort: 'PRICE_DESC', countryId: '1', categoryId: '301', tagIds: '7, 3,7', keyword: '  短袖   T恤 ' })).toEqual({
      page: 2,
      pageSize: 100,
      sort: 'PRICE_DESC',
      countryId: '1',
      categoryId: '301',
      tagIds: ['3', '7'],
      keyword: '短袖 T恤',
    });
  });

  it('treats an empty tag list and a blank keyword as no filter', () => {
    expect(listSpecOf(parse({ tagIds: '', keyword: '   ' }))).toEqual({ sort: 'DEFAULT', countryId: null, categoryId: null, tagIds: [], keyword: null });
  });

  it.each([
    [{ pageSize: '101' }],
    [{ pageSize: '0' }],
    [{ page: '0' }],
    [{ page: '1.5' }],
    [{ sort: 'CHEAPEST' }],
    [{ sort: 'price_asc' }],
    [{ countryId: 'us' }],
    [{ categoryId: '-1' }],
    [{ tagIds: '1,,2' }],
    [{ tagIds: '1,abc' }],
    [{ tagIds: '9223372036854775808' }],
    [{ tagIds: Array.from({ length: 21 }, (_, i) => i + 1).join(',') }],
    [{ keyword: 'x'.repeat(101) }],
    [{ page: ['1', '2'] }],
    [{ tagIds: ['1', '2'] }],
    [{ unknown: '1' }],
  ])('refuses %j with a 400', (q) => {
    expect(() => parse(q)).toThrow(AppError);
    try {
      parse(q);
    } catch (e) {
      expect((e as AppError).status).toBe(400);
    }
  });

  it('keys the cache by filters and sort, never by the page window or the order of tag ids', () => {
    const key = (q: Record<string, unknown>) => listCacheKey(listSpecOf(parse(q)), typeof q.keyword === 'string' ? `folded ${q.keyword}` : null);
    expect(key({ page: '1' })).toBe(key({ page: '7', pageSize: '50' }));
    expect(key({ tagIds: '2,1' })).toBe(key({ tagIds: '1,2,2' }));
    expect(key({})).not.toBe(key({ sort: 'NEWEST' }));
    expect(key({ countryId: '1' })).not.toBe(key({ categoryId: '1' }));
    // The keyword counts as the database folds it (src/storefront/keywords.ts): the fold decides.
    expect(key({ keyword: 'a' })).not.toBe(key({ keyword: 'A' }));
    expect(listCacheKey(listSpecOf(parse({ keyword: 'T恤' })), '%t恤%')).toBe(listCacheKey(listSpecOf(parse({ keyword: 't恤' })), '%t恤%'));
    expect(key({ keyword: '   ' })).toBe(key({}));
  });
});
