/** A country folded from its stream: the state its commands decide on (./decide.ts). */
import type { CountryEvent } from './events';

export interface CountryFields {
  name: string;
  code: string;
  sortOrder: number;
}

/** sortOrder is not kept: reorders live on another stream, so the country's own would be stale. */
export type CountryState = { status: 'none' } | { status: 'active' | 'removed'; id: string; name: string; code: string; source: 'supplier' | 'admin' };

export const initialCountry = (): CountryState => ({ status: 'none' });

export function evolveCountry(state: CountryState, e: CountryEvent): CountryState {
  switch (e.type) {
    case 'CountryMirrored':
      return { status: 'active', id: e.data.countryId, name: e.data.name, code: e.data.code, source: 'supplier' };
    case 'CountryCreated':
      return { status: 'active', id: e.data.countryId, name: e.data.name, code: e.data.code, source: 'admin' };
    case 'CountryUpdated': {
      if (state.status === 'none') return state;
      const { countryId: _id, sortOrder: _order, ...changes } = e.data;
      return { ...state, ...changes };
    }
    case 'CountryRemovedUpstream':
    case 'CountryDeleted':
      return state.status === 'none' ? state : { ...state, status: 'removed' };
    case 'CountriesReordered':
      return state; // lives on the order stream, never on a country's
    default: {
      const _exhaustive: never = e;
      return state;
    }
  }
}
