/**
 * The public storefront reads (docs/api.md, "Public" and "Public read caching", rules 1–8), shared by
 * the express routes (./routes.ts) and the fast path (./fast-path.ts). No authentication. Every answer
 * comes through the public cache (PublicCache), serialised once per cache entry, with a strong ETag;
 * If-None-Match answers 304.
 *
 * Cache domains per endpoint. What bumps them: the catalog projection (links, families, goods) bumps
 * goods, matrix and meta with each commit that touched a family (docs/api.md, rule 7); catalog_tree
 * (categories, countries), tags (tags, tag groups) and positions bump meta and goods. An endpoint
 * names every domain whose data it shows, so it stays right even if a projection's list narrows later:
 *   GET /public/goods             goods, matrix, meta   representatives (goods), lowest prices (matrix),
 *                                                       country/category order and tag names (meta)
 *   GET /public/goods/:goodId     goods, matrix, meta   representative fields, matrix, unions, media, tag
 *                                                       names and the size/colour tag order (meta)
 *   GET /public/home              goods, matrix, meta   positions (meta), their families' items
 *   GET /public/categories/tree   goods, matrix, meta   categories and icons (meta), family counts
 *                                                       (goods), lowest prices (matrix)
 *   GET /public/tag-groups        goods, meta           groups and tags (meta), family counts (goods)
 *   GET /public/tree-order        meta                  country and category order
 *   GET /public/countries         goods, meta           countries (meta), family counts (goods)
 *
 * Cache-Control: `public, max-age=0, must-revalidate`. A write must show on the very next request
 * (caching rule 2: an admin command answers only once this process's cache has forgotten the old
 * value, and other processes check the versions, see ./freshness.ts), so no browser or proxy may
 * reuse a response without asking; but every response carries a strong ETag, so asking is cheap: an
 * unchanged resource costs a 304 without a body, answered from the in-process cache. `public`:
 * nothing here depends on who asks, so shared caches may keep it too (and must revalidate it).
 */
import type { Config } from '../config';
import type { CacheDomain, PublicCache } from '../platform/cache/public-cache';
import type { Pool } from '../platform/db';
import { NO_QUERY, parseQuery } from '../platform/http/validate';
import { parseId } from '../platform/ids';
import type { Logger } from '../platform/log';
import { prepareSearch, suggestCategories } from '../catalog/search';
import type { CategorySuggestion } from '../contract/page';
import { FamilyIndex } from './family-index';
import { FreshnessGate } from './freshness';
import { KeywordFolds } from './keywords';
import { ListItemBytes } from './list-bytes';
import { loadCategoryTree, loadCountries, loadGoodDetail, loadGoodsList, loadHome, loadTagGroups, loadTreeOrder } from './queries';
import { listCacheKey, listSpecOf, publicGoodsQuery } from './requests';

export const PUBLIC_CACHE_CONTROL = 'public, max-age=0, must-revalidate';

export const PUBLIC_DOMAINS = {
  goodsList: ['goods', 'matrix', 'meta'],
  goodDetail: ['goods', 'matrix', 'meta'],
  home: ['goods', 'matrix', 'meta'],
  categoryTree: ['goods', 'matrix', 'meta'],
  tagGroups: ['goods', 'meta'],
  treeOrder: ['meta'],
  countries: ['goods', 'meta'],
} as const satisfies Record<string, readonly CacheDomain[]>;

/** What a public GET reads: its cache entry, how to load it, and for a list the page to cut from it. */
export interface PublicRead {
  key: string;
  domains: readonly CacheDomain[];
  load: () => Promise<unknown>;
  page?: { page: number; pageSize: number };
  /** For a list searched by keyword: the categories to suggest when it is empty (docs/api.md, Paging). */
  suggest?: () => Promise<CategorySuggestion[]>;
}

/** What the public reads are served from: the read models, this process's cache and storefront state, its settings. */
export interface StorefrontDeps {
  pool: Pool;
  cache: PublicCache;
  log: Logger;
  config: Pick<Config, 'publicCache'>;
  storefront: StorefrontState;
}

