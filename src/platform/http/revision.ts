/**
 * Optimistic concurrency over HTTP. Admin resources answer their stream revision (`revision` in the
 * body and as `ETag`); a client that sends it back in `If-Match` gets 409 `EVENT_STORE.WRONG_REVISION`
 * when someone else changed the resource since, instead of overwriting that change unseen.
 * Without `If-Match` the command still appends against the revision it read, so two commands racing
 * on one stream never both succeed blindly either.
 */
import type { Request, Response } from 'express';
import { AppError } from '../errors';

const IF_MATCH = /^\s*(?:W\/)?"?(\d{1,19})"?\s*$/;

/** The revision named by `If-Match`, or undefined when the header is absent (`*` means any). */
export function expectedRevisionOf(req: Request): bigint | undefined {
  const h = req.headers['if-match'];
  if (h === undefined || h.trim() === '*') return undefined;
  const m = IF_MATCH.exec(h);
  if (!m) throw AppError.badRequest('INVALID_IF_MATCH', 'If-Match must carry a revision as answered in `revision`, e.g. "3"');
  return BigInt(m[1]!);
}

export function setRevisionTag(res: Response, revision: string): void {
  res.setHeader('ETag', `"${revision}"`);
}
