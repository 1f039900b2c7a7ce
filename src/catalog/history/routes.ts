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
    ['/product-families/:id/history', 'family', 'family', 'FAMILY.NOT_FOUND'],
    ['/goods/:id/history', 'good', 'good', 'GOOD.NOT_FOUND'],
    ['/origin-goods/:id/history', 'link', 'originGood', 'ORIGIN_GOOD.NOT_FOUND'],
  ] as const
).map(([path, what, at, missing]) => ({
  method: 'get',
  path,
  summary: `The ${what}'s audit history: its events and those that changed what the public saw; with \`at\` the ${what} as it was then; with \`from\` and \`to\` what changed between`,
  auth: true,
  query: historyQuery,
  // Answered from the event log: its faults too. No such subject, or none at `at`: the 404.
  errors: [missing, 'HISTORY.QUERY_INVALID', 'HISTORY.RANGE_INVALID', 'EVENT_STORE.UNAVAILABLE'],
  responses: { 200: historyAnswer(at) },
}));
