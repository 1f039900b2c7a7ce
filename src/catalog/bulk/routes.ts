/** Bulk changes (docs/api.md, Bulk changes): of goods and families, a replacement before a delete, and their runs. */
import { Router, type RequestHandler, type Response } from 'express';
import type { z } from 'zod';
import { AppError } from '../../platform/errors';
import { parseWith } from '../../platform/http/errors';
import type { RouteDoc } from '../../platform/http/openapi';
import type { ErrorCode } from '../../platform/error-codes';
import { parseId } from '../../platform/ids';
import type { Actor } from '../../platform/commands';
import type { AdminDeps } from '../admin-commands';
import type { Queryable } from '../../platform/db';
import type { Usage } from '../usage';
import { actorOf } from '../write-answer';
import { familyIdsMatching } from '../families/queries';
import { goodIdsMatching } from '../goods/queries';
import { requireReferences } from '../references';
import { bulkRun } from '../../contract/bulk';
import { usage } from '../../contract/usage';
import { actionReferences, applyToFamily, applyToGood } from './actions';
import { familiesDeleteImpact, goodsDeleteImpact } from './impact';
import { replacementJob, type Replaceable } from './replace';
import { bulkFamiliesBody, bulkGoodsBody, familiesSelection, goodsSelection, MAX_BULK_ITEMS, replaceBody, type BulkAction } from './requests';
import { startBulk, type BulkJob } from './run';
import { readBulkRun } from './runs';

type Selection<F> = { ids: string[] } | { filter: F };

/** The ids a selection names, or those its filter matches now (by id); 400 `BULK.TOO_MANY` past the limit. */
async function idsOf<F>(s: Selection<F>, match: (filter: F, limit: number) => Promise<string[]>): Promise<string[]> {
  if ('ids' in s) return s.ids;
  const ids = await match(s.filter, MAX_BULK_ITEMS + 1);
  if (ids.length > MAX_BULK_ITEMS) throw AppError.badRequest('BULK.TOO_MANY', `the filter matches more than ${MAX_BULK_ITEMS} items`);
  return ids;
}

/** A small run answers 200 when done; a large one 202 at once, its progress at GET /bulk-runs/:runId. */
async function answerRun(deps: AdminDeps, res: Response, actor: Actor, job: BulkJob) {
  const { runId, inline, finished } = await startBulk(deps, actor, job);
  if (inline) {
    res.status(200).json(await finished);
    return;
  }
  // The run goes on after the answer; its end is read at GET /bulk-runs/:runId.
  finished.catch(() => undefined);
  res.status(202).json(await readBulkRun(deps.pool, runId));
}

/** A list a bulk change selects from: its path, bodies, filter query, per-item command and delete impact. */
interface Target<F> {
  target: 'goods' | 'families';
  path: string;
  body: z.ZodType<{ action: BulkAction } & Selection<F>>;
  selection: z.ZodType<Selection<F>>;
  match: (db: Queryable, filter: F, limit: number) => Promise<string[]>;
  apply: typeof applyToGood;
  impact: (db: Queryable, ids: readonly string[]) => Promise<Usage>;
}

function mount<F>(r: Router, deps: AdminDeps, guard: RequestHandler, t: Target<F>): void {
  const match = (f: F, n: number) => t.match(deps.pool, f, n);
  r.post(`${t.path}/bulk`, guard, async (req, res) => {
    const body = parseWith(t.body, req.body, 'body');
    const actor = actorOf(req, res);
    const { action } = body;
    await requireReferences(deps.pool, actionReferences(action));
    const ids = await idsOf(body, match);
    await answerRun(deps, res, actor, { target: t.target, action, ids, apply: (id) => t.apply(deps, id, action, actor), waitFor: ['good-0', 'family-0'] });
  });
  r.post(`${t.path}/bulk/impact`, guard, async (req, res) => {
    res.json(await t.impact(deps.pool, await idsOf(parseWith(t.selection, req.body, 'body'), match)));
  });
}

