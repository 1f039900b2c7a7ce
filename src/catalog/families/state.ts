/** A family folded from its stream (`family-<id>`), for commands and for "the family as it was at T". */
import type { StreamSpec } from '../../platform/commands';
import { familyStreamId, type FamilyEvent, type OverrideKey, type ShelfState } from './events';
import type { DimensionValues } from '../domain/values';

export interface FamilyState {
  exists: boolean;
  gone: null | { reason: 'deleted' } | { reason: 'merged'; intoFamilyId: string };
  id: string;
  name: string;
  familyNameKey: string | null;
  autoManaged: boolean;
  locked: boolean;
  shelf: ShelfState;
  /** link ids, as recorded on the family stream */
  members: string[];
  customMembers: { goodId: string; tags: DimensionValues; price: string }[];
  overrides: (OverrideKey & { price: string })[];
}

export const overrideId = (k: OverrideKey) => JSON.stringify([k.size, k.color, k.printCount, k.craft, k.logistics]);

export const initialFamilyState = (id: string) => (): FamilyState => ({
  exists: false,
  gone: null,
  id,
  name: '',
  familyNameKey: null,
  autoManaged: false,
  locked: false,
  shelf: 'on',
  members: [],
  customMembers: [],
  overrides: [],
});

export function evolveFamily(s: FamilyState, e: FamilyEvent): FamilyState {
  switch (e.type) {
    case 'FamilyCreated': {
      const d = e.data;
      return { ...s, exists: true, name: d.name, familyNameKey: d.familyNameKey, autoManaged: d.autoManaged, locked: d.locked, shelf: d.shelf };
    }
    case 'FamilyShelfSet':
      return { ...s, shelf: e.data.state };
    case 'FamilyRenamed':
      return { ...s, name: e.data.name };
    case 'FamilyLocked':
      return { ...s, locked: true };
    case 'FamilyUnlocked':
      return { ...s, locked: false };
    case 'FamilyMemberAdded':
      return s.members.includes(e.data.linkId) ? s : { ...s, members: [...s.members, e.data.linkId] };
    case 'FamilyMembersAdded': {
      const added = e.data.linkIds.filter((id) => !s.members.includes(id));
      return added.length ? { ...s, members: [...s.members, ...added] } : s;
    }
    case 'FamilyMemberRemoved':
      return { ...s, members: s.members.filter((m) => m !== e.data.linkId) };
    case 'FamilyCustomMemberAdded': {
      const d = e.data;
      return { ...s, customMembers: [...s.customMembers.filter((c) => c.goodId !== d.goodId), { goodId: d.goodId, tags: d.tags, price: d.price }] };
    }
    case 'FamilyCustomMemberRemoved':
      return { ...s, customMembers: s.customMembers.filter((c) => c.goodId !== e.data.goodId) };
    case 'FamilyPriceOverrideSet': {
      const o = e.data;
      const key = { size: o.size, color: o.color, printCount: o.printCount, craft: o.craft, logistics: o.logistics };
      return { ...s, overrides: [...s.overrides.filter((x) => overrideId(x) !== overrideId(key)), { ...key, price: o.price }] };
    }
    case 'FamilyPriceOverrideRemoved':
      return { ...s, overrides: s.overrides.filter((x) => overrideId(x) !== overrideId(e.data)) };
    case 'FamilyMergedInto':
      return { ...s, gone: { reason: 'merged', intoFamilyId: e.data.intoFamilyId } };
    case 'FamilyDeleted':
      return { ...s, gone: { reason: 'deleted' } };
    case 'FamilyRecomputed':
      return s; // the read model was repaired; what the stream says of the family does not move
    default: {
      const _exhaustive: never = e;
      return s;
    }
  }
}

export const familyStream = (id: string): StreamSpec<FamilyState, FamilyEvent> => ({
  streamId: familyStreamId(id),
  initial: initialFamilyState(id),
  evolve: evolveFamily,
});
