/** Administrator CRUD of positions: /positions (docs/api.md). */
import { positionView } from '../../contract/vocabulary';
import { Router, type RequestHandler } from 'express';
import { parseWith } from '../../platform/http/errors';
import { expectedRevisionOf, setRevisionTag } from '../../platform/http/revision';
import { parseQuery } from '../../platform/http/validate';
import { parseId } from '../../platform/ids';
import { withReferences } from '../references';
import { actorOf, answerWrite } from '../write-answer';
import { type AdminDeps } from '../admin-commands';
import { positionNotFound } from './decide';
import { createPosition, deletePosition, updatePosition } from './handle';
import { getPosition, listPositions } from './queries';
import { createPositionBody, listPositionsQuery, updatePositionBody } from './requests';
import { resourceDocs } from '../../platform/http/openapi';

export function positionRoutes(deps: AdminDeps, guard: RequestHandler): Router {
  const r = Router();
  r.get('/positions', guard, async (req, res) => {
    res.json(await listPositions(deps.pool, parseQuery(listPositionsQuery, req.query)));
  });
  r.get('/positions/:id', guard, async (req, res) => {
    const id = parseId(req.params.id);
    const position = await getPosition(deps.pool, id);
    if (!position) throw positionNotFound(id);
    setRevisionTag(res, position.revision);
    res.json(position);
  });
  r.post('/positions', guard, async (req, res) => {
    const body = parseWith(createPositionBody, req.body, 'body');
    const refs = [{ field: 'goodIds', kind: 'good' as const, ids: body.goodIds }];
    const { id, revision, own } = await withReferences(deps.pool, refs, () => createPosition(deps, body, actorOf(req, res)));
    await answerWrite(res, 201, id, revision, () => getPosition(deps.pool, id), own);
  });
  r.patch('/positions/:id', guard, async (req, res) => {
    const id = parseId(req.params.id);
    const body = parseWith(updatePositionBody, req.body, 'body');
    const refs = [{ field: 'goodIds', kind: 'good' as const, ids: body.goodIds ?? [] }];
    const { revision, own } = await withReferences(deps.pool, refs, () => updatePosition(deps, id, body, actorOf(req, res), expectedRevisionOf(req)));
    await answerWrite(res, 200, id, revision, () => getPosition(deps.pool, id), own);
  });
  r.delete('/positions/:id', guard, async (req, res) => {
    await deletePosition(deps, parseId(req.params.id), actorOf(req, res), expectedRevisionOf(req));
    res.status(204).end();
  });
  return r;
}

/** The operations above, with the schemas they parse (src/platform/http/openapi.ts). */
export const positionRouteDocs = resourceDocs({
  path: '/positions',
  one: 'home position',
  many: 'home positions',
  listQuery: listPositionsQuery,
  createBody: createPositionBody,
  updateBody: updatePositionBody,
  view: positionView,
  notFound: 'POSITION.NOT_FOUND',
  writeErrors: ['UNKNOWN_REFERENCE', 'POSITION.DUPLICATE_GOODS'],
});
