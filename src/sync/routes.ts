/** Synchronisation triggers and run status (docs/api.md). */
import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import type { Pool } from '../platform/db';
import { AppError } from '../platform/errors';
import { parseWith } from '../platform/http/errors';
import { queryInt } from '../platform/http/validate';
import { idSchema, parseId } from '../platform/ids';
import { requireReferences } from '../catalog/references';
import { actorOf } from '../catalog/write-answer';
import type { SyncService } from './service';
import type { Config } from '../config';
import { scheduleView } from './scheduler';
import { getRun, listRuns, type SyncKind } from './runs';
import type { RouteDoc } from '../platform/http/openapi';
import type { ErrorCode } from '../platform/error-codes';
import { runStarted, syncRunList, syncRunView, syncSchedule } from '../contract/sync';

const flag = z.union([z.boolean(), z.enum(['true', 'false', '1', '0'])]).transform((v) => v === true || v === 'true' || v === '1');
const triggerQuery = z.object({ dryRun: flag.optional() }).strict();
const triggerBody = z.object({ dryRun: z.boolean().optional() }).strict();
const goodsQuery = z.object({ dryRun: flag.optional(), confirmDelist: flag.optional() }).strict();
const goodsBody = z.object({ dryRun: z.boolean().optional(), confirmDelist: z.boolean().optional() }).strict();
const detailsBody = z.object({ dryRun: z.boolean().optional(), onlyUnsynced: z.boolean().optional(), linkId: idSchema.optional() }).strict();
const detailsQuery = z.object({ dryRun: flag.optional(), onlyUnsynced: flag.optional(), linkId: idSchema.optional() }).strict();
const runId = z.uuid();
const runsQuery = z.object({ kind: z.enum(['categories', 'origin_goods', 'details']).optional(), limit: queryInt(1, 100).optional() }).strict();

/** `sync`: where a run starts (in process, or in the serving process's jobs thread: src/jobs/jobs.ts). */
export function syncRoutes(sync: Pick<SyncService, 'start'>, pool: Pool, guard: RequestHandler, schedules: Config['schedules']): Router {
  const r = Router();
  // The scheduled synchronisations (run by the worker role; null: off): next run, last tick and run, recent ticks.
  r.get('/sync/schedule', guard, async (_req, res) => {
    res.json(await scheduleView(pool, schedules));
  });
  const trigger =
    (kind: SyncKind): RequestHandler =>
    async (req, res) => {
      const q = parseWith(triggerQuery, req.query, 'query');
      const b = parseWith(triggerBody, req.body ?? {}, 'body');
      const { runId } = await sync.start(kind, { dryRun: q.dryRun ?? b.dryRun, by: actorOf(req, res).by });
      res.status(202).json({ runId });
    };
  r.post('/sync/categories', guard, trigger('categories'));
  r.post('/sync/origin-goods', guard, async (req, res) => {
    const q = parseWith(goodsQuery, req.query, 'query');
    const b = parseWith(goodsBody, req.body ?? {}, 'body');
    const { runId } = await sync.start('origin_goods', { dryRun: q.dryRun ?? b.dryRun, confirmDelist: q.confirmDelist ?? b.confirmDelist, by: actorOf(req, res).by });
    res.status(202).json({ runId });
  });
  r.post('/sync/details', guard, async (req, res) => {
    const q = parseWith(detailsQuery, req.query, 'query');
    const b = parseWith(detailsBody, req.body ?? {}, 'body');
    const linkId = b.linkId ?? q.linkId;
    // A link named in the body or query is a reference: 400 when it names none (the path's link of
    // /sync/origin-goods/:id/detail is that route's 404).
    if (linkId !== undefined) await requireReferences(pool, [{ field: 'linkId', kind: 'link', ids: [linkId] }]);
    const { runId } = await sync.start('details', {
      dryRun: q.dryRun ?? b.dryRun,
      onlyUnsynced: q.onlyUnsynced ?? b.onlyUnsynced,
      linkId,
      by: actorOf(req, res).by,
    });
    res.status(202).json({ runId });
  });
  // One link: small enough to answer with the finished run.
  r.post('/sync/origin-goods/:id/detail', guard, async (req, res) => {
    const q = parseWith(triggerQuery, req.query, 'query');
    const { finished } = await sync.start('details', { linkId: parseId(req.params.id), dryRun: q.dryRun, by: actorOf(req, res).by });
    const run = await finished;
    res.status(run.state === 'succeeded' ? 200 : 502).json(run);
  });
  r.get('/sync/runs', guard, async (req, res) => {
    const q = parseWith(runsQuery, req.query, 'query');
    res.json({ items: await listRuns(pool, q.kind, q.limit ?? 20) });
  });
  r.get('/sync/runs/:runId', guard, async (req, res) => {
    const id = String(req.params.runId);
    if (!runId.safeParse(id).success) throw AppError.badRequest('INVALID_ID', 'runId must be a UUID');
    const run = await getRun(pool, id);
    if (!run) throw AppError.notFound('SYNC.RUN_NOT_FOUND', `no synchronisation run ${id}`);
    res.json(run);
  });
  return r;
}

/** A run of each kind at a time; runs go in the thread for long operations (src/jobs/). */
const RUNNING: ErrorCode[] = ['SYNC.ALREADY_RUNNING', 'JOBS.UNAVAILABLE'];

/** The operations above, with the schemas they parse (src/platform/http/openapi.ts). */
export const syncRouteDocs: RouteDoc[] = [
  {
    method: 'get',
    path: '/sync/schedule',
    summary: "The scheduled synchronisations: each one's next run, last tick, last run and recent ticks (a missed or failed one shows)",
    auth: true,
    responses: { 200: syncSchedule },
  },
  {
    method: 'post',
    path: '/sync/categories',
    summary: 'Start a category (and country) synchronisation',
    auth: true,
    query: triggerQuery,
    body: triggerBody,
    bodyOptional: true,
    appends: false,
    errors: RUNNING,
    responses: { 202: runStarted },
  },
  {
    method: 'post',
    path: '/sync/origin-goods',
    summary: 'Start a listing synchronisation of the links',
    auth: true,
    query: goodsQuery,
    body: goodsBody,
    bodyOptional: true,
    appends: false,
    errors: RUNNING,
    responses: { 202: runStarted },
  },
  {
    method: 'post',
    path: '/sync/details',
    summary: "Start a synchronisation of the links' details",
    auth: true,
    query: detailsQuery,
    body: detailsBody,
    bodyOptional: true,
    appends: false,
    errors: ['UNKNOWN_REFERENCE', ...RUNNING],
    responses: { 202: runStarted },
  },
  {
    method: 'post',
    path: '/sync/origin-goods/:id/detail',
    summary: "Synchronise one link's detail and answer the finished run",
    auth: true,
    query: triggerQuery,
    appends: false,
    errors: ['ORIGIN_GOOD.NOT_FOUND', ...RUNNING],
    responses: {
      200: { description: 'The run, succeeded', body: syncRunView },
      502: { description: 'The run, failed (the supplier)', body: syncRunView },
    },
  },
  { method: 'get', path: '/sync/runs', summary: 'The latest synchronisation runs', auth: true, query: runsQuery, responses: { 200: syncRunList } },
  {
    method: 'get',
    path: '/sync/runs/:runId',
    summary: 'One run: state, progress, counts, errors',
    auth: true,
    params: z.object({ runId }),
    errors: ['INVALID_ID', 'SYNC.RUN_NOT_FOUND'],
    responses: { 200: syncRunView },
  },
];
