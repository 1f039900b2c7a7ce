/**
 * The public storefront read API (API.md "Public"; spec section 4 "Public read" and caching rules
 * 1–8). No authentication. Every answer comes through the public cache (PublicCache), serialised
 * once per cache entry, with a strong ETag; If-None-Match answers 304.
 *
 * Cache domains per endpoint. What bumps them: the catalog projection (links, families, goods) bumps
 * goods, matrix and meta; catalog_tree (categories, countries), tags (tags, tag groups) and positions
 * bump meta and goods. An endpoint names every domain whose data it shows, so it stays right even if
 * a projection's list narrows later:
 *   GET /public/goods             goods, matrix, meta   representatives (goods), lowest prices (matrix),
 *                                                       country/category order and tag names (meta)
 *   GET /public/goods/:goodId     goods, matrix, meta   representative fields, matrix, unions, media, tag
 *                                                       names and the size/colour tag order (meta)
 *   GET /public/home              goods, matrix, meta   positions (meta), their families' items
 *   GET /public/categories/tree   goods, matrix, meta   categories and icons (meta), family counts
 *                                                       (goods), lowest prices (matrix)
 *   GET /public/tag-groups        goods, meta           groups and tags (meta), family counts (goods)
 *   GET /public/tree-order        meta                  country and category order
 *   GET /public/countries         meta                  countries
 *
 * Cache-Control: `public, max-age=0, must-revalidate`. A write must show on the very next request
 * (caching rule 2: an admin command answers only once this process's cache has forgotten the old
 * value, and other processes check the versions, see ./freshness.ts), so no browser or proxy may
 * reuse a response without asking; but every response carries a strong ETag, so asking is cheap: an
 * unchanged resource costs a 304 without a body, answered from the in-process cache. `public`:
 * nothing here depends on who asks, so shared caches may keep it too (and must revalidate it).
 */
import { Router } from 'express';
import type { Services } from '../main';
import type { CacheDomain, CachedResponse } from '../platform/cache/public-cache';
import { sendCached } from '../platform/cache/http';
import { parseQuery } from '../platform/http/validate';
import { parseId } from '../platform/ids';
import { FreshnessGate } from './freshness';
import { pageOf } from './page-slice';
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
  countries: ['meta'],
} as const satisfies Record<string, readonly CacheDomain[]>;

export interface StorefrontOptions {
  /**
   * Check the domain versions in the database before serving (./freshness.ts). On by default; off
   * only where a single process is measured against itself (the bench prints both).
   */
  crossProcessFreshness?: boolean;
}

/** The gate of a process, shared by every storefront router built on the same services. */
const gates = new WeakMap<Services, FreshnessGate>();

export function freshnessGateOf(s: Services): FreshnessGate {
  let gate = gates.get(s);
  if (!gate) {
    let lastWarning = 0;
    gate = new FreshnessGate(
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
    gates.set(s, gate);
  }
  return gate;
}

export function storefrontRoutes(s: Services, opts: StorefrontOptions = {}): Router {
  const r = Router();
  const gate = opts.crossProcessFreshness === false || s.config.publicCache.disabled ? null : freshnessGateOf(s);
  const cached = async (key: string, domains: readonly CacheDomain[], load: () => Promise<unknown>): Promise<CachedResponse> => {
    if (gate) await gate.fresh();
    return s.cache.get(key, domains, load);
  };

  r.get('/public/goods', async (req, res) => {
    const q = parseQuery(publicGoodsQuery, req.query);
    const spec = listSpecOf(q);
    // The cache holds the whole materialised list of this (filters, sort); the page is cut per request.
    const list = await cached(listCacheKey(spec), PUBLIC_DOMAINS.goodsList, () => loadGoodsList(s.pool, spec));
    sendCached(req, res, pageOf(list, q.page, q.pageSize), PUBLIC_CACHE_CONTROL);
  });

  r.get('/public/goods/:goodId', async (req, res) => {
    const id = parseId(req.params.goodId, 'goodId');
    // Not found is not cached: the load throws, the flight ends, nothing is stored.
    sendCached(req, res, await cached(JSON.stringify(['public-good', id]), PUBLIC_DOMAINS.goodDetail, () => loadGoodDetail(s.pool, id)), PUBLIC_CACHE_CONTROL);
  });

  r.get('/public/home', async (req, res) => {
    sendCached(req, res, await cached('["public-home"]', PUBLIC_DOMAINS.home, () => loadHome(s.pool)), PUBLIC_CACHE_CONTROL);
  });

  r.get('/public/categories/tree', async (req, res) => {
    sendCached(req, res, await cached('["public-category-tree"]', PUBLIC_DOMAINS.categoryTree, () => loadCategoryTree(s.pool)), PUBLIC_CACHE_CONTROL);
  });

  r.get('/public/tag-groups', async (req, res) => {
    sendCached(req, res, await cached('["public-tag-groups"]', PUBLIC_DOMAINS.tagGroups, () => loadTagGroups(s.pool)), PUBLIC_CACHE_CONTROL);
  });

  r.get('/public/tree-order', async (req, res) => {
    sendCached(req, res, await cached('["public-tree-order"]', PUBLIC_DOMAINS.treeOrder, () => loadTreeOrder(s.pool)), PUBLIC_CACHE_CONTROL);
  });

  r.get('/public/countries', async (req, res) => {
    sendCached(req, res, await cached('["public-countries"]', PUBLIC_DOMAINS.countries, () => loadCountries(s.pool)), PUBLIC_CACHE_CONTROL);
  });

  return r;
}
