/**
 * Goods, pure: the decisions on a good's stream (`good-<id>`). Names are normalised on create,
 * update and batch create (`<product name> <SKU>`); the family is attributed by the projection (the
 * primary link's family); tags mirror the primary link's dimension tags; nothing is derived from
 * names here. The link, as the read model shows it, comes in with the command.
 */
import { AppError, unknownReference } from '../../platform/errors';
import { changedFields } from '../../platform/changes';
import { normaliseGoodName } from '../domain/names';
import type { GoodEvent } from './events';
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

export type GoodCommand =
  /** `link`: the primary origin, null for a custom good (which then needs a name) */
  | { type: 'CreateGood'; fields: Partial<GoodFields>; link: LinkForGood | null }
  /**
   * `link`: the good's primary origin, whose dimension tags the good carries whatever the patch;
   * `dimensionTagIds`: the ids of tags in dimension groups, those of the good's own tags it replaces
   * with its link's when the patch sends no tags
   */
  | { type: 'UpdateGood'; changes: Partial<GoodFields>; link: LinkForGood | null; dimensionTagIds?: ReadonlySet<string> }
  | { type: 'SetGoodOrigins'; secondaryOriginGoodIds: readonly string[] }
  /** 上架 / 下架: setting the state it is already in appends nothing */
  | { type: 'SetGoodShelf'; state: 'on' | 'off' }
  | { type: 'DeleteGood' };

const union = (a: readonly string[], b: readonly string[]) => [...new Set([...a, ...b])];

export function requireGood(s: GoodState): void {
  if (!s.exists || s.deleted) throw AppError.notFound('GOOD.NOT_FOUND', `no good ${s.id}`);
}

/** Every secondary origin must be a link the read model knows (`known`: those it found); 400 `UNKNOWN_REFERENCE` naming the others. */
export function requireKnownOrigins(ids: readonly string[], known: readonly string[]): void {
  const missing = ids.filter((x) => !known.includes(x));
  if (missing.length) throw unknownReference('secondaryOriginGoodIds', missing, 'link');
}

export function decideGood(s: GoodState, command: GoodCommand): GoodEvent[] {
  const goodId = s.id;
  switch (command.type) {
    case 'CreateGood': {
      const { fields: input, link } = command;
      if (s.exists) throw AppError.conflict('GOOD.EXISTS', `good ${s.id} exists`);
      const raw = input.name ?? link?.derivedName;
      if (!raw) throw AppError.badRequest('GOOD.NAME_REQUIRED', 'a custom good needs a name');
      return [
        {
          type: 'GoodCreated',
          data: {
            goodId,
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
    case 'UpdateGood': {
      const { changes: patch, link } = command;
      requireGood(s);
      const requested: Partial<GoodFields> = { ...patch };
      if (patch.name !== undefined) requested.name = normaliseGoodName(patch.name, { categoryName: link?.categoryName ?? null });
      // Tags mirror the link's dimension tags (docs/domain.md, Goods and delisting): the tags a patch
      // sends are kept, with the link's; without them, the good keeps its tags outside dimension
      // groups and takes its link's current dimension tags (one the link no longer carries leaves).
      if (patch.tagIds !== undefined) requested.tagIds = union(patch.tagIds, link?.tagIds ?? []);
      else if (link) {
        const dimension = command.dimensionTagIds ?? new Set<string>();
        requested.tagIds = union(
          s.tagIds.filter((t) => !dimension.has(t) || link.tagIds.includes(t)),
          link.tagIds,
        );
      }
      const changes = changedFields(s as GoodFields, requested);
      return Object.keys(changes).length ? [{ type: 'GoodUpdated', data: { goodId, ...changes } }] : [];
    }
    case 'SetGoodOrigins': {
      requireGood(s);
      const ids = command.secondaryOriginGoodIds;
      if (s.originGoodId && ids.includes(s.originGoodId)) {
        throw AppError.badRequest('GOOD.PRIMARY_AS_SECONDARY', 'the primary origin cannot also be a secondary one');
      }
      const unique = [...new Set(ids)];
      if (JSON.stringify(unique) === JSON.stringify(s.secondaryOriginGoodIds)) return [];
      return [{ type: 'GoodOriginsSet', data: { goodId, secondaryOriginGoodIds: unique } }];
    }
    case 'SetGoodShelf':
      requireGood(s);
      return s.shelf === command.state ? [] : [{ type: 'GoodShelfSet', data: { goodId, state: command.state } }];
    case 'DeleteGood':
      requireGood(s);
      return [{ type: 'GoodDeleted', data: { goodId } }];
    default: {
      const _exhaustive: never = command;
      throw new Error('unknown command');
    }
  }
}
