/** Family management (docs/api.md): CRUD, lock, members, custom members, price overrides (the history: ../history). */
import { Router, type RequestHandler } from 'express';
import { parseWith } from '../../platform/http/errors';
import { expectedRevisionOf, setRevisionTag } from '../../platform/http/revision';
import { parseQuery } from '../../platform/http/validate';
import { parseId } from '../../platform/ids';
import type { RouteDoc } from '../../platform/http/openapi';
import { actorOf } from '../write-answer';
import { addCustomMember, createFamily, deleteFamily, removeCustomMember, removePriceOverride, setFamilyShelf, setPriceOverride, updateFamily, type FamilyDeps } from './handle';
import { listFamilies, readFamily } from './queries';
import { withReferences } from '../references';
import { familyUsage } from '../usage';
import { addCustomMemberBody, createFamilyBody, listFamiliesQuery, removeOverrideBody, setOverrideBody, shelfBody, updateFamilyBody } from './requests';

import { answerFamily as answer } from './answer';
import { family as familySchema } from '../../contract/families';
import { searchPageOf } from '../../contract/page';
import { usage } from '../../contract/usage';
import { accepted } from '../../contract/writes';

export function familyRoutes(deps: FamilyDeps, guard: RequestHandler): Router {
  const r = Router();
  const family = (req: { params: Record<string, unknown> }) => parseId(req.params.id);

  r.get('/product-families', guard, async (req, res) => {
    res.json(await listFamilies(deps.pool, parseQuery(listFamiliesQuery, req.query)));
  });

  r.post('/product-families', guard, async (req, res) => {
    const body = parseWith(createFamilyBody, req.body, 'body');
    const { id, result } = await createFamily(deps, body, actorOf(req, res));
    await answer(deps, res, 201, id, result);
  });

  r.get('/product-families/:id', guard, async (req, res) => {
    const f = await readFamily(deps.pool, family(req));
    setRevisionTag(res, f.revision);
    res.json(f);
  });

  r.get('/product-families/:id/usage', guard, async (req, res) => {
    const id = family(req);
    await readFamily(deps.pool, id); // 404 for no such family
    res.json(await familyUsage(deps.pool, id));
  });

  r.patch('/product-families/:id', guard, async (req, res) => {
    const body = parseWith(updateFamilyBody, req.body, 'body');
    const id = family(req);
    const result = await updateFamily(deps, id, body, actorOf(req, res), expectedRevisionOf(req));
    await answer(deps, res, 200, id, result);
  });

  r.put('/product-families/:id/shelf', guard, async (req, res) => {
    const body = parseWith(shelfBody, req.body, 'body');
    const id = family(req);
    const result = await setFamilyShelf(deps, id, body, actorOf(req, res), expectedRevisionOf(req));
    await answer(deps, res, 200, id, result);
  });

  r.delete('/product-families/:id', guard, async (req, res) => {
    await deleteFamily(deps, family(req), actorOf(req, res), expectedRevisionOf(req));
    res.status(204).end();
  });

  r.post('/product-families/:id/custom-members', guard, async (req, res) => {
    const body = parseWith(addCustomMemberBody, req.body, 'body');
    const id = family(req);
    const refs = [{ field: 'goodId', kind: 'good' as const, ids: [body.goodId] }];
    const result = await withReferences(deps.pool, refs, () => addCustomMember(deps, id, body, actorOf(req, res), expectedRevisionOf(req)));
    await answer(deps, res, 201, id, result);
  });

  r.delete('/product-families/:id/custom-members/:goodId', guard, async (req, res) => {
    const goodId = parseId(req.params.goodId, 'goodId');
    const id = family(req);
    const result = await removeCustomMember(deps, id, goodId, actorOf(req, res), expectedRevisionOf(req));
    await answer(deps, res, 200, id, result);
  });

  r.put('/product-families/:id/price-overrides', guard, async (req, res) => {
    const body = parseWith(setOverrideBody, req.body, 'body');
    const id = family(req);
    const result = await setPriceOverride(deps, id, body, actorOf(req, res), expectedRevisionOf(req));
    await answer(deps, res, 200, id, result);
  });

  r.delete('/product-families/:id/price-overrides', guard, async (req, res) => {
    const body = parseWith(removeOverrideBody, req.body, 'body');
    const id = family(req);
    const result = await removePriceOverride(deps, id, body, actorOf(req, res), expectedRevisionOf(req));
    await answer(deps, res, 200, id, result);
  });

  return r;
}

