import type { CountryEvent } from '../../../../src/catalog/countries/events';
import { decideCountry, decideCountryOrder } from '../../../../src/catalog/countries/decide';
import { evolveCountry, initialCountry } from '../../../../src/catalog/countries/state';
import type { AppError } from '../../../../src/platform/errors';
import { decider } from '../../../support/given-when-then';

const spec = decider({ initial: initialCountry, evolve: evolveCountry, decide: decideCountry });
const C = '1125899906842627001';
const created = { type: 'CountryCreated', data: { countryId: C, name: '美国', code: 'US', sortOrder: 0 } } satisfies CountryEvent;
const mirrored = { type: 'CountryMirrored', data: { countryId: '7', name: '英国', code: 'UK' } } satisfies CountryEvent;
const unused = { counts: { goods: 0, links: 0, families: 0 }, blockedBy: [] };

describe('country decisions', () => {
  it('given nothing, an administrator creates a country', () => {
    spec
      .given([])
      .when({ type: 'CreateCountry', countryId: C, fields: { name: '美国', code: 'US', sortOrder: 0 } })
      .then([created]);
  });

  it('an update records only what changed, but a requested sortOrder always', () => {
    spec
      .given([created])
      .when({ type: 'UpdateCountry', countryId: C, changes: { name: '美国', code: 'USA', sortOrder: 0 } })
      .then([{ type: 'CountryUpdated', data: { countryId: C, code: 'USA', sortOrder: 0 } }]);
    spec
      .given([created])
      .when({ type: 'UpdateCountry', countryId: C, changes: { name: '美国' } })
      .then([]);
  });

  it('a mirrored supplier country can be edited and deleted too', () => {
    spec
      .given([mirrored])
      .when({ type: 'UpdateCountry', countryId: '7', changes: { name: 'United Kingdom' } })
      .then([{ type: 'CountryUpdated', data: { countryId: '7', name: 'United Kingdom' } }]);
    spec
      .given([mirrored])
      .when({ type: 'DeleteCountry', countryId: '7', usage: unused })
      .then([{ type: 'CountryDeleted', data: { countryId: '7' } }]);
  });

  it('a country goods or links still use is 409 COUNTRY.IN_USE naming the counts, and nothing is appended', () => {
    const usage = { counts: { goods: 4, links: 9, families: 2 }, blockedBy: ['goods', 'links'] };
    const err = spec.given([created]).when({ type: 'DeleteCountry', countryId: C, usage }).thenFails('COUNTRY.IN_USE', 409);
    expect(err.message).toMatch(/used by 4 goods and 9 links/);
    expect(err.details).toEqual(usage);
  });

  it('a country removed upstream or deleted is 404 COUNTRY.NOT_FOUND', () => {
    spec
      .given([mirrored, { type: 'CountryRemovedUpstream', data: { countryId: '7' } }])
      .when({ type: 'UpdateCountry', countryId: '7', changes: { name: 'x' } })
      .thenFails('COUNTRY.NOT_FOUND', 404);
    spec
      .given([created, { type: 'CountryDeleted', data: { countryId: C } }])
      .when({ type: 'DeleteCountry', countryId: C, usage: unused })
      .thenFails('COUNTRY.NOT_FOUND', 404);
    spec.given([]).when({ type: 'DeleteCountry', countryId: C, usage: unused }).thenFails('COUNTRY.NOT_FOUND', 404);
  });

  it('a deleted supplier country the mirror sees again is live again', () => {
    expect(spec.stateAfter([mirrored, { type: 'CountryDeleted', data: { countryId: '7' } }, mirrored])).toMatchObject({ status: 'active', source: 'supplier' });
  });

  describe('the full order of all countries', () => {
    it('a permutation is one CountriesReordered; the same order is nothing', () => {
      expect(decideCountryOrder(['1', '2'], ['2', '1'])).toEqual([{ type: 'CountriesReordered', data: { countryIds: ['2', '1'] } }]);
      expect(decideCountryOrder(['1', '2'], ['1', '2'])).toEqual([]);
    });

    it('a non-permutation is 400 COUNTRIES.NOT_A_PERMUTATION with details', () => {
      let err: AppError | undefined;
      try {
        decideCountryOrder(['1', '2'], ['1']);
      } catch (e) {
        err = e as AppError;
      }
      expect(err?.code).toBe('COUNTRIES.NOT_A_PERMUTATION');
      expect(err?.status).toBe(400);
      expect(err?.details).toEqual({ missing: ['2'], unknown: [], duplicated: [] });
    });
  });
});
