/**
 * Position commands: load → decide → append (runCommand). The route has checked that the goods exist
 * (src/catalog/references.ts); a good deleted later may still be named, and the home page shows only
 * placed goods that are public (docs/domain.md, Public catalog).
 */
import { type Actor, type StreamSpec, commandRunner } from '../../platform/commands';
import { newId } from '../../platform/ids';
import { ownOf, type AdminDeps } from '../admin-commands';
import { decidePosition } from './decide';
import { evolvePosition, initialPosition, type PositionState } from './state';
import { positionStreamId, type PositionEvent } from './events';
import type { CreatePositionBody, UpdatePositionBody } from './requests';

/** What a write's answer shows from its own result (src/catalog/write-answer.ts, answerWrite). */
const OWN = ['name', 'sortOrder', 'goodIds'];

export const positionStream = (id: string): StreamSpec<PositionState, PositionEvent> => ({ streamId: positionStreamId(id), initial: initialPosition, evolve: evolvePosition });

const run = commandRunner(positionStream, decidePosition);

export async function createPosition(deps: AdminDeps, body: CreatePositionBody, actor: Actor) {
  const positionId = newId();
  const result = await run(deps, positionId, actor, { type: 'CreatePosition', positionId, fields: body });
  return { id: positionId, revision: result.revision, own: ownOf(result.state, OWN) };
}

export async function updatePosition(deps: AdminDeps, positionId: string, changes: UpdatePositionBody, actor: Actor, expectedRevision?: bigint) {
  const result = await run(deps, positionId, actor, { type: 'UpdatePosition', positionId, changes }, { expectedRevision });
  return { id: positionId, revision: result.revision, own: ownOf(result.state, OWN) };
}

export async function deletePosition(deps: AdminDeps, positionId: string, actor: Actor, expectedRevision?: bigint): Promise<void> {
  await run(deps, positionId, actor, { type: 'DeletePosition', positionId }, { expectedRevision });
}