/** The operations above, with the schemas they parse (src/platform/http/openapi.ts). */
export const familyRouteDocs: RouteDoc[] = [
  { method: 'get', path: '/product-families', summary: 'List families', auth: true, query: listFamiliesQuery, responses: { 200: searchPageOf(familySchema) } },
  { method: 'post', path: '/product-families', summary: 'Create a family', auth: true, etag: true, body: createFamilyBody, responses: { 201: familySchema, 202: accepted } },
  {
    method: 'get',
    path: '/product-families/:id',
    summary: 'One family: members, custom members, matrix, unions, overrides',
    auth: true,
    etag: true,
    errors: ['FAMILY.NOT_FOUND'],
    responses: { 200: familySchema },
  },
  {
    method: 'get',
    path: '/product-families/:id/usage',
    summary: 'What a family holds: member links, custom members, goods, price overrides (members, custom members or goods refuse a delete)',
    auth: true,
    errors: ['FAMILY.NOT_FOUND'],
    responses: { 200: usage },
  },
  {
    method: 'patch',
    path: '/product-families/:id',
    summary: 'Rename or lock a family',
    auth: true,
    revision: true,
    etag: true,
    body: updateFamilyBody,
    errors: ['FAMILY.NOT_FOUND'],
    responses: { 200: familySchema, 202: accepted },
  },
  {
    method: 'put',
    path: '/product-families/:id/shelf',
    summary: 'Put a family on the shelf (上架, `on`) or take it off (下架, `off`)',
    auth: true,
    revision: true,
    etag: true,
    body: shelfBody,
    errors: ['FAMILY.NOT_FOUND'],
    responses: { 200: familySchema, 202: accepted },
  },
  {
    method: 'delete',
    path: '/product-families/:id',
    summary: 'Delete a family without members or goods',
    auth: true,
    revision: true,
    errors: ['FAMILY.NOT_FOUND', 'FAMILY.NOT_EMPTY'],
    responses: { 204: null },
  },
  {
    method: 'post',
    path: '/product-families/:id/custom-members',
    summary: 'Add a custom good with its tags and price',
    auth: true,
    revision: true,
    etag: true,
    body: addCustomMemberBody,
    errors: ['FAMILY.NOT_FOUND', 'UNKNOWN_REFERENCE', 'FAMILY.NOT_A_CUSTOM_GOOD'],
    responses: { 201: familySchema, 202: accepted },
  },
  {
    method: 'delete',
    path: '/product-families/:id/custom-members/:goodId',
    summary: 'Remove a custom member',
    auth: true,
    revision: true,
    etag: true,
    errors: ['FAMILY.NOT_FOUND', 'FAMILY.CUSTOM_MEMBER_NOT_FOUND'],
    responses: { 200: familySchema, 202: accepted },
  },
  {
    method: 'put',
    path: '/product-families/:id/price-overrides',
    summary: 'Set the price of one matrix cell',
    auth: true,
    revision: true,
    etag: true,
    body: setOverrideBody,
    errors: ['FAMILY.NOT_FOUND', 'FAMILY.OVERRIDE_KEY_INVALID'],
    responses: { 200: familySchema, 202: accepted },
  },
  {
    method: 'delete',
    path: '/product-families/:id/price-overrides',
    summary: 'Remove the price override of one matrix cell',
    auth: true,
    revision: true,
    etag: true,
    body: removeOverrideBody,
    errors: ['FAMILY.NOT_FOUND', 'FAMILY.OVERRIDE_NOT_FOUND'],
    responses: { 200: familySchema, 202: accepted },
  },
];
