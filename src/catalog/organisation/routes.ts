/** Organisation runs (docs/api.md, OrganiseRun): the recorded runs, readable from every process. */
import { Router, type RequestHandler } from 'express';
import type { Pool } from '../../platform/db';
import { AppError } from '../../platform/errors';
import { limitOffset, pageQuery, paged } from '../../platform/http/pagination';
import type { RouteDoc } from '../../platform/http/openapi';
import { parseQuery } from '../../platform/http/validate';
import { parseId } from '../../platform/ids';
import { getOrganiseRun, listOrganiseRuns } from './runs';

/** The runs are read from their table alone. */
export type OrganiseRunDeps = { pool: Pool };

export function organiseRunRoutes(s: OrganiseRunDeps, guard: RequestHandler): Router {
  const r = Router();

  r.get('/product-families/organize/runs', guard, async (req, res) => {
    const q = parseQuery(pageQuery, req.query);
    const { limit, offset } = limitOffset(q);
    const { items, total } = await listOrganiseRuns(s.pool, limit, offset);
    res.json(paged(items, total, q.page, q.pageSize));
  });

  r.get('/product-families/organize/runs/:runId', guard, async (req, res) => {
    const id = parseId(req.params.runId, 'runId');
    const run = await getOrganiseRun(s.pool, id);
    if (!run) throw AppError.notFound('ORGANISE.RUN_NOT_FOUND', `no organisation run ${id}`);
    res.json(run);
  });

  return r;
}

/** The operations above, with the schemas they parse (src/platform/http/openapi.ts). */
export const organiseRunRouteDocs: RouteDoc[] = [
  { method: 'get', path: '/product-families/organize/runs', summary: 'Recorded organisation runs, newest first', auth: true, query: pageQuery, responses: { 200: '{items, total, page, pageSize} of OrganiseRun without its report' } },
  { method: 'get', path: '/product-families/organize/runs/:runId', summary: 'One recorded organisation run with its report', auth: true, responses: { 200: 'OrganiseRun', 404: 'No such run' } },
];
