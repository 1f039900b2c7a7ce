/** GET /overview: the catalogue's figures for the admin's first screen (docs/api.md). */
import { Router, type RequestHandler } from 'express';
import type { Pool } from '../../platform/db';
import type { RouteDoc } from '../../platform/http/openapi';
import { catalogOverview as overviewSchema } from '../../contract/overview';
import { catalogOverview } from './queries';

export function overviewRoutes(deps: { pool: Pool }, guard: RequestHandler): Router {
  const r = Router();
  r.get('/overview', guard, async (_req, res) => {
    res.json(await catalogOverview(deps.pool));
  });
  return r;
}

export const overviewRouteDocs: RouteDoc[] = [
  {
    method: 'get',
    path: '/overview',
    summary: 'The catalogue in figures: families (public, unpriced, locked, manual, empty), goods, links (organised, incomplete, delisted, without a good) and the vocabulary',
    auth: true,
    responses: { 200: overviewSchema },
  },
];
