/** Organisation (docs/api.md, OrganiseRun): start a run, and the recorded runs, readable from every process. */
import { Router, type RequestHandler } from 'express';
import type { Pool } from '../../platform/db';
import { AppError } from '../../platform/errors';
import { limitOffset, pageQuery, paged } from '../../platform/http/pagination';
import type { RouteDoc } from '../../platform/http/openapi';
import type { ErrorCode } from '../../platform/error-codes';
import { parseQuery } from '../../platform/http/validate';
import { parseId } from '../../platform/ids';
import { actorOf } from '../write-answer';
import type { Organiser } from './organise';
import { getOrganiseRun, listOrganiseRuns, organiseStatus } from './runs';
import { pageOf } from '../../contract/page';
import { organiseAnswer, organiseRunView, organiseRunWithReport, organiseStatus as organiseStatusSchema } from '../../contract/organise';

/** The runs are read from their table alone. */
export type OrganiseRunDeps = { pool: Pool };

/** `organiser`: where organisation runs (in process, or in the serving process's jobs thread: src/jobs/jobs.ts). */
export function organiseRunRoutes(s: OrganiseRunDeps, organiser: Pick<Organiser, 'organise'>, guard: RequestHandler): Router {
  const r = Router();

  // The report, and the id of the run's record (GET /product-families/organize/runs/:runId).
  r.post('/product-families/organize', guard, async (req, res) => {
    let runId: string | null = null;
    const report = await organiser.organise(actorOf(req, res).by, { onRun: (id) => (runId = id) });
    res.json({ ...report, runId });
  });
  // From the recorded runs, not this process's memory: right behind any number of API processes.
  r.get('/product-families/organize/status', guard, async (_req, res) => {
    res.json(await organiseStatus(s.pool));
  });
  r.post('/product-families/auto-group', guard, async (req, res) => {
    let runId: string | null = null;
    const report = await organiser.organise(actorOf(req, res).by, { groupOnly: true, onRun: (id) => (runId = id) });
    res.json({ ...report, runId });
  });

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
/** A run is one at a time; it runs in the thread for long operations, and waits for the read models between its steps. */
const ORGANISE_ERRORS: ErrorCode[] = ['ORGANISE.ALREADY_RUNNING', 'JOBS.UNAVAILABLE', 'ORGANISE.PROJECTIONS_BEHIND'];

export const organiseRunRouteDocs: RouteDoc[] = [
  {
    method: 'post',
    path: '/product-families/organize',
    summary: 'Organise: parse link names, derive tags, auto-group into families, recompute every family',
    auth: true,
    errors: ORGANISE_ERRORS,
    responses: { 200: organiseAnswer },
  },
  {
    method: 'get',
    path: '/product-families/organize/status',
    summary: 'The running organisation run, or else the latest, from the records of every process',
    auth: true,
    responses: { 200: organiseStatusSchema },
  },
  {
    method: 'post',
    path: '/product-families/auto-group',
    summary: 'Only the auto-group step of organising',
    auth: true,
    errors: ORGANISE_ERRORS,
    responses: { 200: organiseAnswer },
  },
  {
    method: 'get',
    path: '/product-families/organize/runs',
    summary: 'Recorded organisation runs, newest first',
    auth: true,
    query: pageQuery,
    responses: { 200: pageOf(organiseRunView) },
  },
  {
    method: 'get',
    path: '/product-families/organize/runs/:runId',
    summary: 'One recorded organisation run with its report',
    auth: true,
    errors: ['ORGANISE.RUN_NOT_FOUND'],
    responses: { 200: organiseRunWithReport },
  },
];
