/**
 * Optimistic concurrency over HTTP. Admin resources answer their stream revision (`revision` in the
 * body and as `ETag`); a client that sends it back in `If-Match` gets 409 `EVENT_STORE.WRONG_REVISION`
 * when someone else changed the resource since, instead of overwriting that change unseen.
 * Without `If-Match` the command still appends against the revision it read, so two commands racing
 * on one stream never both succeed blindly either.
 */
import type { Request, Response } from 'express';
import { AppError } from '../errors';

/**
 * What `If-Match` may carry: `*` (any revision), or one revision as answered (`"3"`, the ETag), weak
 * or not, quoted or not, white space around it. The API description says this very pattern
 * (src/platform/http/openapi.ts), so the document and the check are one.
 */
export const IF_MATCH = new RegExp('^\\s*(?:\\*|(?:W/)?"?(\\d{1,19})"?)\\s*$');

/** The revision named by `If-Match`, or undefined when the header is absent or `*`. */
export function expectedRevisionOf(req: Request): bigint | undefined {
  const h = req.headers['if-match'];
  if (h === undefined) return undefined;
  const m = IF_MATCH.exec(h);
  if (!m) throw AppError.badRequest('INVALID_IF_MATCH', 'If-Match must carry a revision as answered in `revision`, e.g. "3"');
  return m[1] === undefined ? undefined : BigInt(m[1]);
}

export function setRevisionTag(res: Response, revision: string): void {
  res.setHeader('ETag', `"${revision}"`);
}
