/** The one answer of the history routes and of `catalog history`: the list, the subject at a time, or what changed between two. */
import { AppError } from '../../platform/errors';
import { DEFAULT_PAGE_SIZE } from '../../platform/http/pagination';
import { parseQuery } from '../../platform/http/validate';
import { history, historyAt, historyBetween, type HistoryDeps, type SubjectKind } from './history';
import { historyQuery } from './requests';

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
