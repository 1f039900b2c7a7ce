import type { TagGroupEvent } from '../../../../src/catalog/tag-groups/events';
import { decideTagGroup } from '../../../../src/catalog/tag-groups/decide';
import { evolveTagGroup, initialTagGroup } from '../../../../src/catalog/tag-groups/state';
import { decider } from '../../../support/given-when-then';

const spec = decider({ initial: initialTagGroup, evolve: evolveTagGroup, decide: decideTagGroup });
const G = '1125899906842624001';
const OTHER = '1125899906842624002';
const created = (dimension: 'size' | 'color' | null = 'size'): TagGroupEvent => ({ type: 'TagGroupCreated', data: { tagGroupId: G, name: 'Size', dimension } });

describe('tag group decisions', () => {
  describe('create', () => {
    it('given nothing, creating a group with a free dimension records it', () => {
      spec
        .given([])
        .when({ type: 'CreateTagGroup', tagGroupId: G, fields: { name: 'Size', dimension: 'size' }, dimensionHolder: null })
        .then([created('size')]);
    });

    it('a group without a dimension never collides', () => {
      spec
        .given([])
        .when({ type: 'CreateTagGroup', tagGroupId: G, fields: { name: 'Style', dimension: null }, dimensionHolder: OTHER })
        .then([{ type: 'TagGroupCreated', data: { tagGroupId: G, name: 'Style', dimension: null } }]);
    });

    it('a dimension another group holds is refused with 409 TAG_GROUP.DIMENSION_TAKEN', () => {
      const err = spec
        .given([])
        .when({ type: 'CreateTagGroup', tagGroupId: G, fields: { name: 'Sizes', dimension: 'size' }, dimensionHolder: OTHER })
        .thenFails('TAG_GROUP.DIMENSION_TAKEN', 409);
      expect(err.details).toEqual({ dimension: 'size', tagGroupId: OTHER });
    });

    it('an existing stream is not created twice', () => {
      spec
        .given([created()])
        .when({ type: 'CreateTagGroup', tagGroupId: G, fields: { name: 'Size', dimension: null }, dimensionHolder: null })
        .thenFails('TAG_GROUP.ALREADY_EXISTS', 409);
    });
  });

  describe('update', () => {
    it('records only what changed', () => {
      spec
        .given([created('size')])
        .when({ type: 'UpdateTagGroup', tagGroupId: G, changes: { name: 'Sizes', dimension: 'size' }, dimensionHolder: G })
        .then([{ type: 'TagGroupUpdated', data: { tagGroupId: G, name: 'Sizes' } }]);
    });

    it('clearing the dimension is a change to null', () => {
      spec
        .given([created('size')])
        .when({ type: 'UpdateTagGroup', tagGroupId: G, changes: { dimension: null }, dimensionHolder: null })
        .then([{ type: 'TagGroupUpdated', data: { tagGroupId: G, dimension: null } }]);
    });

    it('nothing changed: nothing recorded', () => {
      spec
        .given([created('size')])
        .when({ type: 'UpdateTagGroup', tagGroupId: G, changes: { name: 'Size' }, dimensionHolder: null })
        .then([]);
    });

    it('moving to a dimension another group holds is refused', () => {
      spec
        .given([created('size')])
        .when({ type: 'UpdateTagGroup', tagGroupId: G, changes: { dimension: 'color' }, dimensionHolder: OTHER })
        .thenFails('TAG_GROUP.DIMENSION_TAKEN', 409);
    });

    it('an unknown or deleted group is 404 TAG_GROUP.NOT_FOUND', () => {
      spec
        .given([])
        .when({ type: 'UpdateTagGroup', tagGroupId: G, changes: { name: 'x' }, dimensionHolder: null })
        .thenFails('TAG_GROUP.NOT_FOUND', 404);
      spec
        .given([created(), { type: 'TagGroupDeleted', data: { tagGroupId: G } }])
        .when({ type: 'UpdateTagGroup', tagGroupId: G, changes: { name: 'x' }, dimensionHolder: null })
        .thenFails('TAG_GROUP.NOT_FOUND', 404);
    });
  });

  describe('delete', () => {
    it('an empty group is deleted', () => {
      spec
        .given([created()])
        .when({ type: 'DeleteTagGroup', tagGroupId: G, tagCount: 0 })
        .then([{ type: 'TagGroupDeleted', data: { tagGroupId: G } }]);
    });

    it('a group with tags is refused with 409 TAG_GROUP.HAS_TAGS', () => {
      spec.given([created()]).when({ type: 'DeleteTagGroup', tagGroupId: G, tagCount: 3 }).thenFails('TAG_GROUP.HAS_TAGS', 409);
    });

    it('deleting twice is 404', () => {
      spec
        .given([created(), { type: 'TagGroupDeleted', data: { tagGroupId: G } }])
        .when({ type: 'DeleteTagGroup', tagGroupId: G, tagCount: 0 })
        .thenFails('TAG_GROUP.NOT_FOUND', 404);
    });
  });

  it('the state follows the stream', () => {
    expect(spec.stateAfter([created('size'), { type: 'TagGroupUpdated', data: { tagGroupId: G, name: 'Sizes', dimension: null } }])).toEqual({
      status: 'active',
      id: G,
      name: 'Sizes',
      dimension: null,
    });
  });
});
