import type { FamilyEvent } from '../../../../src/catalog/families/events';
import { decideFamily, requireCustomGood } from '../../../../src/catalog/families/decide';
import { evolveFamily, initialFamilyState } from '../../../../src/catalog/families/state';
import { AppError } from '../../../../src/platform/errors';
import { decider } from '../../../support/given-when-then';

const F = '1125899906842626001';
const L = '1125899906842627001';
const G = '1125899906842628001';
const spec = decider({ initial: initialFamilyState(F), evolve: evolveFamily, decide: decideFamily });

const created = { type: 'FamilyCreated', data: { familyId: F, name: 'Hoodie', familyNameKey: null, autoManaged: false, locked: true, shelf: 'on' } } satisfies FamilyEvent;
const unlocked = { type: 'FamilyUnlocked', data: { familyId: F } } satisfies FamilyEvent;
const deleted = { type: 'FamilyDeleted', data: { familyId: F } } satisfies FamilyEvent;
const merged = { type: 'FamilyMergedInto', data: { familyId: F, intoFamilyId: '1125899906842626002' } } satisfies FamilyEvent;
const tags = { size: ['M'], color: ['红'], printCount: [], craft: ['直喷'], logistics: ['包邮'] };
const customAdded = { type: 'FamilyCustomMemberAdded', data: { familyId: F, goodId: G, tags, price: '20.00' } } satisfies FamilyEvent;
const key = { size: 'M', color: '红', printCount: '单面印花', craft: '直喷', logistics: '包邮' };
const overrideSet = { type: 'FamilyPriceOverrideSet', data: { familyId: F, ...key, price: '30.00' } } satisfies FamilyEvent;
describe('family decisions', () => {
  describe('create', () => {
    it('an administrator’s family is manually managed and locked, so organisation leaves it alone', () => {
      spec.given([]).when({ type: 'CreateFamily', name: 'Hoodie', familyNameKey: null, shelf: 'on' }).then([created]);
      spec
        .given([])
        .when({ type: 'CreateFamily', name: 'Hoodie', familyNameKey: 'k', shelf: 'on' })
        .then([{ type: 'FamilyCreated', data: { ...created.data, familyNameKey: 'k' } }]);
    });

    it('a family that exists is 409 FAMILY.EXISTS, a deleted one too', () => {
      spec.given([created]).when({ type: 'CreateFamily', name: 'Other', familyNameKey: null, shelf: 'on' }).thenFails('FAMILY.EXISTS', 409);
      spec.given([created, deleted]).when({ type: 'CreateFamily', name: 'Other', familyNameKey: null, shelf: 'on' }).thenFails('FAMILY.EXISTS', 409);
    });
  });

  describe('update', () => {
    it('records only what changed: a rename, a lock, an unlock', () => {
      spec
        .given([created])
        .when({ type: 'UpdateFamily', changes: { name: 'Sweat', locked: true } })
        .then([{ type: 'FamilyRenamed', data: { familyId: F, name: 'Sweat' } }]);
      spec
        .given([created])
        .when({ type: 'UpdateFamily', changes: { locked: false } })
        .then([unlocked]);
      spec
        .given([created, unlocked])
        .when({ type: 'UpdateFamily', changes: { locked: true } })
        .then([{ type: 'FamilyLocked', data: { familyId: F } }]);
      spec
        .given([created, unlocked])
        .when({ type: 'UpdateFamily', changes: { name: 'Sweat', locked: true } })
        .then([
          { type: 'FamilyRenamed', data: { familyId: F, name: 'Sweat' } },
          { type: 'FamilyLocked', data: { familyId: F } },
        ]);
    });

    it('its own name and lock again append nothing', () => {
      spec
        .given([created])
        .when({ type: 'UpdateFamily', changes: { name: 'Hoodie', locked: true } })
        .then([]);
    });

    it('a family never created, deleted or merged away is 404 FAMILY.NOT_FOUND', () => {
      for (const given of [[], [created, deleted], [created, merged]]) {
        spec
          .given(given)
          .when({ type: 'UpdateFamily', changes: { name: 'x' } })
          .thenFails('FAMILY.NOT_FOUND', 404);
      }
    });
  });

  describe('delete', () => {
    it('an empty family is deleted', () => {
      spec.given([created]).when({ type: 'DeleteFamily', memberCount: 0, goodCount: 0 }).then([deleted]);
    });

    it('members or goods in the read model, or custom members on the stream, are 409 FAMILY.NOT_EMPTY with the counts', () => {
      const err = spec.given([created]).when({ type: 'DeleteFamily', memberCount: 2, goodCount: 0 }).thenFails('FAMILY.NOT_EMPTY', 409);
      expect(err.details).toEqual({ memberCount: 2, goodCount: 0 });
      spec.given([created]).when({ type: 'DeleteFamily', memberCount: 0, goodCount: 1 }).thenFails('FAMILY.NOT_EMPTY', 409);
      spec.given([created, customAdded]).when({ type: 'DeleteFamily', memberCount: 0, goodCount: 0 }).thenFails('FAMILY.NOT_EMPTY', 409);
      // A member the read model did not show yet, recorded on the family's stream: still not empty.
      const joined = { type: 'FamilyMemberAdded', data: { familyId: F, linkId: L } } satisfies FamilyEvent;
      const err2 = spec.given([created, joined]).when({ type: 'DeleteFamily', memberCount: 0, goodCount: 0 }).thenFails('FAMILY.NOT_EMPTY', 409);
      expect(err2.details).toEqual({ memberCount: 1, goodCount: 0 });
    });

    it('a deleted family is 404', () => {
      spec.given([created, deleted]).when({ type: 'DeleteFamily', memberCount: 0, goodCount: 0 }).thenFails('FAMILY.NOT_FOUND', 404);
    });
  });

  describe('custom members', () => {
    it('adds a good with its tags and price; a missing family is 404', () => {
      spec.given([created]).when({ type: 'AddCustomMember', goodId: G, tags, price: '20.00' }).then([customAdded]);
      spec.given([]).when({ type: 'AddCustomMember', goodId: G, tags, price: '20.00' }).thenFails('FAMILY.NOT_FOUND', 404);
    });

    it('removes a custom member; a good that is none is 404 FAMILY.CUSTOM_MEMBER_NOT_FOUND', () => {
      spec
        .given([created, customAdded])
        .when({ type: 'RemoveCustomMember', goodId: G })
        .then([{ type: 'FamilyCustomMemberRemoved', data: { familyId: F, goodId: G } }]);
      spec.given([created]).when({ type: 'RemoveCustomMember', goodId: G }).thenFails('FAMILY.CUSTOM_MEMBER_NOT_FOUND', 404);
    });

    it('only a good without a primary link can be one', () => {
      expect(() => requireCustomGood(G, { originGoodId: null })).not.toThrow();
      const codeOf = (f: () => void) => {
        try {
          f();
        } catch (e) {
          return e instanceof AppError ? [e.code, e.status] : e;
        }
        return null;
      };
      expect(codeOf(() => requireCustomGood(G, null))).toEqual(['UNKNOWN_REFERENCE', 400]);
      expect(codeOf(() => requireCustomGood(G, { originGoodId: L }))).toEqual(['FAMILY.NOT_A_CUSTOM_GOOD', 400]);
    });
  });

  describe('price overrides', () => {
    it('sets the price of a cell of the matrix', () => {
      spec.given([created]).when({ type: 'SetPriceOverride', key, price: '30.00', issues: null }).then([overrideSet]);
    });

    it('the price the cell already has appends nothing; another price replaces it', () => {
      spec.given([created, overrideSet]).when({ type: 'SetPriceOverride', key, price: '30.00', issues: null }).then([]);
      spec
        .given([created, overrideSet])
        .when({ type: 'SetPriceOverride', key, price: '31.00', issues: null })
        .then([{ type: 'FamilyPriceOverrideSet', data: { familyId: F, ...key, price: '31.00' } }]);
    });

    it('a key outside the matrix is 400 FAMILY.OVERRIDE_KEY_INVALID with what the check found', () => {
      const issues = [{ dimension: 'size', value: 'XXL' }];
      const err = spec.given([created]).when({ type: 'SetPriceOverride', key, price: '30.00', issues }).thenFails('FAMILY.OVERRIDE_KEY_INVALID', 400);
      expect(err.details).toEqual(issues);
    });

    it('the family is checked before the key: a missing family is 404 whatever the key', () => {
      spec
        .given([])
        .when({ type: 'SetPriceOverride', key, price: '30.00', issues: [{}] })
        .thenFails('FAMILY.NOT_FOUND', 404);
    });

    it('removes an override; a key without one is 404 FAMILY.OVERRIDE_NOT_FOUND', () => {
      spec
        .given([created, overrideSet])
        .when({ type: 'RemovePriceOverride', key })
        .then([{ type: 'FamilyPriceOverrideRemoved', data: { familyId: F, ...key } }]);
      spec.given([created]).when({ type: 'RemovePriceOverride', key }).thenFails('FAMILY.OVERRIDE_NOT_FOUND', 404);
      spec
        .given([created, overrideSet])
        .when({ type: 'RemovePriceOverride', key: { ...key, size: 'L' } })
        .thenFails('FAMILY.OVERRIDE_NOT_FOUND', 404);
    });
  });

  describe('membership records', () => {
    it('the family records a link joining or leaving it: the link’s stream has decided the move', () => {
      spec
        .given([created])
        .when({ type: 'RecordMemberAdded', linkId: L })
        .then([{ type: 'FamilyMemberAdded', data: { familyId: F, linkId: L } }]);
      spec
        .given([created])
        .when({ type: 'RecordMemberRemoved', linkId: L })
        .then([{ type: 'FamilyMemberRemoved', data: { familyId: F, linkId: L } }]);
    });
  });
});
