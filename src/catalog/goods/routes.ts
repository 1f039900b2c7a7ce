/** Goods (docs/api.md): create, batch create, detail, update, delete, merged origins, admin list and tree. */
import { Router, type RequestHandler, type Response } from 'express';
import { AppError } from '../../platform/errors';
import { parseWith } from '../../platform/http/errors';
import { expectedRevisionOf, setRevisionTag } from '../../platform/http/revision';
import { parseQuery } from '../../platform/http/validate';
import { parseId } from '../../platform/ids';
import type { RouteDoc } from '../../platform/http/openapi';
import { actorOf, answerWrite } from '../write-answer';
import { goodUsage } from '../usage';
import { batchCreateGoods, createGood, deleteGood, setGoodOrigins, setGoodShelf, updateGood, type GoodDeps } from './handle';
import { goodsTree, listGoods, readGood } from './queries';
import { batchGoodsBody, createGoodBody, goodOriginsBody, goodShelfBody, listGoodsQuery, updateGoodBody, type BatchGoodsBody } from './requests';
import type { Actor } from '../../platform/commands';
import type { GoodState } from './state';
import { searchPageOf } from '../../contract/page';
import { batchAnswer, good, goodsTree as goodsTreeSchema } from '../../contract/goods';
import { usage } from '../../contract/usage';
import { accepted } from '../../contract/writes';

/** The fields a good's write answers from its own result over a row a later write has moved on. */
const GOOD_OWN = ['name', 'description', 'image', 'goodPriority', 'tagIds', 'tagFontColor', 'categoryId', 'countryId', 'secondaryOriginGoodIds', 'shelf'] as const;

/**
 * Answers a write with the good as this command's own append left it (docs/http-contract.md,
 * Revisions): the read model's row when it shows exactly that revision; when a later write has
 * already landed, the row with this command's fields over it; when the read model has not caught
 * up within COMMAND_WAIT_MS, 202 with the id and revision.
 */
async function answerGood(deps: GoodDeps, res: Response, status: 200 | 201, id: string, result: { state: GoodState; revision: bigint | null }) {
  const own = Object.fromEntries(GOOD_OWN.map((k) => [k, result.state[k]]));
  await answerWrite(res, status, id, result.revision, () => readGood(deps.pool, id).catch((e) => (e instanceof AppError && e.status === 404 ? null : Promise.reject(e))), own);
}

/** `batch`: where a batch request's goods are made (in process, or in the serving process's jobs thread: src/jobs/jobs.ts). */
export function goodRoutes(
  deps: GoodDeps,
  guard: RequestHandler,
  batch: { batchCreateGoods: (body: BatchGoodsBody, actor: Actor) => ReturnType<typeof batchCreateGoods> } = {
    batchCreateGoods: (body, actor) => batchCreateGoods(deps, body, actor),
  },
): Router {
  const r = Router();

  r.get('/goods', guard, async (req, res) => {
    res.json(await listGoods(deps.pool, parseQuery(listGoodsQuery, req.query)));
  });

  r.post('/goods', guard, async (req, res) => {
    const body = parseWith(createGoodBody, req.body, 'body');
    const created = await createGood(deps, body, actorOf(req, res));
    await answerGood(deps, res, 201, created.id, created);
  });

  r.post('/goods/batch', guard, async (req, res) => {
    const body = parseWith(batchGoodsBody, req.body, 'body');
    res.status(201).json(await batch.batchCreateGoods(body, actorOf(req, res)));
  });

  r.get('/goods/tree', guard, async (_req, res) => {
    res.json(await goodsTree(deps.pool));
  });

  r.get('/goods/:id', guard, async (req, res) => {
    const good = await readGood(deps.pool, parseId(req.params.id));
    setRevisionTag(res, String(good.revision));
    res.json(good);
  });

  r.get('/goods/:id/usage', guard, async (req, res) => {
    const id = parseId(req.params.id);
    await readGood(deps.pool, id); // 404 for no such good
    res.json(await goodUsage(deps.pool, id));
  });

  r.patch('/goods/:id', guard, async (req, res) => {
    const id = parseId(req.params.id);
    const body = parseWith(updateGoodBody, req.body, 'body');
    const expectedRevision = expectedRevisionOf(req);
    const result = await updateGood(deps, id, body, actorOf(req, res), expectedRevision);
    await answerGood(deps, res, 200, id, result);
  });

  r.delete('/goods/:id', guard, async (req, res) => {
    const id = parseId(req.params.id);
    await deleteGood(deps, id, actorOf(req, res), expectedRevisionOf(req));
    res.status(204).end();
  });

  r.put('/goods/:id/origins', guard, async (req, res) => {
    const id = parseId(req.params.id);
    const body = parseWith(goodOriginsBody, req.body, 'body');
    const result = await setGoodOrigins(deps, id, body.secondaryOriginGoodIds, actorOf(req, res), expectedRevisionOf(req));
    await answerGood(deps, res, 200, id, result);
  });

  r.put('/goods/:id/shelf', guard, async (req, res) => {
    const id = parseId(req.params.id);
    const body = parseWith(goodShelfBody, req.body, 'body');
    const result = await setGoodShelf(deps, id, body.state, actorOf(req, res), expectedRevisionOf(req));
    await answerGood(deps, res, 200, id, result);
  });

  return r;
}

