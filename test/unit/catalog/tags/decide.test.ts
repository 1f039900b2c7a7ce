import type { TagEvent } from '../../../../src/catalog/tags/events';
import { decideTag, decideTagOrder } from '../../../../src/catalog/tags/decide';
import { evolveTag, initialTag } from '../../../../src/catalog/tags/state';
import type { AppError } from '../../../../src/platform/errors';
import { decider } from '../../../support/given-when-then';

const spec = decider({ initial: initialTag, evolve: evolveTag, decide: decideTag });
const T = '1125899906842625001';
const G1 = '1125899906842624001';
const G2 = '1125899906842624002';
const fields = { groupId: G1, name: 'Red', sortOrder: 4, color: null };
const created = { type: 'TagCreated', data: { tagId: T, ...fields } } satisfies TagEvent;
const freeGroup = { exists: true, otherNames: ['blue'] };

const unused = { counts: { goods: 0, links: 0, families: 0 }, blockedBy: [] };

describe('tag decisions', () => {
  describe('create', () => {
    it('given an existing group without the name, the tag is created', () => {
      spec.given([]).when({ type: 'CreateTag', tagId: T, fields, group: freeGroup }).then([created]);
    });

    it('a name the group already has (ignoring case and spaces) is 409 TAG.NAME_TAKEN', () => {
      spec
        .given([])
        .when({ type: 'CreateTag', tagId: T, fields: { ...fields, name: 'Blue' }, group: freeGroup })
        .thenFails('TAG.NAME_TAKEN', 409);
    });

    it('an unknown group is 400 UNKNOWN_REFERENCE', () => {
      spec
        .given([])
        .when({ type: 'CreateTag', tagId: T, fields, group: { exists: false, otherNames: [] } })
        .thenFails('UNKNOWN_REFERENCE', 400);
    });
  });

  describe('update', () => {
    it('records only what changed', () => {
      spec
        .given([created])
        .when({ type: 'UpdateTag', tagId: T, changes: { name: 'Red', color: '#ff0000' }, group: freeGroup })
        .then([{ type: 'TagUpdated', data: { tagId: T, color: '#ff0000' } }]);
    });

    it('a requested sortOrder is always written: a reorder elsewhere may have moved the tag', () => {
      spec
        .given([created])
        .when({ type: 'UpdateTag', tagId: T, changes: { sortOrder: 4 }, group: freeGroup })
        .then([{ type: 'TagUpdated', data: { tagId: T, sortOrder: 4 } }]);
    });

    it('moving to another group checks the name there', () => {
      spec
        .given([created])
        .when({ type: 'UpdateTag', tagId: T, changes: { groupId: G2 }, group: { exists: true, otherNames: ['red'] } })
        .thenFails('TAG.NAME_TAKEN', 409);
      spec
        .given([created])
        .when({ type: 'UpdateTag', tagId: T, changes: { groupId: G2 }, group: { exists: true, otherNames: [] } })
        .then([{ type: 'TagUpdated', data: { tagId: T, groupId: G2 } }]);
      spec
        .given([created])
        .when({ type: 'UpdateTag', tagId: T, changes: { groupId: G2 }, group: { exists: false, otherNames: [] } })
        .thenFails('UNKNOWN_REFERENCE', 400);
    });

    it('renaming to its own name in other case is allowed (the tag itself is not among the others)', () => {
      spec
        .given([created])
        .when({ type: 'UpdateTag', tagId: T, changes: { name: 'RED' }, group: freeGroup })
        .then([{ type: 'TagUpdated', data: { tagId: T, name: 'RED' } }]);
    });

    it('an unknown or deleted tag is 404 TAG.NOT_FOUND', () => {
      spec
        .given([])
        .when({ type: 'UpdateTag', tagId: T, changes: { name: 'x' }, group: freeGroup })
        .thenFails('TAG.NOT_FOUND', 404);
      spec
        .given([created, { type: 'TagDeleted', data: { tagId: T } }])
        .when({ type: 'UpdateTag', tagId: T, changes: { name: 'x' }, group: freeGroup })
        .thenFails('TAG.NOT_FOUND', 404);
    });
  });

  describe('delete', () => {
    it('deletes a live tag, and a deleted one is 404', () => {
      spec
        .given([created])
        .when({ type: 'DeleteTag', tagId: T, usage: unused })
        .then([{ type: 'TagDeleted', data: { tagId: T } }]);
      spec
        .given([created, { type: 'TagDeleted', data: { tagId: T } }])
        .when({ type: 'DeleteTag', tagId: T, usage: unused })
        .thenFails('TAG.NOT_FOUND', 404);
      spec
        .given([created])
        .when({ type: 'DeleteTag', tagId: T, usage: { counts: { goods: 0, links: 361, families: 0 }, blockedBy: ['links'] } })
        .thenFails('TAG.IN_USE', 409);
    });
  });

  describe('the full order of all tags', () => {
    const current = ['1', '2', '3'];

    it('a permutation is recorded as one TagsReordered', () => {
      expect(decideTagOrder(current, ['3', '1', '2'])).toEqual([{ type: 'TagsReordered', data: { tagIds: ['3', '1', '2'] } }]);
    });

    it('the order it already has records nothing', () => {
      expect(decideTagOrder(current, ['1', '2', '3'])).toEqual([]);
    });

    it('a non-permutation is 400 TAGS.NOT_A_PERMUTATION naming what is missing, unknown and duplicated', () => {
      let err: AppError | undefined;
      try {
        decideTagOrder(current, ['3', '3', '9']);
      } catch (e) {
        err = e as AppError;
      }
      expect(err?.code).toBe('TAGS.NOT_A_PERMUTATION');
      expect(err?.status).toBe(400);
      expect(err?.details).toEqual({ missing: ['1', '2'], unknown: ['9'], duplicated: ['3'] });
    });
  });
});
