/**
 * The public storefront read API as express routes: every read of ./public-routes.ts (what each
 * endpoint reads, its cache domains and Cache-Control), answered from the public cache. No
 * authentication.
 */
import { Router } from 'express';
import { sendCached } from '../platform/cache/http';
import type { RouteDoc } from '../platform/http/openapi';
import { PUBLIC_CACHE_CONTROL, PUBLIC_ROUTES, type StorefrontDeps } from './public-routes';
import { represent } from './representation';
import type { z } from 'zod';
import { publicCategoryTree, publicCountries, publicGoodDetail, publicGoodsPage, publicHome, publicTagGroups, publicTreeOrder } from '../contract/storefront';
import { publicGoodsQuery } from './requests';

export interface StorefrontOptions {
  /**
   * Check the domain versions in the database before serving (./freshness.ts). On by default; off
   * only where a single process is measured against itself (the bench prints both).
   */
  crossProcessFreshness?: boolean;
}

export function storefrontRoutes(s: StorefrontDeps, opts: StorefrontOptions = {}): Router {
  const r = Router();
  const gate = opts.crossProcessFreshness === false || s.config.publicCache.disabled ? null : s.storefront.gate;
  for (const route of PUBLIC_ROUTES) {
    r.get(route.path, async (req, res) => {
      const read = await route.read(s, req.params as Record<string, string>, req.query);
      if (gate) await gate.fresh();
      const entry = await s.cache.get(read.key, read.domains, read.load);
      sendCached(req, res, await represent(s.cache, read, entry, req.headers['accept-encoding']), PUBLIC_CACHE_CONTROL);
    });
  }
  return r;
}

/**
 * The public reads above (src/platform/http/openapi.ts). Each answers with a strong ETag and
 * `Cache-Control: public, max-age=0, must-revalidate`; If-None-Match answers 304.
 */
const publicRead = (path: string, summary: string, answer: z.ZodType, extra: Partial<RouteDoc> = {}): RouteDoc => ({
  method: 'get',
  path,
  summary,
  cached: true,
  ...extra,
  responses: { 200: answer },
});
export const storefrontRouteDocs: RouteDoc[] = [
  publicRead('/public/goods', 'The storefront list: one item per family, filtered, sorted, paged', publicGoodsPage, { query: publicGoodsQuery }),
  publicRead('/public/goods/:goodId', "A family's detail (a family id; a link id is 404)", publicGoodDetail, {
    errors: ['PUBLIC_GOOD.NOT_FOUND'],
  }),
  publicRead('/public/home', 'The home positions with their items', publicHome),
  publicRead('/public/categories/tree', 'The category tree with family counts and lowest prices', publicCategoryTree),
  publicRead('/public/tag-groups', 'Tag groups with their tags and family counts', publicTagGroups),
  publicRead('/public/tree-order', 'The order of countries and of categories under each parent', publicTreeOrder),
  publicRead('/public/countries', 'The countries, by sort order, with family counts', publicCountries),
];
