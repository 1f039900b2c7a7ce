/** The audit history of families, goods and links (docs/api.md, History). */
import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { AppError } from '../../platform/errors';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../platform/http/pagination';
import { parseQuery } from '../../platform/http/validate';
import { parseId } from '../../platform/ids';
import type { RouteDoc } from '../../platform/http/openapi';
import { history, historyAt, historyBetween, type HistoryDeps, type SubjectKind } from './history';

const time = z.iso.datetime({ offset: true });
/** `at`: the subject then; `from` + `to`: what changed between; neither: the list (paged only when asked). */
export const historyQuery = z
  .object({
    at: time.optional(),
    from: time.optional(),
    to: time.optional(),
    page: z.coerce.number().int().min(1).max(1_000_000).optional(),
    pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
  })
  .strict();

/** The answer's key for the subject as it was (`?at=`), kept from the first version of the family route. */
const SUBJECT_KEY: Record<SubjectKind, string> = { family: 'family', good: 'good', link: 'originGood' };

export async function answerHistory(deps: HistoryDeps, kind: SubjectKind, id: string, query: unknown) {
  const q = parseQuery(historyQuery, query);
  if (q.at && (q.from || q.to)) throw AppError.badRequest('HISTORY.QUERY_INVALID', 'give either `at`, or `from` and `to`, not both');
  if (!!q.from !== !!q.to) throw AppError.badRequest('HISTORY.QUERY_INVALID', '`from` and `to` go together');
  if ((q.page || q.pageSize) && (q.at || q.from)) throw AppError.badRequest('HISTORY.QUERY_INVALID', 'paging applies to the list only');
  if (q.at) {
    const at = new Date(q.at);
    return { at: at.toISOString(), [SUBJECT_KEY[kind]]: await historyAt(deps, kind, id, at) };
  }
  if (q.from && q.to) return historyBetween(deps, kind, id, new Date(q.from), new Date(q.to));
  return history(deps, kind, id, q.page || q.pageSize ? { page: q.page ?? 1, pageSize: q.pageSize ?? DEFAULT_PAGE_SIZE } : {});
}

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
    ['/product-families/:id/history', 'family', '{at, family}', 'No such family (or none at `at`)'],
    ['/goods/:id/history', 'good', '{at, good}', 'No such good (or none at `at`)'],
    ['/origin-goods/:id/history', 'link', '{at, originGood}', 'No such link (or none at `at`)'],
  ] as const
).map(([path, what, at, missing]) => ({
  method: 'get',
  path,
  summary: `The ${what}'s audit history: its events and those that changed what the public saw; with \`at\` the ${what} as it was then; with \`from\` and \`to\` what changed between`,
  auth: true,
  query: historyQuery,
  responses: { 200: `{items: [{position, stream, version, type, at, by, why, correlationId, data, changes}], total}, or ${at}, or {from, to, changes, items} (docs/api.md, History)`, 400: 'A bad time, `at` with `from`/`to`, `from` without `to`, `from` after `to`', 404: missing },
}));
