/** Administrator CRUD of tag groups: /tag-groups (docs/api.md). */
import { tagGroupView } from '../../contract/vocabulary';
import { Router, type RequestHandler } from 'express';
import { parseWith } from '../../platform/http/errors';
import { expectedRevisionOf, setRevisionTag } from '../../platform/http/revision';
import { parseQuery } from '../../platform/http/validate';
import { parseId } from '../../platform/ids';
import { actorOf, answerWrite } from '../write-answer';
import { type AdminDeps } from '../admin-commands';
import { tagGroupNotFound } from './decide';
import { createTagGroup, deleteTagGroup, updateTagGroup } from './handle';
import { getTagGroup, listTagGroups } from './queries';
import { createTagGroupBody, listTagGroupsQuery, updateTagGroupBody } from './requests';
import { tagGroupUsage } from '../usage';
import { resourceDocs } from '../../platform/http/openapi';

export function tagGroupRoutes(deps: AdminDeps, guard: RequestHandler): Router {
  const r = Router();
  r.get('/tag-groups', guard, async (req, res) => {
    res.json(await listTagGroups(deps.pool, parseQuery(listTagGroupsQuery, req.query)));
  });
  r.get('/tag-groups/:id', guard, async (req, res) => {
    const id = parseId(req.params.id);
    const group = await getTagGroup(deps.pool, id);
    if (!group) throw tagGroupNotFound(id);
    setRevisionTag(res, group.revision);
    res.json(group);
  });
  r.get('/tag-groups/:id/usage', guard, async (req, res) => {
    const id = parseId(req.params.id);
    if (!(await getTagGroup(deps.pool, id))) throw tagGroupNotFound(id);
    res.json(await tagGroupUsage(deps.pool, id));
  });
  r.post('/tag-groups', guard, async (req, res) => {
    const body = parseWith(createTagGroupBody, req.body, 'body');
    const { id, revision, own } = await createTagGroup(deps, body, actorOf(req, res));
    await answerWrite(res, 201, id, revision, () => getTagGroup(deps.pool, id), own);
  });
  r.patch('/tag-groups/:id', guard, async (req, res) => {
    const id = parseId(req.params.id);
    const body = parseWith(updateTagGroupBody, req.body, 'body');
    const { revision, own } = await updateTagGroup(deps, id, body, actorOf(req, res), expectedRevisionOf(req));
    await answerWrite(res, 200, id, revision, () => getTagGroup(deps.pool, id), own);
  });
  r.delete('/tag-groups/:id', guard, async (req, res) => {
    await deleteTagGroup(deps, parseId(req.params.id), actorOf(req, res), expectedRevisionOf(req));
    res.status(204).end();
  });
  return r;
}

/** The operations above, with the schemas they parse (src/platform/http/openapi.ts). */
export const tagGroupRouteDocs = resourceDocs({
  path: '/tag-groups',
  one: 'tag group',
  many: 'tag groups',
  listQuery: listTagGroupsQuery,
  createBody: createTagGroupBody,
  updateBody: updateTagGroupBody,
  usage: 'its tags, and the goods, links and public families they are on (tags refuse a delete)',
  view: tagGroupView,
  notFound: 'TAG_GROUP.NOT_FOUND',
  writeErrors: ['TAG_GROUP.DIMENSION_TAKEN'],
  inUse: ['TAG_GROUP.HAS_TAGS'],
});
