/** Positions, pure: the state folded from a position's stream and the decisions on it. */
import { changedFields } from '../../platform/changes';
import { AppError } from '../../platform/errors';
import type { PositionEvent } from './events';
import { type PositionFields, type PositionState } from './state';

export type PositionCommand =
  | { type: 'CreatePosition'; positionId: string; fields: PositionFields }
  | { type: 'UpdatePosition'; positionId: string; changes: Partial<PositionFields> }
  | { type: 'DeletePosition'; positionId: string };

export const positionNotFound = (id: string) => AppError.notFound('POSITION.NOT_FOUND', `no position ${id}`);

/** A good placed twice in one position would show twice on the home page. */
function checkGoods(goodIds: readonly string[] | undefined): void {
  if (!goodIds) return;
  const seen = new Set<string>();
  const duplicated = [...new Set(goodIds.filter((id) => (seen.has(id) ? true : (seen.add(id), false))))];
  if (duplicated.length) throw AppError.badRequest('POSITION.DUPLICATE_GOODS', 'a good may appear in a position once', { duplicated });
}

export function decidePosition(state: PositionState, command: PositionCommand): PositionEvent[] {
  switch (command.type) {
    case 'CreatePosition':
      if (state.status !== 'none') throw AppError.conflict('POSITION.ALREADY_EXISTS', `position ${command.positionId} already exists`);
      checkGoods(command.fields.goodIds);
      return [{ type: 'PositionCreated', data: { positionId: command.positionId, ...command.fields } }];
    case 'UpdatePosition': {
      if (state.status !== 'active') throw positionNotFound(command.positionId);
      checkGoods(command.changes.goodIds);
      const changes = changedFields<PositionFields>(state, command.changes);
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'PositionUpdated', data: { positionId: state.id, ...changes } }];
    }
    case 'DeletePosition':
      if (state.status !== 'active') throw positionNotFound(command.positionId);
      return [{ type: 'PositionDeleted', data: { positionId: state.id } }];
    default: {
      const _exhaustive: never = command;
      throw new Error('unknown command');
    }
  }
}
