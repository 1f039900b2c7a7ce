import { z } from 'zod';
import { limitOffset, pageQuery, paged } from '../../../../src/platform/http/pagination';

describe('admin list paging', () => {
  it('defaults to page 1 of 50 and coerces query strings', () => {
    expect(pageQuery.parse({})).toEqual({ page: 1, pageSize: 50 });
    expect(pageQuery.parse({ page: '3', pageSize: '1000' })).toEqual({ page: 3, pageSize: 1000 });
  });

  it('refuses what it cannot honour rather than clamping', () => {
    for (const q of [{ pageSize: '1001' }, { pageSize: '0' }, { page: '0' }, { page: '1.5' }, { page: 'x' }, { extra: '1' }]) {
      expect([q, pageQuery.safeParse(q).success]).toEqual([q, false]);
    }
  });

  it('extended with a list filter, it stays strict', () => {
    const q = pageQuery.extend({ groupId: z.string().optional() });
    expect(q.safeParse({ groupId: '1' }).success).toBe(true);
    expect(q.safeParse({ other: '1' }).success).toBe(false);
  });

  it('answers {items, total, page, pageSize} and the SQL window', () => {
    expect(paged(['a'], 7, 2, 5)).toEqual({ items: ['a'], total: 7, page: 2, pageSize: 5 });
    expect(limitOffset({ page: 3, pageSize: 20 })).toEqual({ limit: 20, offset: 40 });
  });
});
