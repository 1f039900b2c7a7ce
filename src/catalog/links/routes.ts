/** Administrators' view of supplier links (docs/api.md, Shapes: OriginGood), and their tags. */
import { Router, type RequestHandler } from 'express';
import { parseWith } from '../../platform/http/errors';
import { expectedRevisionOf, setRevisionTag } from '../../platform/http/revision';
import { parseQuery } from '../../platform/http/validate';
import { parseId } from '../../platform/ids';
import type { RouteDoc } from '../../platform/http/openapi';
import { actorOf } from '../write-answer';
import { restoreAutoLinkTags, updateLinkTags, type LinkDeps } from './handle';
import { answerFamily } from '../families/answer';
import { addMemberBody } from '../families/requests';
import { requireReferences } from '../references';
import { addFamilyMember, removeFamilyMember } from './membership';
import { listLinks, linkTree, readLink } from './queries';
import { linkTagsBody, listLinksQuery } from './requests';
import { family } from '../../contract/families';
import { link, linkTagsAnswer, linkTree as linkTreeSchema, linkWithDetail } from '../../contract/links';
import { searchPageOf } from '../../contract/page';
import { accepted } from '../../contract/writes';

export function linkRoutes(deps: LinkDeps, guard: RequestHandler): Router {
  const r = Router();

  r.get('/origin-goods', guard, async (req, res) => {
    res.json(await listLinks(deps.pool, parseQuery(listLinksQuery, req.query)));
  });

  r.get('/origin-goods/tree', guard, async (_req, res) => {
    res.json(await linkTree(deps.pool));
  });

  r.get('/origin-goods/:id', guard, async (req, res) => {
    const link = await readLink(deps.pool, parseId(req.params.id));
    setRevisionTag(res, String(link.revision));
    res.json(link);
  });

  // A family's member links: the link's move and the families' records (./membership.ts).
  r.post('/product-families/:id/members', guard, async (req, res) => {
    const id = parseId(req.params.id);
    const body = parseWith(addMemberBody, req.body, 'body');
    // The link is the body's reference (400), the family the path's resource (404). Links are never deleted: no lock.
    await requireReferences(deps.pool, [{ field: 'originGoodId', kind: 'link', ids: [body.originGoodId] }]);
    const result = await addFamilyMember(deps, id, body.originGoodId, actorOf(req, res));
    await answerFamily(deps, res, 201, id, result, { linkId: body.originGoodId, in: true });
  });

  r.delete('/product-families/:id/members/:originGoodId', guard, async (req, res) => {
    const id = parseId(req.params.id);
    const linkId = parseId(req.params.originGoodId, 'originGoodId');
    const result = await removeFamilyMember(deps, id, linkId, actorOf(req, res));
    await answerFamily(deps, res, 200, id, result, { linkId, in: false });
  });

  // Manual takeover; groups the administrator left empty are filled from the name.
  r.put('/origin-goods/:id/tags', guard, async (req, res) => {
    const id = parseId(req.params.id);
    const body = parseWith(linkTagsBody, req.body, 'body');
    res.json(await updateLinkTags(deps, id, body.tagIds, actorOf(req, res), expectedRevisionOf(req)));
  });

  r.post('/origin-goods/:id/tags/restore-auto', guard, async (req, res) => {
    const id = parseId(req.params.id);
    await restoreAutoLinkTags(deps, id, actorOf(req, res), expectedRevisionOf(req));
    res.json(await readLink(deps.pool, id));
  });

  return r;
}

/** The operations above, with the schemas they parse (src/platform/http/openapi.ts). */
export const linkRouteDocs: RouteDoc[] = [
  {
    method: 'post',
    path: '/product-families/:id/members',
    summary: 'Add a link to the family (it leaves its old one)',
    auth: true,
    etag: true,
    body: addMemberBody,
    errors: ['FAMILY.NOT_FOUND', 'UNKNOWN_REFERENCE', 'FAMILY.GONE'],
    responses: { 201: family, 202: accepted },
  },
  {
    method: 'delete',
    path: '/product-families/:id/members/:originGoodId',
    summary: 'Take a link out of the family',
    auth: true,
    etag: true,
    errors: ['FAMILY.NOT_FOUND', 'FAMILY.MEMBER_NOT_FOUND'],
    responses: { 200: family, 202: accepted },
  },
  { method: 'get', path: '/origin-goods', summary: 'List supplier links', auth: true, query: listLinksQuery, responses: { 200: searchPageOf(link) } },
  {
    method: 'get',
    path: '/origin-goods/tree',
    summary: 'Link statistics by parsed country and category, secondary-origin references included',
    auth: true,
    responses: { 200: linkTreeSchema },
  },
  {
    method: 'get',
    path: '/origin-goods/:id',
    summary: 'One link with its detail (variants, media)',
    auth: true,
    etag: true,
    errors: ['ORIGIN_GOOD.NOT_FOUND'],
    responses: { 200: linkWithDetail },
  },
  {
    method: 'put',
    path: '/origin-goods/:id/tags',
    summary: "Set a link's tags by hand (kept over derived ones)",
    auth: true,
    revision: true,
    body: linkTagsBody,
    errors: ['ORIGIN_GOOD.NOT_FOUND', 'UNKNOWN_REFERENCE', 'TAGS.NOT_A_DIMENSION'],
    responses: { 200: linkTagsAnswer },
  },
  {
    method: 'post',
    path: '/origin-goods/:id/tags/restore-auto',
    summary: 'Give a link back its derived tags',
    auth: true,
    revision: true,
    errors: ['ORIGIN_GOOD.NOT_FOUND', 'ORIGIN_GOOD.UNPARSEABLE'],
    responses: { 200: linkWithDetail },
  },
];
