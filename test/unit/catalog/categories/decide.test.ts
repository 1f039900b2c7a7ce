import type { CategoryEvent } from '../../../../src/catalog/categories/events';
import { decideCategory, decideCategoryOrder } from '../../../../src/catalog/categories/decide';
import { evolveCategory, initialCategory } from '../../../../src/catalog/categories/state';
import { AppError } from '../../../../src/platform/errors';
import { decider } from '../../../support/given-when-then';

const spec = decider({ initial: initialCategory, evolve: evolveCategory, decide: decideCategory });
const C = '1125899906842628001';
const PARENT = '1125899906842628002';
const CHILD = '1125899906842628003';
const fields = { parentId: PARENT, name: 'T恤', icon: null, sortOrder: 0 };
const created = { type: 'CategoryCreated', data: { categoryId: C, ...fields } } satisfies CategoryEvent;
const liveParent = { exists: true, ancestors: [] };
const mirrored = {
  type: 'CategoryMirrored',
  data: { categoryId: '5', parentId: null, name: '服装', rawName: '服装', icon: 'a.png', supplierSort: 9, sortOrder: 9 },
} satisfies CategoryEvent;

describe('category decisions', () => {
  describe('create', () => {
    it('given a live parent, the category is created under it', () => {
      spec.given([]).when({ type: 'CreateCategory', categoryId: C, fields, parent: liveParent }).then([created]);
    });

    it('a top-level category needs no parent', () => {
      spec
        .given([])
        .when({ type: 'CreateCategory', categoryId: C, fields: { ...fields, parentId: null }, parent: null })
        .then([{ type: 'CategoryCreated', data: { categoryId: C, ...fields, parentId: null } }]);
    });

    it('an unknown parent is 400 UNKNOWN_REFERENCE', () => {
      spec
        .given([])
        .when({ type: 'CreateCategory', categoryId: C, fields, parent: { exists: false, ancestors: [] } })
        .thenFails('UNKNOWN_REFERENCE', 400);
    });
  });

  describe('update', () => {
    it('records only what changed', () => {
      spec
        .given([created])
        .when({ type: 'UpdateCategory', categoryId: C, changes: { name: 'T恤', icon: 'x.png' }, parent: null })
        .then([{ type: 'CategoryUpdated', data: { categoryId: C, icon: 'x.png' } }]);
    });

    it('moving under itself or under one of its descendants is 400 CATEGORY.PARENT_CYCLE', () => {
      spec
        .given([created])
        .when({ type: 'UpdateCategory', categoryId: C, changes: { parentId: C }, parent: liveParent })
        .thenFails('CATEGORY.PARENT_CYCLE', 400);
      spec
        .given([created])
        .when({ type: 'UpdateCategory', categoryId: C, changes: { parentId: CHILD }, parent: { exists: true, ancestors: [C, PARENT] } })
        .thenFails('CATEGORY.PARENT_CYCLE', 400);
    });

    it('moving to the top level is a change to null', () => {
      spec
        .given([created])
        .when({ type: 'UpdateCategory', categoryId: C, changes: { parentId: null }, parent: null })
        .then([{ type: 'CategoryUpdated', data: { categoryId: C, parentId: null } }]);
    });

    it('a mirrored category takes admin edits', () => {
      spec
        .given([mirrored])
        .when({ type: 'UpdateCategory', categoryId: '5', changes: { sortOrder: 1 }, parent: null })
        .then([{ type: 'CategoryUpdated', data: { categoryId: '5', sortOrder: 1 } }]);
    });

    it('a requested sortOrder is always recorded, even one equal to the last the stream saw (a reorder may have moved it since)', () => {
      spec
        .given([created, { type: 'CategoryUpdated', data: { categoryId: C, sortOrder: 4 } }])
        .when({ type: 'UpdateCategory', categoryId: C, changes: { name: 'T恤', sortOrder: 4 }, parent: null })
        .then([{ type: 'CategoryUpdated', data: { categoryId: C, sortOrder: 4 } }]);
    });

    it('an unknown, deleted or upstream-removed category is 404 CATEGORY.NOT_FOUND', () => {
      spec
        .given([])
        .when({ type: 'UpdateCategory', categoryId: C, changes: { name: 'x' }, parent: null })
        .thenFails('CATEGORY.NOT_FOUND', 404);
      spec
        .given([created, { type: 'CategoryDeleted', data: { categoryId: C } }])
        .when({ type: 'UpdateCategory', categoryId: C, changes: { name: 'x' }, parent: null })
        .thenFails('CATEGORY.NOT_FOUND', 404);
      spec
        .given([mirrored, { type: 'CategoryRemovedUpstream', data: { categoryId: '5' } }])
        .when({ type: 'UpdateCategory', categoryId: '5', changes: { name: 'x' }, parent: null })
        .thenFails('CATEGORY.NOT_FOUND', 404);
    });
  });

  /** What uses the category, as src/catalog/usage.ts counts it (families alone never refuse a delete). */
  const used = (c: Partial<Record<'children' | 'goods' | 'links' | 'families', number>>) => {
    const counts = { children: 0, goods: 0, links: 0, families: 0, ...c };
    return { counts, blockedBy: (['children', 'goods', 'links'] as const).filter((k) => counts[k] > 0) };
  };

  describe('delete', () => {
    it('a category without children is deleted', () => {
      spec
        .given([created])
        .when({ type: 'DeleteCategory', categoryId: C, usage: used({}) })
        .then([{ type: 'CategoryDeleted', data: { categoryId: C } }]);
    });

    it('a category with children is 409 CATEGORY.HAS_CHILDREN', () => {
      spec
        .given([created])
        .when({ type: 'DeleteCategory', categoryId: C, usage: used({ children: 2 }) })
        .thenFails('CATEGORY.HAS_CHILDREN', 409);
    });

    it('a category goods or links are filed under is 409 CATEGORY.IN_USE, with the counts', () => {
      spec
        .given([created])
        .when({ type: 'DeleteCategory', categoryId: C, usage: used({ goods: 3, families: 2 }) })
        .thenFails('CATEGORY.IN_USE', 409);
      spec
        .given([created])
        .when({ type: 'DeleteCategory', categoryId: C, usage: used({ links: 1 }) })
        .thenFails('CATEGORY.IN_USE', 409);
    });
  });

  describe("order of a parent's children", () => {
    const [A, B, D] = ['1125899906842628101', '1125899906842628102', '1125899906842628103'];

    it('a permutation of the live children is one CategoriesReordered naming the parent', () => {
      expect(decideCategoryOrder(PARENT, [A, B, D], [D, A, B])).toEqual([{ type: 'CategoriesReordered', data: { parentId: PARENT, categoryIds: [D, A, B] } }]);
      expect(decideCategoryOrder(null, [A, B], [B, A])).toEqual([{ type: 'CategoriesReordered', data: { parentId: null, categoryIds: [B, A] } }]);
    });

    it('the order they already have appends nothing', () => {
      expect(decideCategoryOrder(PARENT, [A, B, D], [A, B, D])).toEqual([]);
    });

    it('a child left out, an id that is no child, or one given twice is 400 CATEGORIES.NOT_A_PERMUTATION with what is wrong', () => {
      const fails = (requested: string[]) => {
        try {
          decideCategoryOrder(PARENT, [A, B, D], requested);
        } catch (e) {
          return e as AppError;
        }
        throw new Error('expected a failure');
      };
      const missing = fails([A, B]);
      expect([missing.code, missing.status]).toEqual(['CATEGORIES.NOT_A_PERMUTATION', 400]);
      expect(missing.details).toEqual({ missing: [D], unknown: [], duplicated: [] });
      expect(fails([A, B, D, C]).details).toEqual({ missing: [], unknown: [C], duplicated: [] });
      expect(fails([A, B, D, A]).details).toEqual({ missing: [], unknown: [], duplicated: [A] });
    });
  });
});