export function bulkRoutes(deps: AdminDeps, guard: RequestHandler): Router {
  const r = Router();
  mount(r, deps, guard, { target: 'goods', path: '/goods', body: bulkGoodsBody, selection: goodsSelection, match: goodIdsMatching, apply: applyToGood, impact: goodsDeleteImpact });
  mount(r, deps, guard, {
    target: 'families',
    path: '/product-families',
    body: bulkFamiliesBody,
    selection: familiesSelection,
    match: familyIdsMatching,
    apply: applyToFamily,
    impact: familiesDeleteImpact,
  });
  r.get('/bulk-runs/:runId', guard, async (req, res) => {
    res.json(await readBulkRun(deps.pool, parseId(req.params.runId, 'runId')));
  });
  for (const kind of ['countries', 'categories', 'tags'] as const satisfies Replaceable[]) {
    r.post(`/${kind}/:id/replace`, guard, async (req, res) => {
      const id = parseId(req.params.id);
      const { replaceWith } = parseWith(replaceBody, req.body, 'body');
      const actor = actorOf(req, res);
      await answerRun(deps, res, actor, await replacementJob(deps, kind, id, replaceWith, actor));
    });
  }
  return r;
}

/** Each item's command appends (a busy lock or stream skips that item, never the request). */
const RUN_ERRORS: ErrorCode[] = ['UNKNOWN_REFERENCE', 'BULK.TOO_MANY'];
const RUN_ANSWERS = { 200: bulkRun, 202: bulkRun };

const REPLACE: Record<Replaceable, { one: string; notFound: ErrorCode; inUse: ErrorCode; extra: ErrorCode[]; moves: string }> = {
  countries: { one: 'country', notFound: 'COUNTRY.NOT_FOUND', inUse: 'COUNTRY.IN_USE', extra: [], moves: 'its goods' },
  categories: { one: 'category', notFound: 'CATEGORY.NOT_FOUND', inUse: 'CATEGORY.IN_USE', extra: ['CATEGORY.PARENT_CYCLE'], moves: 'its goods and subcategories' },
  tags: { one: 'tag', notFound: 'TAG.NOT_FOUND', inUse: 'TAG.IN_USE', extra: [], moves: 'the goods carrying it' },
};

/** The operations above, with the schemas they parse (src/platform/http/openapi.ts). */
export const bulkRouteDocs: RouteDoc[] = [
  {
    method: 'post',
    path: '/goods/bulk',
    summary: 'Change many goods (ids, or every good a filter matches): set country, category, add or remove tags, delete; each item by its own command',
    auth: true,
    body: bulkGoodsBody,
    errors: RUN_ERRORS,
    responses: RUN_ANSWERS,
  },
  {
    method: 'post',
    path: '/goods/bulk/impact',
    summary: 'What deleting these goods would change',
    auth: true,
    body: goodsSelection,
    errors: ['BULK.TOO_MANY'],
    responses: { 200: usage },
  },
  {
    method: 'post',
    path: '/product-families/bulk',
    summary: "Change many families: country, category and tags go to each family's goods; a delete is the family's",
    auth: true,
    body: bulkFamiliesBody,
    errors: RUN_ERRORS,
    responses: RUN_ANSWERS,
  },
  {
    method: 'post',
    path: '/product-families/bulk/impact',
    summary: 'What deleting these families would change: how many, how many are not empty (skipped), their overrides',
    auth: true,
    body: familiesSelection,
    errors: ['BULK.TOO_MANY'],
    responses: { 200: usage },
  },
  { method: 'get', path: '/bulk-runs/:runId', summary: 'One bulk run: progress and each item so far', auth: true, errors: ['BULK.RUN_NOT_FOUND'], responses: { 200: bulkRun } },
  ...(Object.entries(REPLACE) as [Replaceable, (typeof REPLACE)[Replaceable]][]).map(([kind, k]): RouteDoc => ({
    method: 'post',
    path: `/${kind}/:id/replace`,
    summary: `Move ${k.moves} to another ${k.one} (replaceWith), then delete the ${k.one}; refused while links use it`,
    auth: true,
    body: replaceBody,
    errors: [k.notFound, k.inUse, 'UNKNOWN_REFERENCE', ...k.extra],
    responses: RUN_ANSWERS,
  })),
];
