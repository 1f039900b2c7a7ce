import { decideCategory, evolveCategory, initialCategory, type CategoryCommand, type CategoryState } from '../../../../src/catalog/categories/decide';
import { decider } from '../../../support/given-when-then';

const spec = decider<CategoryState, CategoryCommand>({ initial: initialCategory, evolve: evolveCategory, decide: decideCategory });
const C = '1125899906842628001';
const PARENT = '1125899906842628002';
const CHILD = '1125899906842628003';
const fields = { parentId: PARENT, name: 'T恤', icon: null, sortOrder: 0 };
const created = { type: 'CategoryCreated', data: { categoryId: C, ...fields } };
const liveParent = { exists: true, ancestors: [] };
const mirrored = {
  type: 'CategoryMirrored',
  data: { categoryId: '5', parentId: null, name: '服装', rawName: '服装', icon: 'a.png', supplierSort: 9, sortOrder: 9 },
};

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

    it('an unknown parent is 400 CATEGORY.UNKNOWN_PARENT', () => {
      spec.given([]).when({ type: 'CreateCategory', categoryId: C, fields, parent: { exists: false, ancestors: [] } }).thenFails('CATEGORY.UNKNOWN_PARENT', 400);
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
      spec.given([created]).when({ type: 'UpdateCategory', categoryId: C, changes: { parentId: C }, parent: liveParent }).thenFails('CATEGORY.PARENT_CYCLE', 400);
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

    it('a mirrored category takes admin edits; its sortOrder is the administrators\' from then on', () => {
      spec
        .given([mirrored])
        .when({ type: 'UpdateCategory', categoryId: '5', changes: { sortOrder: 1 }, parent: null })
        .then([{ type: 'CategoryUpdated', data: { categoryId: '5', sortOrder: 1 } }]);
      // a later mirror carries sortOrder null and leaves the administrators' alone
      const later = { ...mirrored, data: { ...mirrored.data, sortOrder: null } };
      expect(spec.stateAfter([mirrored, { type: 'CategoryUpdated', data: { categoryId: '5', sortOrder: 1 } }, later])).toMatchObject({ sortOrder: 1 });
    });

    it('an unknown, deleted or upstream-removed category is 404 CATEGORY.NOT_FOUND', () => {
      spec.given([]).when({ type: 'UpdateCategory', categoryId: C, changes: { name: 'x' }, parent: null }).thenFails('CATEGORY.NOT_FOUND', 404);
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

  describe('delete', () => {
    it('a category without children is deleted', () => {
      spec.given([created]).when({ type: 'DeleteCategory', categoryId: C, childCount: 0 }).then([{ type: 'CategoryDeleted', data: { categoryId: C } }]);
    });

    it('a category with children is 409 CATEGORY.HAS_CHILDREN', () => {
      spec.given([created]).when({ type: 'DeleteCategory', categoryId: C, childCount: 2 }).thenFails('CATEGORY.HAS_CHILDREN', 409);
    });
  });
});