/** The operations above, with the schemas they parse (src/platform/http/openapi.ts). */
export const goodRouteDocs: RouteDoc[] = [
  { method: 'get', path: '/goods', summary: 'List goods', auth: true, query: listGoodsQuery, responses: { 200: searchPageOf(good) } },
  {
    method: 'post',
    path: '/goods',
    summary: 'Create a good, from a link (originGoodId) or custom',
    auth: true,
    etag: true,
    body: createGoodBody,
    errors: ['UNKNOWN_REFERENCE', 'GOOD.NAME_REQUIRED', 'GOOD.EXISTS_FOR_LINK'],
    responses: { 201: good, 202: accepted },
  },
  {
    method: 'post',
    path: '/goods/batch',
    summary: 'Create goods in one request: from links, or full bodies; an item that cannot be made is skipped, with its index and the reason',
    auth: true,
    body: batchGoodsBody,
    // Made in the thread that runs long operations (src/jobs/).
    errors: ['UNKNOWN_REFERENCE', 'JOBS.UNAVAILABLE'],
    responses: { 201: batchAnswer },
  },
  { method: 'get', path: '/goods/tree', summary: 'Goods by country, category and family', auth: true, responses: { 200: goodsTreeSchema } },
  { method: 'get', path: '/goods/:id', summary: 'One good', auth: true, etag: true, errors: ['GOOD.NOT_FOUND'], responses: { 200: good } },
  {
    method: 'patch',
    path: '/goods/:id',
    summary: 'Change a good',
    auth: true,
    revision: true,
    etag: true,
    body: updateGoodBody,
    errors: ['GOOD.NOT_FOUND', 'UNKNOWN_REFERENCE'],
    responses: { 200: good, 202: accepted },
  },
  {
    method: 'delete',
    path: '/goods/:id',
    summary: 'Delete a good: its link may make a new one; it leaves the home positions and families that list it',
    auth: true,
    revision: true,
    errors: ['GOOD.NOT_FOUND'],
    responses: { 204: null },
  },
  {
    method: 'get',
    path: '/goods/:id/usage',
    summary: 'What a delete of the good changes: the home positions and families (as a custom member) that list it, and the goods of its family',
    auth: true,
    errors: ['GOOD.NOT_FOUND'],
    responses: { 200: usage },
  },
  {
    method: 'put',
    path: '/goods/:id/origins',
    summary: "Set the good's secondary origin links",
    auth: true,
    revision: true,
    etag: true,
    body: goodOriginsBody,
    errors: ['GOOD.NOT_FOUND', 'UNKNOWN_REFERENCE', 'GOOD.PRIMARY_AS_SECONDARY'],
    responses: { 200: good, 202: accepted },
  },
  {
    method: 'put',
    path: '/goods/:id/shelf',
    summary: 'Put a good on the shelf (上架, `on`) or take it off (下架, `off`)',
    auth: true,
    revision: true,
    etag: true,
    body: goodShelfBody,
    errors: ['GOOD.NOT_FOUND'],
    responses: { 200: good, 202: accepted },
  },
];
