/** A category folded from its stream: the state its commands decide on (./decide.ts). */
import type { CategoryEvent } from './events';

export interface CategoryFields {
  parentId: string | null;
  name: string;
  icon: string | null;
  sortOrder: number;
}

/** sortOrder is not kept: reorders live on the parent's order stream, so the category's own would be stale. */
export type CategoryState =
  { status: 'none' } | { status: 'active' | 'removed'; id: string; parentId: string | null; name: string; icon: string | null; source: 'supplier' | 'admin' };

export const initialCategory = (): CategoryState => ({ status: 'none' });

export function evolveCategory(state: CategoryState, e: CategoryEvent): CategoryState {
  switch (e.type) {
    case 'CategoryMirrored': {
      const d = e.data;
      return { status: 'active', id: d.categoryId, parentId: d.parentId, name: d.name, icon: d.icon, source: 'supplier' };
    }
    case 'CategoryCreated': {
      const { categoryId, sortOrder: _order, ...fields } = e.data;
      return { status: 'active', id: categoryId, ...fields, source: 'admin' };
    }
    case 'CategoryUpdated': {
      if (state.status === 'none') return state;
      const { categoryId: _id, sortOrder: _order, ...changes } = e.data;
      return { ...state, ...changes };
    }
    case 'CategoryRemovedUpstream':
    case 'CategoryDeleted':
      return state.status === 'none' ? state : { ...state, status: 'removed' };
    case 'CategoriesReordered':
      return state; // lives on the parent's order stream, never on a category's
    default: {
      const _exhaustive: never = e;
      return state;
    }
  }
}
