/**
 * The HTTP side the catalog's routes share: who issued a command, and how a write is answered.
 */
import type { Request, Response } from 'express';
import type { Actor } from '../platform/commands';
import { authOf } from '../auth/guard';
import { setRevisionTag } from '../platform/http/revision';

/** The signed-in administrator (the route's guard put it there) and the request id for correlation. */
export function actorOf(req: Request, res: Response): Actor {
  const id = (req as { id?: unknown }).id;
  return { by: authOf(res).user.id, ...(typeof id === 'string' ? { correlationId: id } : {}) };
}

/**
 * Answers a write with the resource as the next read will show it. The command has waited for its
 * projections; should that wait have timed out (a projection far behind), the read model does not
 * show the change yet, and the answer is 202 with the id and revision instead of stale data.
 */
export async function answerWrite(
  res: Response,
  status: 200 | 201,
  id: string,
  revision: bigint | null,
  read: () => Promise<{ revision: string } | null>,
  /** this command's own fields, shown over a row a later write has already moved on */
  own?: Record<string, unknown>,
): Promise<void> {
  const row = await read();
  if (row && BigInt(row.revision) >= (revision ?? -1n)) {
    const answer = BigInt(row.revision) === revision || !own ? row : { ...row, ...own, revision: revision!.toString() };
    setRevisionTag(res, answer.revision);
    res.status(status).json(answer);
    return;
  }
  res.status(202).json({ id, revision: revision?.toString() ?? null });
}
