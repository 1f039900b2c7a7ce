/**
 * The storefront's addresses (hash routes, so any static host serves it):
 * `#/`, `#/categories`, `#/list?…filters`, `#/goods/<familyId>?size=…&color=…`.
 */

export type Route = { name: 'home' } | { name: 'categories' } | { name: 'list'; filters: ListFilters } | { name: 'detail'; id: string; query: URLSearchParams };

export const SORTS = ['DEFAULT', 'NEWEST', 'PRICE_ASC', 'PRICE_DESC'] as const;
export type Sort = (typeof SORTS)[number];

/** What the list shows: the query of `GET /public/goods` without the page window (docs/api.md, Public). */
export interface ListFilters {
  sort: Sort;
  keyword: string;
  countryId: string | null;
  categoryId: string | null;
  tagIds: string[];
}

export function routeOf(hash: string): Route {
  const [p, q] = hash.replace(/^#\/?/, '').split('?');
  const parts = (p ?? '').split('/');
  const query = new URLSearchParams(q ?? '');
  if (parts[0] === 'categories') return { name: 'categories' };
  if (parts[0] === 'list') return { name: 'list', filters: filtersOf(query) };
  if (parts[0] === 'goods' && parts[1]) return { name: 'detail', id: decodeURIComponent(parts[1]), query };
  return { name: 'home' };
}

/**
 * The filters an address names. Values are passed on as they are, even malformed ones: the server
 * judges them, and the list then offers to clear what it refused.
 */
export function filtersOf(q: URLSearchParams): ListFilters {
  const sort = q.get('sort') ?? 'DEFAULT';
  return {
    sort: (SORTS as readonly string[]).includes(sort) ? (sort as Sort) : 'DEFAULT',
    keyword: q.get('keyword') ?? '',
    countryId: q.get('countryId') || null,
    categoryId: q.get('categoryId') || null,
    tagIds: (q.get('tagIds') ?? '').split(',').filter(Boolean),
  };
}

/** The query of these filters, in one order, empty values left out. */
export function filterQuery(f: Partial<ListFilters>): URLSearchParams {
  const q = new URLSearchParams();
  if (f.sort && f.sort !== 'DEFAULT') q.set('sort', f.sort);
  if (f.keyword) q.set('keyword', f.keyword);
  if (f.countryId) q.set('countryId', f.countryId);
  if (f.categoryId) q.set('categoryId', f.categoryId);
  if (f.tagIds?.length) q.set('tagIds', f.tagIds.join(','));
  return q;
}

export const listHref = (f: Partial<ListFilters>): string => {
  const q = filterQuery(f).toString();
  return q ? `#/list?${q}` : '#/list';
};

/** Whether any filter narrows the list (the sort does not). */
export const isFiltered = (f: ListFilters): boolean => !!(f.keyword || f.countryId || f.categoryId || f.tagIds.length);
