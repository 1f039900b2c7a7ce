/**
 * Families, pure: the decisions on a family's stream (`family-<id>`). Looked-up facts (the read
 * model's member and good counts, what the override key's check against the matrix found) come in
 * with the command; state and command in, the family's events out (or an AppError).
 */
import { AppError, unknownReference } from '../../platform/errors';
import type { DimensionValues } from '../domain/values';
import type { FamilyEvent, OverrideKey, ShelfState } from './events';
import { overrideId, type FamilyState } from './state';

export type FamilyCommand =
  | { type: 'CreateFamily'; name: string; familyNameKey: string | null; shelf: ShelfState }
  /** 上架 / 下架: setting the state it is already in appends nothing */
  | { type: 'SetFamilyShelf'; state: ShelfState }
  | { type: 'UpdateFamily'; changes: { name?: string | undefined; locked?: boolean | undefined } }
  /** the counts as the read model holds them */
  | { type: 'DeleteFamily'; memberCount: number; goodCount: number }
  | { type: 'AddCustomMember'; goodId: string; tags: DimensionValues; price: string }
  | { type: 'RemoveCustomMember'; goodId: string }
  /** `issues`: what validating the key against the family's matrix found (null: the cell exists) */
  | { type: 'SetPriceOverride'; key: OverrideKey; price: string; issues: unknown[] | null }
  | { type: 'RemovePriceOverride'; key: OverrideKey }
  /**
   * The family's record of a link joining or leaving it, appended with the link's move
   * (links/decide.ts) in one append: a link joins only a live family; one leaving is recorded
   * whatever the family's state.
   */
  | { type: 'RecordMemberAdded'; linkId: string }
  | { type: 'RecordMemberRemoved'; linkId: string };

export function requireFamily(s: FamilyState): void {
  if (!s.exists || s.gone) throw AppError.notFound('FAMILY.NOT_FOUND', `no family ${s.id}`);
}

/**
 * A link joins only a family that exists and is not gone: one deleted or merged away is a 409 naming
 * what became of it (a link left in it would count as organised, yet never be public or regrouped).
 */
export function requireFamilyTaking(s: FamilyState): void {
  if (!s.exists) throw AppError.notFound('FAMILY.NOT_FOUND', `no family ${s.id}`);
  if (s.gone?.reason === 'deleted') throw AppError.conflict('FAMILY.GONE', `family ${s.id} was deleted; it takes no members`, { state: 'deleted' });
  if (s.gone?.reason === 'merged') {
    throw AppError.conflict('FAMILY.GONE', `family ${s.id} was merged into family ${s.gone.intoFamilyId}; add the link there`, {
      state: 'merged',
      intoFamilyId: s.gone.intoFamilyId,
    });
  }
}

/** Only a good without a primary link can be a custom member; null: no such good (the body's `goodId` names nothing). */
export function requireCustomGood(goodId: string, good: { originGoodId: string | null } | null): void {
  if (!good) throw unknownReference('goodId', [goodId], 'good');
  if (good.originGoodId) throw AppError.badRequest('FAMILY.NOT_A_CUSTOM_GOOD', 'only custom goods (without an origin link) can be custom members');
}

export function decideFamily(s: FamilyState, command: FamilyCommand): FamilyEvent[] {
  const familyId = s.id;
  switch (command.type) {
    case 'CreateFamily':
      if (s.exists) throw AppError.conflict('FAMILY.EXISTS', `family ${s.id} exists`);
      // Created by an administrator: manually managed and locked, so organisation never changes it.
      return [{ type: 'FamilyCreated', data: { familyId, name: command.name, familyNameKey: command.familyNameKey, autoManaged: false, locked: true, shelf: command.shelf } }];
    case 'SetFamilyShelf':
      requireFamily(s);
      return s.shelf === command.state ? [] : [{ type: 'FamilyShelfSet', data: { familyId, state: command.state } }];
    case 'UpdateFamily': {
      requireFamily(s);
      const { name, locked } = command.changes;
      const out: FamilyEvent[] = [];
      if (name !== undefined && name !== s.name) out.push({ type: 'FamilyRenamed', data: { familyId, name } });
      if (locked === true && !s.locked) out.push({ type: 'FamilyLocked', data: { familyId } });
      if (locked === false && s.locked) out.push({ type: 'FamilyUnlocked', data: { familyId } });
      return out;
    }
    case 'DeleteFamily': {
      requireFamily(s);
      // The read model's count, or the family's own record when it knows more: a link that joined
      // after the count was read is recorded on this stream in the same append (so a delete decided
      // again after losing that race sees it).
      const facts = { memberCount: Math.max(command.memberCount, s.members.length), goodCount: command.goodCount };
      if (facts.memberCount > 0 || facts.goodCount > 0 || s.customMembers.length > 0) {
        throw AppError.conflict('FAMILY.NOT_EMPTY', `family ${s.id} still has members or goods`, facts);
      }
      return [{ type: 'FamilyDeleted', data: { familyId } }];
    }
    case 'AddCustomMember':
      requireFamily(s);
      return [{ type: 'FamilyCustomMemberAdded', data: { familyId, goodId: command.goodId, tags: command.tags, price: command.price } }];
    case 'RemoveCustomMember':
      requireFamily(s);
      if (!s.customMembers.some((c) => c.goodId === command.goodId)) {
        throw AppError.notFound('FAMILY.CUSTOM_MEMBER_NOT_FOUND', `good ${command.goodId} is not a custom member`);
      }
      return [{ type: 'FamilyCustomMemberRemoved', data: { familyId, goodId: command.goodId } }];
    case 'SetPriceOverride': {
      requireFamily(s);
      if (command.issues) {
        throw AppError.badRequest('FAMILY.OVERRIDE_KEY_INVALID', 'every part of the key must be a value of the family’s matrix, and the cell must exist', command.issues);
      }
      const current = s.overrides.find((o) => overrideId(o) === overrideId(command.key));
      if (current && current.price === command.price) return [];
      return [{ type: 'FamilyPriceOverrideSet', data: { familyId, ...command.key, price: command.price } }];
    }
    case 'RemovePriceOverride':
      requireFamily(s);
      if (!s.overrides.some((o) => overrideId(o) === overrideId(command.key))) throw AppError.notFound('FAMILY.OVERRIDE_NOT_FOUND', 'no override with that key');
      return [{ type: 'FamilyPriceOverrideRemoved', data: { familyId, ...command.key } }];
    case 'RecordMemberAdded':
      requireFamilyTaking(s);
      return [{ type: 'FamilyMemberAdded', data: { familyId, linkId: command.linkId } }];
    case 'RecordMemberRemoved':
      return [{ type: 'FamilyMemberRemoved', data: { familyId, linkId: command.linkId } }];
    default: {
      const _exhaustive: never = command;
      throw new Error('unknown command');
    }
  }
}
