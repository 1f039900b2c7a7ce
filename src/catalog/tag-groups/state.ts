/** A taggroup folded from its stream: the state its commands decide on (./decide.ts). */
import type { TagGroupEvent } from './events';
import type { Dimension } from '../domain/tags';

export interface TagGroupFields {
  name: string;
  dimension: Dimension | null;
}

export type TagGroupState = { status: 'none' } | ({ status: 'active'; id: string } & TagGroupFields) | { status: 'deleted'; id: string };

export const initialTagGroup = (): TagGroupState => ({ status: 'none' });

export function evolveTagGroup(state: TagGroupState, e: TagGroupEvent): TagGroupState {
  switch (e.type) {
    case 'TagGroupCreated':
      return { status: 'active', id: e.data.tagGroupId, name: e.data.name, dimension: e.data.dimension };
    case 'TagGroupUpdated': {
      if (state.status !== 'active') return state;
      const { tagGroupId: _id, ...changes } = e.data;
      return { ...state, ...changes };
    }
    case 'TagGroupDeleted':
      return { status: 'deleted', id: e.data.tagGroupId };
    default: {
      const _exhaustive: never = e;
      return state;
    }
  }
}
