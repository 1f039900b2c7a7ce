/** Family commands' decisions, pure: state and looked-up facts in, events out (or an AppError). */
import { AppError } from '../../platform/errors';
import type { PendingEvent } from '../../platform/commands';
import type { OverrideKey } from './events';
import type { FamilyState } from './state';
import { overrideId } from './state';
import type { DimensionValues } from '../links/events';

export function requireFamily(s: FamilyState): void {
  if (!s.exists || s.gone) throw AppError.notFound('FAMILY.NOT_FOUND', `no family ${s.id}`);
}

export function decideCreate(s: FamilyState, name: string, familyNameKey: string | null): PendingEvent[] {
  if (s.exists) throw AppError.conflict('FAMILY.EXISTS', `family ${s.id} exists`);
  // Created by an administrator: manually managed and locked, so organisation never changes it.
  return [{ type: 'FamilyCreated', data: { familyId: s.id, name, familyNameKey, autoManaged: false, locked: true } }];
}

export function decideUpdate(s: FamilyState, patch: { name?: string; locked?: boolean }): PendingEvent[] {
  requireFamily(s);
  const out: PendingEvent[] = [];
  if (patch.name !== undefined && patch.name !== s.name) out.push({ type: 'FamilyRenamed', data: { familyId: s.id, name: patch.name } });
  if (patch.locked === true && !s.locked) out.push({ type: 'FamilyLocked', data: { familyId: s.id } });
  if (patch.locked === false && s.locked) out.push({ type: 'FamilyUnlocked', data: { familyId: s.id } });
  return out;
}

export function decideDelete(s: FamilyState, facts: { memberCount: number; goodCount: number }): PendingEvent[] {
  requireFamily(s);
  if (facts.memberCount > 0 || facts.goodCount > 0 || s.customMembers.length > 0) {
    throw AppError.conflict('FAMILY.NOT_EMPTY', `family ${s.id} still has members or goods`, facts);
  }
  return [{ type: 'FamilyDeleted', data: { familyId: s.id } }];
}

export function decideAddCustomMember(s: FamilyState, goodId: string, tags: DimensionValues, price: string): PendingEvent[] {
  requireFamily(s);
  return [{ type: 'FamilyCustomMemberAdded', data: { familyId: s.id, goodId, tags, price } }];
}

export function decideRemoveCustomMember(s: FamilyState, goodId: string): PendingEvent[] {
  requireFamily(s);
  if (!s.customMembers.some((c) => c.goodId === goodId)) throw AppError.notFound('FAMILY.CUSTOM_MEMBER_NOT_FOUND', `good ${goodId} is not a custom member`);
  return [{ type: 'FamilyCustomMemberRemoved', data: { familyId: s.id, goodId } }];
}

/** `issues`: what validating the key against the family's matrix found (null: the cell exists). */
export function decideSetOverride(s: FamilyState, key: OverrideKey, price: string, issues: unknown[] | null): PendingEvent[] {
  requireFamily(s);
  if (issues) throw AppError.badRequest('FAMILY.OVERRIDE_KEY_INVALID', 'every part of the key must be a value of the family’s matrix, and the cell must exist', issues);
  const current = s.overrides.find((o) => overrideId(o) === overrideId(key));
  if (current && current.price === price) return [];
  return [{ type: 'FamilyPriceOverrideSet', data: { familyId: s.id, ...key, price } }];
}

export function decideRemoveOverride(s: FamilyState, key: OverrideKey): PendingEvent[] {
  requireFamily(s);
  if (!s.overrides.some((o) => overrideId(o) === overrideId(key))) throw AppError.notFound('FAMILY.OVERRIDE_NOT_FOUND', 'no override with that key');
  return [{ type: 'FamilyPriceOverrideRemoved', data: { familyId: s.id, ...key } }];
}
