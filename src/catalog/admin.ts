/**
 * What the administrator CRUD slices (tag groups, tags, positions, countries, categories) are built
 * from, and who an admin command is recorded as having been issued by.
 */
import { foldWhitespace } from './domain/names';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { authOf } from '../auth/guard';
import type { Pool } from '../platform/db';
import { runCommand, type Actor, type CommandDeps, type PendingEvent } from '../platform/commands';
import { hasVisibleText, int32Field } from '../platform/http/fields';
import { setRevisionTag } from '../platform/http/revision';

/** `Services` satisfies it; tests may hand in less. */
export interface AdminDeps extends CommandDeps {
  pool: Pool;
}

/** The signed-in administrator (the route's guard put it there) and the request id for correlation. */
export function actorOf(req: Request, res: Response): Actor {
  const id = (req as { id?: unknown }).id;
  return { by: authOf(res).user.id, ...(typeof id === 'string' ? { correlationId: id } : {}) };
}

/** Names compare without case and with white space folded, so `Red` and ` red ` are one name. */
export const nameKey = (name: string) => foldWhitespace(name).toLowerCase();

/** A display name in a request: white space folded, then 1..max characters, something of it visible. */
export const nameField = (max = 100) =>
  z
    .string()
    .transform(foldWhitespace)
    .pipe(z.string().min(1).max(max).refine(hasVisibleText, { message: 'must contain a visible character' }));

/** A display order value in a request: a 32-bit integer. */
export const sortOrderField = int32Field();

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

/**
 * The fields of a live resource's folded state an answer shows over a read-model row a later write
 * has already moved on (answerWrite's `own`); nothing for a resource that is not live.
 */
export function ownOf<S extends { status: string }>(state: S, keys: readonly string[]): Record<string, unknown> | undefined {
  if (state.status !== 'active') return undefined;
  const s = state as unknown as Record<string, unknown>;
  return Object.fromEntries(keys.filter((k) => k in s).map((k) => [k, s[k]]));
}

/**
 * Appends a full new order (countries, tags, one parent's categories) to its order stream. The
 * decision reads the live members, not the stream, so the stream is folded to nothing; it gives
 * the revision an If-Match is checked against.
 */
export async function saveOrder(
  deps: AdminDeps,
  streamId: string,
  command: { name: string; actor: Actor; expectedRevision?: bigint | undefined; decide: () => PendingEvent[] },
): Promise<void> {
  const { expectedRevision, ...rest } = command;
  await runCommand(deps, { streamId, initial: () => null, evolve: () => null }, { ...rest, ...(expectedRevision !== undefined ? { expectedRevision } : {}) });
}
