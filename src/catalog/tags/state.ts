/** A tag folded from its stream: the state its commands decide on (./decide.ts). */
import type { TagEvent } from './events';

export interface TagFields {
  groupId: string;
  name: string;
  sortOrder: number;
  color: string | null;
}

export type TagState = { status: 'none' } | ({ status: 'active'; id: string } & TagFields) | { status: 'deleted'; id: string };

export const initialTag = (): TagState => ({ status: 'none' });

export function evolveTag(state: TagState, e: TagEvent): TagState {
  switch (e.type) {
    case 'TagCreated': {
      const { tagId, ...fields } = e.data;
      return { status: 'active', id: tagId, ...fields };
    }
    case 'TagUpdated': {
      if (state.status !== 'active') return state;
      const { tagId: _id, ...changes } = e.data;
      return { ...state, ...changes };
    }
    case 'TagDeleted':
      return { status: 'deleted', id: e.data.tagId };
    case 'TagsReordered':
      return state; // lives on the order stream, never on a tag's
    default: {
      const _exhaustive: never = e;
      return state;
    }
  }
}
