/** How a family write answers (docs/http-contract.md, Revisions), for the family and member routes. */
import type { Response } from 'express';
import { AppError } from '../../platform/errors';
import { setRevisionTag } from '../../platform/http/revision';
import { normaliseMoney } from '../domain/money';
import type { FamilyDeps, FamilyResult } from './handle';
import { readFamily } from './queries';

/**
 * The family as this command's own append left it (docs/http-contract.md, Revisions): the read
 * model when it shows that revision; its name, lock, custom members and overrides from the
 * command when a later write has already landed; 202 when the read model is not there yet, or when
 * a later write moved the member this command added or removed (`member`: the link, and whether
 * this command left it in the family).
 */
export async function answerFamily(deps: FamilyDeps, res: Response, status: 200 | 201, id: string, result: FamilyResult, member?: { linkId: string; in: boolean }) {
  const row = await readFamily(deps.pool, id).catch((e) => (e instanceof AppError && e.status === 404 ? null : Promise.reject(e)));
  const own = result.revision ?? -1n;
  const memberMoved = !!row && !!member && (row.members as { id: string }[]).some((m) => m.id === member.linkId) !== member.in;
  if (!row || BigInt(row.revision) < own || memberMoved) {
    res.status(202).json({ id, revision: result.revision?.toString() ?? null });
    return;
  }
  const st = result.state;
  const body =
    BigInt(row.revision) === own
      ? row
      : {
          ...row,
          name: st.name,
          locked: st.locked,
          shelf: st.shelf,
          customMembers: [...st.customMembers].sort((a, b) => (BigInt(a.goodId) < BigInt(b.goodId) ? -1 : 1)).map((c) => ({ ...c, price: normaliseMoney(c.price) })),
          overrides: st.overrides.map((o) => ({ ...o, price: normaliseMoney(o.price) })),
          revision: own.toString(),
        };
  setRevisionTag(res, body.revision);
  res.status(status).json(body);
}
