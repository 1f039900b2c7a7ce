import type { GoodEvent } from '../../../../src/catalog/goods/events';
import { decideGood, requireKnownOrigins, type LinkForGood } from '../../../../src/catalog/goods/decide';
import { evolveGood, initialGoodState } from '../../../../src/catalog/goods/state';
import { AppError } from '../../../../src/platform/errors';
import { decider } from '../../../support/given-when-then';

const G = '1125899906842628001';
const L = '1125899906842627001';
const L2 = '1125899906842627002';
const T1 = '1125899906842625001';
const T2 = '1125899906842625002';
const C = '1125899906842629001';
const spec = decider({ initial: initialGoodState(G), evolve: evolveGood, decide: decideGood });

const link: LinkForGood = { id: L, derivedName: '双面绒卫衣 G18000', categoryName: null, categoryId: C, countryId: null, image: 'a.jpg', tagIds: [T1] };
const customCreated = {
  type: 'GoodCreated',
  data: { goodId: G, originGoodId: null, name: 'Mug', description: null, image: null, goodPriority: 0, tagIds: [], tagFontColor: null, categoryId: null, countryId: null },
} satisfies GoodEvent;
const fromLink = {
  type: 'GoodCreated',
  data: {
    goodId: G,
    originGoodId: L,
    name: '双面绒卫衣 G18000',
    description: null,
    image: 'a.jpg',
    goodPriority: 0,
    tagIds: [T1],
    tagFontColor: null,
    categoryId: C,
    countryId: null,
  },
} satisfies GoodEvent;
const deleted = { type: 'GoodDeleted', data: { goodId: G } } satisfies GoodEvent;
describe('good decisions', () => {
  describe('create', () => {
    it('a custom good takes its own fields, defaults for the rest', () => {
      spec
        .given([])
        .when({ type: 'CreateGood', fields: { name: 'Mug' }, link: null })
        .then([customCreated]);
    });

    it('a good from a link takes the link’s name, image, category and tags where it gives none', () => {
      spec.given([]).when({ type: 'CreateGood', fields: {}, link }).then([fromLink]);
    });

    it('its own fields win over the link’s; its tags are added to the link’s', () => {
      spec
        .given([])
        .when({ type: 'CreateGood', fields: { image: 'b.jpg', tagIds: [T2], goodPriority: 5 }, link })
        .then([{ type: 'GoodCreated', data: { ...fromLink.data, image: 'b.jpg', tagIds: [T2, T1], goodPriority: 5 } }]);
    });

    it('the name is normalised', () => {
      spec
        .given([])
        .when({ type: 'CreateGood', fields: { name: '  Big   Mug ' }, link: null })
        .then([{ type: 'GoodCreated', data: { ...customCreated.data, name: 'Big Mug' } }]);
    });

    it('a custom good without a name is 400 GOOD.NAME_REQUIRED', () => {
      spec.given([]).when({ type: 'CreateGood', fields: {}, link: null }).thenFails('GOOD.NAME_REQUIRED', 400);
    });

    it('a good that exists is 409 GOOD.EXISTS', () => {
      spec
        .given([customCreated])
        .when({ type: 'CreateGood', fields: { name: 'Mug' }, link: null })
        .thenFails('GOOD.EXISTS', 409);
    });
  });

  describe('update', () => {
    it('records only what changed', () => {
      spec
        .given([customCreated])
        .when({ type: 'UpdateGood', changes: { name: 'Mug', description: 'Tall' }, link: null })
        .then([{ type: 'GoodUpdated', data: { goodId: G, description: 'Tall' } }]);
      spec
        .given([customCreated])
        .when({ type: 'UpdateGood', changes: { name: 'Mug' }, link: null })
        .then([]);
    });

    it('a good from a link keeps the link’s tags whatever the patch', () => {
      spec
        .given([fromLink])
        .when({ type: 'UpdateGood', changes: { tagIds: [T2] }, link })
        .then([{ type: 'GoodUpdated', data: { goodId: G, tagIds: [T2, T1] } }]);
      spec
        .given([fromLink])
        .when({ type: 'UpdateGood', changes: { tagIds: [] }, link })
        .then([]);
    });

    it('an update that sends no tags brings the good’s dimension tags to its link’s current ones, keeping its other tags', () => {
      const T3 = '1125899906842625003';
      const own = '1125899906842625009';
      const carrying = { type: 'GoodUpdated' as const, data: { goodId: G, tagIds: [T1, own] } };
      // The link's tags were changed by hand from T1 to T3: the good's T1 leaves, its own tag stays.
      spec
        .given([fromLink, carrying])
        .when({ type: 'UpdateGood', changes: { goodPriority: 2 }, link: { ...link, tagIds: [T3] }, dimensionTagIds: new Set([T1, T2, T3]) })
        .then([{ type: 'GoodUpdated', data: { goodId: G, goodPriority: 2, tagIds: [own, T3] } }]);
      // Nothing changed on the link: only what the patch says.
      spec
        .given([fromLink, carrying])
        .when({ type: 'UpdateGood', changes: { goodPriority: 2 }, link, dimensionTagIds: new Set([T1, T2, T3]) })
        .then([{ type: 'GoodUpdated', data: { goodId: G, goodPriority: 2 } }]);
    });

    it('an unknown or deleted good is 404 GOOD.NOT_FOUND', () => {
      spec
        .given([])
        .when({ type: 'UpdateGood', changes: { name: 'x' }, link: null })
        .thenFails('GOOD.NOT_FOUND', 404);
      spec
        .given([customCreated, deleted])
        .when({ type: 'UpdateGood', changes: { name: 'x' }, link: null })
        .thenFails('GOOD.NOT_FOUND', 404);
    });
  });

  describe('secondary origins', () => {
    it('sets them once each, in their order; the same list again appends nothing', () => {
      spec
        .given([fromLink])
        .when({ type: 'SetGoodOrigins', secondaryOriginGoodIds: [L2, L2] })
        .then([{ type: 'GoodOriginsSet', data: { goodId: G, secondaryOriginGoodIds: [L2] } }]);
      spec
        .given([fromLink, { type: 'GoodOriginsSet', data: { goodId: G, secondaryOriginGoodIds: [L2] } }])
        .when({ type: 'SetGoodOrigins', secondaryOriginGoodIds: [L2] })
        .then([]);
    });

    it('the primary origin as a secondary one is 400 GOOD.PRIMARY_AS_SECONDARY', () => {
      spec
        .given([fromLink])
        .when({ type: 'SetGoodOrigins', secondaryOriginGoodIds: [L2, L] })
        .thenFails('GOOD.PRIMARY_AS_SECONDARY', 400);
    });

    it('a link the read model does not know is 400 UNKNOWN_REFERENCE naming the field and it', () => {
      expect(() => requireKnownOrigins([L, L2], [L, L2])).not.toThrow();
      let caught: unknown;
      try {
        requireKnownOrigins([L, L2], [L]);
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(AppError);
      expect([(caught as AppError).code, (caught as AppError).details]).toEqual(['UNKNOWN_REFERENCE', { field: 'secondaryOriginGoodIds', missing: [L2] }]);
    });

    it('a deleted good is 404', () => {
      spec.given([fromLink, deleted]).when({ type: 'SetGoodOrigins', secondaryOriginGoodIds: [] }).thenFails('GOOD.NOT_FOUND', 404);
    });
  });

  describe('delete', () => {
    it('deletes a live good; a deleted one is 404', () => {
      spec.given([customCreated]).when({ type: 'DeleteGood' }).then([deleted]);
      spec.given([customCreated, deleted]).when({ type: 'DeleteGood' }).thenFails('GOOD.NOT_FOUND', 404);
    });
  });
});
