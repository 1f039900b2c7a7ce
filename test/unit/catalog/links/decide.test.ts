import type { LinkEvent } from '../../../../src/catalog/links/events';
import { decideLink } from '../../../../src/catalog/links/decide';
import { evolveLink, initialLinkState } from '../../../../src/catalog/links/state';
import { decider } from '../../../support/given-when-then';

const L = '1125899906842627001';
const F1 = '1125899906842626001';
const F2 = '1125899906842626002';
const G = '1125899906842628001';
const spec = decider({ initial: initialLinkState, evolve: evolveLink, decide: decideLink });

const mirror = (name: string): LinkEvent => ({
  type: 'LinkMirrored',
  data: { linkId: L, name, categoryId: null, craftLabel: null, price: '10.00', image: null, status: 'ON_SALE', supplierUpdatedAt: null },
});
const mirrored = mirror('美国（包邮）双面绒卫衣 G18000 直喷双面');
const unparseable = mirror('纯棉短袖T恤 G5000');
const parsed = {
  type: 'LinkParsed',
  data: { linkId: L, country: '美国', logistics: '包邮', productName: '双面绒卫衣', sku: 'G18000', familyNameKey: '["美国","双面绒卫衣","G18000"]' },
} satisfies LinkEvent;
const derived = { size: [], color: [], printCount: ['双面印花'], craft: ['直喷'], logistics: ['包邮'] };
const joined = (familyId: string): LinkEvent => ({ type: 'LinkJoinedFamily', data: { linkId: L, familyId } });

describe('link decisions', () => {
  describe('tags by hand', () => {
    it('keeps the administrator’s values and fills the dimensions left empty from the name; a link never organised is parsed first', () => {
      spec
        .given([mirrored])
        .when({ type: 'UpdateLinkTags', linkId: L, manual: { craft: ['烫画'], size: ['M'] } })
        .then([
          parsed,
          {
            type: 'LinkTagsTakenOver',
            data: {
              linkId: L,
              tags: { ...derived, size: ['M'], craft: ['烫画'] },
              filled: [
                { dimension: 'printCount', value: '双面印花' },
                { dimension: 'logistics', value: '包邮' },
              ],
            },
          },
        ]);
    });

    it('an organised link is not parsed again', () => {
      const events = decideLink(spec.stateAfter([mirrored, parsed]), { type: 'UpdateLinkTags', linkId: L, manual: {} });
      expect(events.map((e) => e.type)).toEqual(['LinkTagsTakenOver']);
    });

    it('an unparseable name fills nothing', () => {
      spec
        .given([unparseable])
        .when({ type: 'UpdateLinkTags', linkId: L, manual: { size: ['M'] } })
        .then([{ type: 'LinkTagsTakenOver', data: { linkId: L, tags: { size: ['M'], color: [], printCount: [], craft: [], logistics: [] }, filled: [] } }]);
    });

    it('an unknown link is 404 ORIGIN_GOOD.NOT_FOUND', () => {
      spec.given([]).when({ type: 'UpdateLinkTags', linkId: L, manual: {} }).thenFails('ORIGIN_GOOD.NOT_FOUND', 404);
    });
  });

  describe('restore derived tags', () => {
    it('takes back the derived tags after a takeover', () => {
      const takenOver = { type: 'LinkTagsTakenOver', data: { linkId: L, tags: { ...derived, craft: ['烫画'] }, filled: [] } } satisfies LinkEvent;
      spec
        .given([mirrored, parsed, takenOver])
        .when({ type: 'RestoreAutoLinkTags', linkId: L })
        .then([{ type: 'LinkTagsRestored', data: { linkId: L, tags: derived, missing: [] } }]);
    });

    it('derived tags already the link’s append nothing (a never organised link is only parsed)', () => {
      const derivedEvent = { type: 'LinkTagsDerived', data: { linkId: L, tags: derived, missing: [] } } satisfies LinkEvent;
      spec.given([mirrored, parsed, derivedEvent]).when({ type: 'RestoreAutoLinkTags', linkId: L }).then([]);
      spec.given([mirrored, derivedEvent]).when({ type: 'RestoreAutoLinkTags', linkId: L }).then([parsed]);
    });

    it('an unparseable name is 400 ORIGIN_GOOD.UNPARSEABLE; an unknown link 404', () => {
      spec.given([unparseable]).when({ type: 'RestoreAutoLinkTags', linkId: L }).thenFails('ORIGIN_GOOD.UNPARSEABLE', 400);
      spec.given([]).when({ type: 'RestoreAutoLinkTags', linkId: L }).thenFails('ORIGIN_GOOD.NOT_FOUND', 404);
    });
  });

  describe('family', () => {
    it('a link joins a family, leaving the one it was in', () => {
      spec
        .given([mirrored])
        .when({ type: 'MoveLinkToFamily', linkId: L, familyId: F1 })
        .then([joined(F1)]);
      spec
        .given([mirrored, joined(F1)])
        .when({ type: 'MoveLinkToFamily', linkId: L, familyId: F2 })
        .then([{ type: 'LinkLeftFamily', data: { linkId: L, familyId: F1 } }, joined(F2)]);
    });

    it('null takes it out of any family; its own family again appends nothing', () => {
      spec
        .given([mirrored, joined(F1)])
        .when({ type: 'MoveLinkToFamily', linkId: L, familyId: null })
        .then([{ type: 'LinkLeftFamily', data: { linkId: L, familyId: F1 } }]);
      spec
        .given([mirrored, joined(F1)])
        .when({ type: 'MoveLinkToFamily', linkId: L, familyId: F1 })
        .then([]);
      spec.given([mirrored]).when({ type: 'MoveLinkToFamily', linkId: L, familyId: null }).then([]);
    });

    it('an unknown link is 404', () => {
      spec.given([]).when({ type: 'MoveLinkToFamily', linkId: L, familyId: F1 }).thenFails('ORIGIN_GOOD.NOT_FOUND', 404);
    });
  });

  describe('the good made from it', () => {
    const assigned = { type: 'LinkGoodAssigned', data: { linkId: L, goodId: G } } satisfies LinkEvent;
    it('a link is the primary origin of one good at most: a second is 409 GOOD.EXISTS_FOR_LINK naming the first', () => {
      spec.given([mirrored]).when({ type: 'AssignGood', linkId: L, goodId: G }).then([assigned]);
      const err = spec.given([mirrored, assigned]).when({ type: 'AssignGood', linkId: L, goodId: '1125899906842628002' }).thenFails('GOOD.EXISTS_FOR_LINK', 409);
      expect(err.details).toEqual({ goodId: G });
    });

    it('a deleted good releases its claim; another good’s claim stays', () => {
      spec
        .given([mirrored, assigned])
        .when({ type: 'UnassignGood', linkId: L, goodId: G })
        .then([{ type: 'LinkGoodUnassigned', data: { linkId: L, goodId: G } }]);
      spec.given([mirrored, assigned]).when({ type: 'UnassignGood', linkId: L, goodId: '1125899906842628002' }).then([]);
      spec.given([mirrored]).when({ type: 'UnassignGood', linkId: L, goodId: G }).then([]);
    });
  });
});
