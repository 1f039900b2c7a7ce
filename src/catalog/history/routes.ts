/** The audit history of families, goods and links (docs/api.md, History). */
import { Router, type RequestHandler } from 'express';
import { parseId } from '../../platform/ids';
import type { RouteDoc } from '../../platform/http/openapi';
import { answerHistory } from './handle';
import type { HistoryDeps, SubjectKind } from './history';
import { historyAnswer } from '../../contract/history';
import { historyQuery } from './requests';

export function historyRoutes(deps: HistoryDeps, guard: RequestHandler): Router {
  const r = Router();
  const route = (path: string, kind: SubjectKind) =>
    r.get(path, guard, async (req, res) => {
      res.json(await answerHistory(deps, kind, parseId(req.params.id), req.query));
    });
  route('/product-families/:id/history', 'family');
  route('/goods/:id/history', 'good');
  route('/origin-goods/:id/history', 'link');
  return r;
}

/** The operations above, with the query schema they parse (src/platform/http/openapi.ts). */
export const historyRouteDocs: RouteDoc[] = (
  [
    ['/product-families/:id/history', 'family', 'family', 'No such family (or none at `at`)'],
    ['/goods/:id/history', 'good', 'good', 'No such good (or none at `at`)'],
    ['/origin-goods/:id/history', 'link', 'originGood', 'No such link (or none at `at`)'],
  ] as const
).map(([path, what, at, missing]) => ({
  method: 'get',
  path,
  summary: `The ${what}'s audit history: its events and those that changed what the public saw; with \`at\` the ${what} as it was then; with \`from\` and \`to\` what changed between`,
  auth: true,
  query: historyQuery,
  responses: { 200: historyAnswer(at), 400: 'A bad time, `at` with `from`/`to`, `from` without `to`, `from` after `to`', 404: missing },
}));
