/**
 * Countries, pure: a country's state folded from its stream (the supplier mirror's events and the
 * administrators'), the administrators' decisions on it, and the decision on the order of all countries.
 */
import { changedFields } from '../../platform/changes';
import { AppError } from '../../platform/errors';
import { refuseWhileUsed, type Usage } from '../usage';
import { decideReorder } from '../../platform/permutation';
import type { CountryAdminEvent } from './admin-events';
import { type CountryFields, type CountryState } from './state';

export type CountryCommand =
  | { type: 'CreateCountry'; countryId: string; fields: CountryFields }
  | { type: 'UpdateCountry'; countryId: string; changes: Partial<CountryFields> }
  /** `usage`: what uses the country, counted under its reference lock (src/catalog/usage.ts) */
  | { type: 'DeleteCountry'; countryId: string; usage: Usage };

export const countryNotFound = (id: string) => AppError.notFound('COUNTRY.NOT_FOUND', `no country ${id}`);

/** Administrators' decisions: their own events only, never the supplier mirror's. */
export function decideCountry(state: CountryState, command: CountryCommand): CountryAdminEvent[] {
  switch (command.type) {
    case 'CreateCountry':
      if (state.status !== 'none') throw AppError.conflict('COUNTRY.ALREADY_EXISTS', `country ${command.countryId} already exists`);
      return [{ type: 'CountryCreated', data: { countryId: command.countryId, ...command.fields } }];
    case 'UpdateCountry': {
      if (state.status !== 'active') throw countryNotFound(command.countryId);
      const { sortOrder, ...rest } = command.changes;
      const changes: Partial<CountryFields> = changedFields(state, rest);
      // Always written when asked for: the country's stream cannot tell whether a reorder moved it since.
      if (sortOrder !== undefined) changes.sortOrder = sortOrder;
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'CountryUpdated', data: { countryId: state.id, ...changes } }];
    }
    case 'DeleteCountry':
      if (state.status !== 'active') throw countryNotFound(command.countryId);
      refuseWhileUsed('COUNTRY.IN_USE', `country ${state.id}`, command.usage);
      return [{ type: 'CountryDeleted', data: { countryId: state.id } }];
    default: {
      const _exhaustive: never = command;
      throw new Error('unknown command');
    }
  }
}

/**
 * The full new order of all countries. `current` is every live country id in its present order; the
 * new order must name each exactly once. The order it already has appends nothing.
 */
export const decideCountryOrder = (current: readonly string[], requested: readonly string[]): CountryAdminEvent[] =>
  decideReorder(current, requested, { code: 'COUNTRIES.NOT_A_PERMUTATION', message: 'ids must list every country exactly once' }, (countryIds) => ({
    type: 'CountriesReordered',
    data: { countryIds },
  }));
