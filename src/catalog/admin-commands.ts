/**
 * How the administrator CRUD slices (tag groups, tags, positions, countries, categories) run their
 * commands: what they need, and the pieces their handlers share.
 */
import type { Pool } from '../platform/db';
import { runCommand, type Actor, type CommandDeps, type PendingEvent, type StreamSpec } from '../platform/commands';
import type { AnyEvent } from '../platform/events/registry';

/** The composition root's services satisfy it; tests may hand in less. */
export interface AdminDeps extends CommandDeps {
  pool: Pool;
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
 * the revision an If-Match is checked against. `E`: the events the order stream holds.
 */
export async function saveOrder<E extends AnyEvent>(
  deps: AdminDeps,
  streamId: string,
  command: { name: string; actor: Actor; expectedRevision?: bigint | undefined; decide: () => PendingEvent<E>[] },
): Promise<void> {
  const { expectedRevision, ...rest } = command;
  const stream: StreamSpec<null, E> = { streamId, initial: () => null, evolve: () => null };
  await runCommand(deps, stream, { ...rest, ...(expectedRevision !== undefined ? { expectedRevision } : {}) });
}
