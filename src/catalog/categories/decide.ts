/**
 * Categories, pure: a category's state folded from its stream (the supplier mirror's events and the
 * administrators') and the administrators' decisions on it. The tree around it (does the parent
 * exist, what are its ancestors, how many children are there) comes in with the command.
 */
import { changedFields } from '../../platform/changes';
import { AppError, unknownReference } from '../../platform/errors';
import { refuseWhileUsed, type Usage } from '../usage';
import { decideReorder } from '../../platform/permutation';
import type { CategoryAdminEvent } from './admin-events';
import { type CategoryFields, type CategoryState } from './state';

/** The parent a command places the category under. */
export interface ParentFacts {
  /** a live category */
  exists: boolean;
  /** the parent's ancestors, nearest first (not the parent itself) */
  ancestors: readonly string[];
}

export type CategoryCommand =
  | { type: 'CreateCategory'; categoryId: string; fields: CategoryFields; /** null when parentId is */ parent: ParentFacts | null }
  | { type: 'UpdateCategory'; categoryId: string; changes: Partial<CategoryFields>; /** facts of changes.parentId when it names one */ parent: ParentFacts | null }
  /** `usage`: its live children and what else uses it, counted under its reference lock (src/catalog/usage.ts) */
  | { type: 'DeleteCategory'; categoryId: string; usage: Usage<'children' | 'goods' | 'links' | 'families'> };

export const categoryNotFound = (id: string) => AppError.notFound('CATEGORY.NOT_FOUND', `no category ${id}`);

function checkParent(categoryId: string, parentId: string | null, parent: ParentFacts | null): void {
  if (parentId === null) return;
  if (!parent?.exists) throw unknownReference('parentId', [parentId], 'category');
  if (parentId === categoryId || parent.ancestors.includes(categoryId)) {
    throw AppError.badRequest('CATEGORY.PARENT_CYCLE', `category ${parentId} is ${categoryId} itself or lies under it`, { parentId });
  }
}

/** Administrators' decisions: their own events only, never the supplier mirror's. */
export function decideCategory(state: CategoryState, command: CategoryCommand): CategoryAdminEvent[] {
  switch (command.type) {
    case 'CreateCategory':
      if (state.status !== 'none') throw AppError.conflict('CATEGORY.ALREADY_EXISTS', `category ${command.categoryId} already exists`);
      checkParent(command.categoryId, command.fields.parentId, command.parent);
      return [{ type: 'CategoryCreated', data: { categoryId: command.categoryId, ...command.fields } }];
    case 'UpdateCategory': {
      if (state.status !== 'active') throw categoryNotFound(command.categoryId);
      const { sortOrder, ...rest } = command.changes;
      const changes: Partial<CategoryFields> = changedFields(state, rest);
      // Always written when asked for: the category's stream cannot tell whether a reorder moved it since.
      if (sortOrder !== undefined) changes.sortOrder = sortOrder;
      if (changes.parentId !== undefined) checkParent(state.id, changes.parentId, command.parent);
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'CategoryUpdated', data: { categoryId: state.id, ...changes } }];
    }
    case 'DeleteCategory':
      if (state.status !== 'active') throw categoryNotFound(command.categoryId);
      if (command.usage.counts.children > 0) {
        const childCount = command.usage.counts.children;
        throw AppError.conflict('CATEGORY.HAS_CHILDREN', `category ${state.id} still has ${childCount} subcategories; delete or move them first`, { childCount, ...command.usage });
      }
      refuseWhileUsed('CATEGORY.IN_USE', `category ${state.id}`, command.usage);
      return [{ type: 'CategoryDeleted', data: { categoryId: state.id } }];
    default: {
      const _exhaustive: never = command;
      throw new Error('unknown command');
    }
  }
}

/**
 * The full new order of one parent's children. `current` is every live child of `parentId` in its
 * present order; the new order must name each exactly once. The order it already has appends nothing.
 */
export function decideCategoryOrder(parentId: string | null, current: readonly string[], requested: readonly string[]): CategoryAdminEvent[] {
  const whose = parentId === null ? 'top-level category' : `child of category ${parentId}`;
  return decideReorder(current, requested, { code: 'CATEGORIES.NOT_A_PERMUTATION', message: `ids must list every ${whose} exactly once` }, (categoryIds) => ({
    type: 'CategoriesReordered',
    data: { parentId, categoryIds },
  }));
}
