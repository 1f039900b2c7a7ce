/** The administrators' CRUD of categories, countries, tags, tag groups and positions, and the overview, behind one guard. */
import { Router, type RequestHandler } from 'express';
import type { AdminDeps } from './admin-commands';
import { categoryRoutes } from './categories/routes';
import { countryRoutes } from './countries/routes';
import { overviewRoutes } from './overview/routes';
import { positionRoutes } from './positions/routes';
import { tagGroupRoutes } from './tag-groups/routes';
import { tagRoutes } from './tags/routes';

export function adminCatalogRoutes(deps: AdminDeps, guard: RequestHandler): Router {
  const r = Router();
  r.use(categoryRoutes(deps, guard));
  r.use(countryRoutes(deps, guard));
  r.use(tagGroupRoutes(deps, guard));
  r.use(tagRoutes(deps, guard));
  r.use(positionRoutes(deps, guard));
  r.use(overviewRoutes(deps, guard));
  return r;
}
