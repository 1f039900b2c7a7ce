/**
 * The storefront's addresses (hash routes, so any static host serves it):
 * `#/`, `#/categories`, `#/list?…filters`, `#/goods/<familyId>?size=…&color=…`.
 * A product also has an address of its own, `goods/<familyId>` under the storefront's base
 * (`/v2/h5/goods/<familyId>`): the link its 分享 hands out, whose page the service serves with the
 * product's preview (name, price, picture) for the apps that show one (docs/api.md, Storefront pages).
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

/** The storefront's base path, as built (`/v2/h5/`). */
const BASE = import.meta.env.BASE_URL;

/** A product's own address: the link a shopper shares. */
export const productLink = (id: string): string => `${window.location.origin}${BASE}goods/${encodeURIComponent(id)}`;

/**
 * Opened at a product's own address (a shared link): the same page at its hash address instead, so
 * every other address of the storefront stays relative to one base. The preview was in the page the
 * link fetched; nothing is fetched again.
 */
export function fromProductLink(): void {
  const m = /\/goods\/([^/?#]+)\/?$/.exec(window.location.pathname);
  if (!m || !window.location.pathname.startsWith(BASE) || window.location.hash.replace(/^#\/?/, '') !== '') return;
  history.replaceState(history.state, '', `${BASE}${window.location.search}#/goods/${m[1]}`);
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
