/**
 * Good commands' decisions, pure. Names are normalised on create, update and batch create
 * (`<product name> <SKU>`); the family is attributed by the projection (the primary link's family);
 * tags mirror the primary link's dimension tags; nothing is derived from names here.
 */
import { AppError } from '../../platform/errors';
import type { PendingEvent } from '../../platform/commands';
import { changedFields } from '../../platform/changes';
import { normaliseGoodName } from '../domain/names';
import type { GoodFields, GoodState } from './state';

export interface LinkForGood {
  id: string;
  /** `<productName> <SKU>` when organised, else the link name (goodNameFromLink) */
  derivedName: string;
  categoryName: string | null;
  categoryId: string | null;
  countryId: string | null;
  image: string | null;
  /** tag ids of the link's dimension tags: mirrored onto the good */
  tagIds: string[];
}

const union = (a: readonly string[], b: readonly string[]) => [...new Set([...a, ...b])];

export function decideCreateGood(s: GoodState, input: Partial<GoodFields> & { name?: string }, link: LinkForGood | null): PendingEvent[] {
  if (s.exists) throw AppError.conflict('GOOD.EXISTS', `good ${s.id} exists`);
  const raw = input.name ?? link?.derivedName;
  if (!raw) throw AppError.badRequest('GOOD.NAME_REQUIRED', 'a custom good needs a name');
  return [
    {
      type: 'GoodCreated',
      data: {
        goodId: s.id,
        originGoodId: link?.id ?? null,
        name: normaliseGoodName(raw, { categoryName: link?.categoryName ?? null }),
        description: input.description ?? null,
        image: input.image ?? link?.image ?? null,
        goodPriority: input.goodPriority ?? 0,
        tagIds: union(input.tagIds ?? [], link?.tagIds ?? []),
        tagFontColor: input.tagFontColor ?? null,
        categoryId: input.categoryId ?? link?.categoryId ?? null,
        countryId: input.countryId ?? link?.countryId ?? null,
      },
    },
  ];
}

export function requireGood(s: GoodState): void {
  if (!s.exists || s.deleted) throw AppError.notFound('GOOD.NOT_FOUND', `no good ${s.id}`);
}

export function decideUpdateGood(s: GoodState, patch: Partial<GoodFields>, link: LinkForGood | null): PendingEvent[] {
  requireGood(s);
  const requested: Partial<GoodFields> = { ...patch };
  if (patch.name !== undefined) requested.name = normaliseGoodName(patch.name, { categoryName: link?.categoryName ?? null });
  if (patch.tagIds !== undefined || link) requested.tagIds = union(patch.tagIds ?? s.tagIds, link?.tagIds ?? []);
  const changes = changedFields(s as GoodFields, requested);
  return Object.keys(changes).length ? [{ type: 'GoodUpdated', data: { goodId: s.id, ...changes } }] : [];
}

export function decideSetOrigins(s: GoodState, ids: readonly string[]): PendingEvent[] {
  requireGood(s);
  if (s.originGoodId && ids.includes(s.originGoodId)) {
    throw AppError.badRequest('GOOD.PRIMARY_AS_SECONDARY', 'the primary origin cannot also be a secondary one');
  }
  const unique = [...new Set(ids)];
  if (JSON.stringify(unique) === JSON.stringify(s.secondaryOriginGoodIds)) return [];
  return [{ type: 'GoodOriginsSet', data: { goodId: s.id, secondaryOriginGoodIds: unique } }];
}

export function decideDeleteGood(s: GoodState): PendingEvent[] {
  requireGood(s);
  return [{ type: 'GoodDeleted', data: { goodId: s.id } }];
}