/**
 * The public read routes, each mapping a request (path parameters, query) to its read. The express
 * routes below and the fast path (./fast-path.ts) both serve from this table, so a cache entry is
 * the same whichever way a request comes. `read` throws a 4xx AppError on bad input.
 */
export const PUBLIC_ROUTES: readonly {
  path: string;
  /** Throws the 400 of bad input before anything is awaited; a list with a keyword awaits its fold. */
  read(s: StorefrontDeps, params: Record<string, string>, query: unknown): PublicRead | Promise<PublicRead>;
}[] = [
  {
    path: '/public/goods',
    read(s, _params, query) {
      const q = parseQuery(publicGoodsQuery, query);
      const spec = listSpecOf(q);
      // The cache holds the whole materialised list of this (filters, sort); the page is cut per request.
      const read = (folded: string | null): PublicRead => ({
        key: listCacheKey(spec, folded),
        domains: PUBLIC_DOMAINS.goodsList,
        load: () => loadGoodsList(s.pool, spec, s.storefront),
        page: { page: q.page, pageSize: q.pageSize },
        ...(spec.keyword === null ? {} : { suggest: () => prepareSearch(s.pool, spec.keyword!).then((search) => suggestCategories(s.pool, search)) }),
      });
      return spec.keyword === null ? read(null) : s.storefront.keywords.fold(spec.keyword).then(read);
    },
  },
  {
    path: '/public/goods/:goodId',
    read(s, params, query) {
      parseQuery(NO_QUERY, query);
      const id = parseId(params.goodId, 'goodId');
      // Not found is not cached: the load throws, the flight ends, nothing is stored.
      return { key: JSON.stringify(['public-good', id]), domains: PUBLIC_DOMAINS.goodDetail, load: () => loadGoodDetail(s.pool, id) };
    },
  },
  whole('/public/home', '["public-home"]', PUBLIC_DOMAINS.home, loadHome),
  whole('/public/categories/tree', '["public-category-tree"]', PUBLIC_DOMAINS.categoryTree, loadCategoryTree),
  whole('/public/tag-groups', '["public-tag-groups"]', PUBLIC_DOMAINS.tagGroups, loadTagGroups),
  whole('/public/tree-order', '["public-tree-order"]', PUBLIC_DOMAINS.treeOrder, loadTreeOrder),
  whole('/public/countries', '["public-countries"]', PUBLIC_DOMAINS.countries, (pool, state) => loadCountries(pool, state.families)),
];

/** A read that takes no parameter: one cache entry; any query key is a 400 (docs/api.md, Conventions), on the fast lane too. */
function whole(path: string, key: string, domains: readonly CacheDomain[], load: (pool: Pool, state: StorefrontState) => Promise<unknown>): (typeof PUBLIC_ROUTES)[number] {
  return {
    path,
    read(s, _params, query) {
      parseQuery(NO_QUERY, query);
      return { key, domains, load: () => load(s.pool, s.storefront) };
    },
  };
}

/**
 * What a process's storefront keeps between requests, built once by the composition root and shared
 * by every storefront router and the fast path: the freshness gate (./freshness.ts), the public
 * families' list keys (./family-index.ts), the list's kept items (./list-bytes.ts) and the keywords'
 * folds (./keywords.ts).
 */
export class StorefrontState {
  readonly listItems = new ListItemBytes();
  readonly families = new FamilyIndex();
  readonly gate: FreshnessGate;
  readonly keywords: KeywordFolds;

  constructor(s: { pool: Pool; cache: PublicCache; log: Logger }) {
    this.keywords = new KeywordFolds(s.pool);
    let lastWarning = 0;
    this.gate = new FreshnessGate(
      async () => {
        const r = await s.pool.query<{ domain: string; version: string }>(`SELECT domain, version FROM cache_domains`);
        s.cache.syncVersions(Object.fromEntries(r.rows.map((x) => [x.domain, x.version])));
      },
      (e) => {
        // At most one warning a minute: a database outage would otherwise log once per request.
        if (Date.now() - lastWarning < 60_000) return;
        lastWarning = Date.now();
        s.log.warn({ err: e }, 'public cache: could not read cache_domains; serving on notifications alone');
      },
    );
  }
}
