/** A position folded from its stream: the state its commands decide on (./decide.ts). */
import type { PositionEvent } from './events';

export interface PositionFields {
  name: string;
  sortOrder: number;
  goodIds: string[];
}

export type PositionState = { status: 'none' } | ({ status: 'active'; id: string } & PositionFields) | { status: 'deleted'; id: string };

export const initialPosition = (): PositionState => ({ status: 'none' });

export function evolvePosition(state: PositionState, e: PositionEvent): PositionState {
  switch (e.type) {
    case 'PositionCreated': {
      const { positionId, ...fields } = e.data;
      return { status: 'active', id: positionId, ...fields };
    }
    case 'PositionUpdated': {
      if (state.status !== 'active') return state;
      const { positionId: _id, ...changes } = e.data;
      return { ...state, ...changes };
    }
    case 'PositionDeleted':
      return { status: 'deleted', id: e.data.positionId };
    default: {
      const _exhaustive: never = e;
      return state;
    }
  }
}
