/** A family folded from its stream (`family-<id>`), for commands and for "the family as it was at T". */
import type { StreamSpec } from '../../platform/commands';
import { familyStreamId, type FamilyEvent, type OverrideKey } from './events';
import type { DimensionValues } from '../links/events';

export interface FamilyState {
  exists: boolean;
  gone: null | { reason: 'deleted' } | { reason: 'merged'; intoFamilyId: string };
  id: string;
  name: string;
  familyNameKey: string | null;
  autoManaged: boolean;
  locked: boolean;
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
  members: [],
  customMembers: [],
  overrides: [],
});

export function evolveFamily(s: FamilyState, e: { type: string; data: unknown }): FamilyState {
  const d = e.data as Record<string, unknown>;
  switch (e.type) {
    case 'FamilyCreated':
      return { ...s, exists: true, name: d.name as string, familyNameKey: d.familyNameKey as string | null, autoManaged: d.autoManaged as boolean, locked: d.locked as boolean };
    case 'FamilyRenamed':
      return { ...s, name: d.name as string };
    case 'FamilyLocked':
      return { ...s, locked: true };
    case 'FamilyUnlocked':
      return { ...s, locked: false };
    case 'FamilyMemberAdded':
      return s.members.includes(d.linkId as string) ? s : { ...s, members: [...s.members, d.linkId as string] };
    case 'FamilyMemberRemoved':
      return { ...s, members: s.members.filter((m) => m !== d.linkId) };
    case 'FamilyCustomMemberAdded':
      return {
        ...s,
        customMembers: [...s.customMembers.filter((c) => c.goodId !== d.goodId), { goodId: d.goodId as string, tags: d.tags as DimensionValues, price: d.price as string }],
      };
    case 'FamilyCustomMemberRemoved':
      return { ...s, customMembers: s.customMembers.filter((c) => c.goodId !== d.goodId) };
    case 'FamilyPriceOverrideSet': {
      const o = d as unknown as OverrideKey & { price: string };
      const key = { size: o.size, color: o.color, printCount: o.printCount, craft: o.craft, logistics: o.logistics };
      return { ...s, overrides: [...s.overrides.filter((x) => overrideId(x) !== overrideId(key)), { ...key, price: o.price }] };
    }
    case 'FamilyPriceOverrideRemoved':
      return { ...s, overrides: s.overrides.filter((x) => overrideId(x) !== overrideId(d as unknown as OverrideKey)) };
    case 'FamilyMergedInto':
      return { ...s, gone: { reason: 'merged', intoFamilyId: d.intoFamilyId as string } };
    case 'FamilyDeleted':
      return { ...s, gone: { reason: 'deleted' } };
    default:
      return s;
  }
}

export const familyStream = (id: string): StreamSpec<FamilyState, FamilyEvent> => ({
  streamId: familyStreamId(id),
  initial: initialFamilyState(id),
  evolve: evolveFamily,
});
