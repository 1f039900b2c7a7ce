/** Administrator CRUD of tags: /tags, and PATCH /tags/sort with the full new order (docs/api.md). */
import { Router, type RequestHandler } from 'express';
import { parseWith } from '../../platform/http/errors';
import { expectedRevisionOf, setRevisionTag } from '../../platform/http/revision';
import { parseQuery } from '../../platform/http/validate';
import { parseId } from '../../platform/ids';
import { actorOf, answerWrite } from '../write-answer';
import { type AdminDeps } from '../admin-commands';
import { tagNotFound } from './decide';
import { createTag, deleteTag, sortTags, updateTag } from './handle';
import { getTag, listTags, tagOrder } from './queries';
import { createTagBody, listTagsQuery, sortTagsBody, updateTagBody } from './requests';
import { resourceDocs } from '../../platform/http/openapi';
import { tagUsage } from '../usage';
import { tagView } from '../../contract/vocabulary';

export function tagRoutes(deps: AdminDeps, guard: RequestHandler): Router {
  const r = Router();
  r.get('/tags', guard, async (req, res) => {
    res.json(await listTags(deps.pool, parseQuery(listTagsQuery, req.query)));
  });
  // Before /tags/:id, which would take "sort" for an id.
  r.patch('/tags/sort', guard, async (req, res) => {
    const body = parseWith(sortTagsBody, req.body, 'body');
    await sortTags(deps, body.ids, actorOf(req, res), expectedRevisionOf(req));
    res.json({ ids: await tagOrder(deps.pool) });
  });
  r.get('/tags/:id', guard, async (req, res) => {
    const id = parseId(req.params.id);
    const tag = await getTag(deps.pool, id);
    if (!tag) throw tagNotFound(id);
    setRevisionTag(res, tag.revision);
    res.json(tag);
  });
  r.get('/tags/:id/usage', guard, async (req, res) => {
    const id = parseId(req.params.id);
    if (!(await getTag(deps.pool, id))) throw tagNotFound(id);
    res.json(await tagUsage(deps.pool, id));
  });
  r.post('/tags', guard, async (req, res) => {
    const body = parseWith(createTagBody, req.body, 'body');
    const { id, revision, own } = await createTag(deps, body, actorOf(req, res));
    await answerWrite(res, 201, id, revision, () => getTag(deps.pool, id), own);
  });
  r.patch('/tags/:id', guard, async (req, res) => {
    const id = parseId(req.params.id);
    const body = parseWith(updateTagBody, req.body, 'body');
    const { revision, own } = await updateTag(deps, id, body, actorOf(req, res), expectedRevisionOf(req));
    await answerWrite(res, 200, id, revision, () => getTag(deps.pool, id), own);
  });
  r.delete('/tags/:id', guard, async (req, res) => {
    await deleteTag(deps, parseId(req.params.id), actorOf(req, res), expectedRevisionOf(req));
    res.status(204).end();
  });
  return r;
}

/** The operations above, with the schemas they parse (src/platform/http/openapi.ts). */
export const tagRouteDocs = resourceDocs({
  path: '/tags',
  one: 'tag',
  many: 'tags',
  listQuery: listTagsQuery,
  createBody: createTagBody,
  updateBody: updateTagBody,
  sortBody: sortTagsBody,
  usage: 'goods and links that carry it, public families it is on (goods or links refuse a delete)',
  view: tagView,
  notFound: 'TAG.NOT_FOUND',
  writeErrors: ['UNKNOWN_REFERENCE', 'TAG.NAME_TAKEN'],
  sortErrors: ['TAGS.NOT_A_PERMUTATION'],
  inUse: ['TAG.IN_USE'],
});
