/**
 * The part of the catalog an audit replays: families, links and goods folded from their streams by
 * the slices' own `evolve` functions, and what the public saw of them computed by the projection's
 * own pure aggregate code (../domain/family-aggregates.ts). Pure: no I/O, no clock.
 */
import type { DecodedEvent } from '../../platform/events/registry';
import { computeFamilyAggregates, type FamilyAggregates } from '../domain/family-aggregates';
import { compareIds, type CellKey, type MatrixLink } from '../domain/matrix';
import { normaliseMoney } from '../domain/money';
import { asStreamEvent } from '../../platform/commands';
import type { FamilyEvent } from '../families/events';
import type { GoodEvent } from '../goods/events';
import type { LinkEvent } from '../links/events';
import { evolveFamily, initialFamilyState, type FamilyState } from '../families/state';
import { evolveGood, initialGoodState, type GoodState } from '../goods/state';
import { evolveLink, initialLinkState, type LinkState } from '../links/state';
import type { PublicGoodDetail } from '../../contract/storefront';

export type GoodAt = GoodState & { createdAt: Date | null };

export interface World {
  families: Map<string, FamilyState>;
  links: Map<string, LinkState>;
  goods: Map<string, GoodAt>;
}

export const emptyWorld = (): World => ({ families: new Map(), links: new Map(), goods: new Map() });

/** The entity an event belongs to, from its stream id (`family-1`, `link-100001`, `good-7`). */
export function entityOf(streamId: string): { kind: 'family' | 'link' | 'good'; id: string } | null {
  const m = /^(family|link|good)-(\d+)$/.exec(streamId);
  return m ? { kind: m[1] as 'family' | 'link' | 'good', id: m[2]! } : null;
}

/** Folds one event into the world (events of other streams are ignored). */
export function applyEvent(w: World, e: DecodedEvent): void {
  const entity = entityOf(e.streamId);
  if (!entity) return;
  if (entity.kind === 'family') {
    w.families.set(entity.id, evolveFamily(w.families.get(entity.id) ?? initialFamilyState(entity.id)(), asStreamEvent<FamilyEvent>(e)));
  } else if (entity.kind === 'link') {
    w.links.set(entity.id, evolveLink(w.links.get(entity.id) ?? initialLinkState(), asStreamEvent<LinkEvent>(e)));
  } else {
    const before = w.goods.get(entity.id) ?? { ...initialGoodState(entity.id)(), createdAt: null };
    // The read model's created_at is the time GoodCreated was recorded; the representative rule reads it.
    const createdAt = e.type === 'GoodCreated' && !before.exists ? e.recordedAt : before.createdAt;
    w.goods.set(entity.id, { ...evolveGood(before, asStreamEvent<GoodEvent>(e)), createdAt });
  }
}

const liveGood = (g: GoodAt | undefined): g is GoodAt => !!g && g.exists && !g.deleted;

/** The family's goods as the read model holds them: made from a member link, or its custom members. */
export function familyGoods(w: World, familyId: string): GoodAt[] {
  const f = w.families.get(familyId);
  // A merged or deleted family's custom members go with it (the read model deletes them).
  const custom = new Set(f && !f.gone ? f.customMembers.map((c) => c.goodId) : []);
  const goods: GoodAt[] = [];
  for (const g of w.goods.values()) {
    if (!liveGood(g)) continue;
    if (g.originGoodId ? w.links.get(g.originGoodId)?.familyId === familyId : custom.has(g.id)) goods.push(g);
  }
  return goods.sort((a, b) => compareIds(a.id, b.id));
}

/** The links that are members of the family: recorded on a link stream as joined and not since left. */
export function familyMembers(w: World, familyId: string): [string, LinkState][] {
  return [...w.links.entries()].filter(([, l]) => l.exists && l.familyId === familyId).sort(([a], [b]) => compareIds(a, b));
}

/** The representative's fields as the public detail shows them, its tags by id (their names then are not kept). */
export type RepresentativeView = Pick<PublicGoodDetail, 'goodId' | 'name' | 'image' | 'description' | 'countryId' | 'categoryId'> & {
  tagIds: string[];
  tagFontColor: string | null;
};

/** A family as the admin read showed it, with what the storefront showed of it, computed from a world. */
export function familyView(w: World, familyId: string) {
  const f = w.families.get(familyId);
  if (!f || !f.exists) return null;
  const members = familyMembers(w, familyId);
  const links: MatrixLink[] = members.map(([id, l]) => ({ id, organised: l.parsed !== null, delisted: l.delisted, tags: l.tags ?? {}, listPrice: l.price, detail: l.detail }));
  const goods = familyGoods(w, familyId);
  const secondaryOrigins = goods.flatMap((g) =>
    g.secondaryOriginGoodIds.flatMap((id) => {
      const l = w.links.get(id);
      return l && l.exists && !l.delisted ? [{ id, detail: l.detail }] : [];
    }),
  );
  const overrides = [...f.overrides].sort((a, b) => (overrideSortKey(a) < overrideSortKey(b) ? -1 : overrideSortKey(a) > overrideSortKey(b) ? 1 : 0));
  const gone = f.gone !== null;
  const a: FamilyAggregates = computeFamilyAggregates({
    links,
    customMembers: f.customMembers,
    overrides,
    goods: goods.map((g) => ({ id: g.id, goodPriority: g.goodPriority, createdAt: g.createdAt ?? new Date(0), onShelf: g.shelf === 'on' })),
    secondaryOrigins,
  });
  const rep = a.representativeGoodId ? w.goods.get(a.representativeGoodId)! : null;
  const { invalidOverrides, ...priceMatrix } = a.priceMatrix;
  return {
    id: familyId,
    name: f.name,
    familyNameKey: f.familyNameKey,
    autoManaged: f.autoManaged,
    locked: f.locked,
    shelf: f.shelf,
    gone: f.gone,
    /**
     * shown on the storefront: the family exists, is on the shelf and has a good on the shelf, its
     * representative (docs/domain.md, Public catalog; the read model's `is_public`)
     */
    public: !gone && f.shelf === 'on' && a.representativeGoodId !== null,
    memberCount: a.memberCount,
    goodCount: a.goodCount,
    members: members.map(([id, l]) => ({
      id,
      name: l.name,
      delisted: l.delisted,
      organised: l.parsed !== null,
      tags: l.tags,
      tagsManual: l.tagsManual,
      // as the read model's tags_missing: the dimensions without which a link gives no cell
      missing: l.tags ? (['craft', 'logistics'] as const).filter((d) => l.tags![d].length === 0) : null,
    })),
    goods: goods.map((g) => ({ id: g.id, name: g.name, originGoodId: g.originGoodId, secondaryOriginGoodIds: g.secondaryOriginGoodIds })),
    customMembers: [...f.customMembers].sort((x, y) => compareIds(x.goodId, y.goodId)).map((c) => ({ ...c, price: normaliseMoney(c.price) })),
    overrides: overrides.map((o) => ({ ...o, price: normaliseMoney(o.price) })),
    representativeGoodId: a.representativeGoodId,
    representative: rep ? representativeOf(rep) : null,
    lowestPrice: a.lowestPrice,
    priceMatrix,
    invalidOverrides,
    conflicts: a.conflicts,
    variants: a.variants,
    sizeChart: a.sizeChart,
    packagingSpecs: a.packagingSpecs,
    options: a.options,
    mediaByColor: a.mediaByColor,
  };
}
export type FamilyView = NonNullable<ReturnType<typeof familyView>>;

const overrideSortKey = (o: CellKey) => JSON.stringify([o.size, o.color, o.printCount, o.craft, o.logistics]);

function representativeOf(g: GoodAt): RepresentativeView {
  return {
    goodId: g.id,
    name: g.name,
    image: g.image,
    description: g.description,
    countryId: g.countryId,
    categoryId: g.categoryId,
    tagIds: g.tagIds,
    tagFontColor: g.tagFontColor,
  };
}

/** A link as the admin read showed it (docs/api.md, OriginGood), from a world. */
export function linkView(w: World, linkId: string) {
  const l = w.links.get(linkId);
  if (!l || !l.exists) return null;
  return {
    id: linkId,
    name: l.name,
    categoryId: l.categoryId,
    price: normaliseMoney(l.price),
    delisted: l.delisted,
    parsed: l.parsed ? { country: l.parsed.country, logistics: l.parsed.logistics, productName: l.parsed.productName, sku: l.parsed.sku } : null,
    tagValues: l.tags,
    tagsManual: l.tagsManual,
    familyId: l.familyId,
    goodId: l.goodId,
    detail: l.detail,
  };
}
export type LinkView = NonNullable<ReturnType<typeof linkView>>;

/** A good as the admin read showed it, with its family and whether it was the family's representative then. */
export function goodView(w: World, goodId: string) {
  const g = w.goods.get(goodId);
  if (!g || !g.exists) return null;
  let familyId: string | null = null;
  if (!g.deleted) {
    if (g.originGoodId) familyId = w.links.get(g.originGoodId)?.familyId ?? null;
    else for (const [id, f] of w.families) if (!f.gone && f.customMembers.some((c) => c.goodId === goodId)) familyId = id;
  }
  const family = familyId ? familyView(w, familyId) : null;
  const origin = g.originGoodId ? linkView(w, g.originGoodId) : null;
  return {
    id: goodId,
    deleted: g.deleted,
    name: g.name,
    description: g.description,
    image: g.image,
    goodPriority: g.goodPriority,
    tagIds: g.tagIds,
    tagFontColor: g.tagFontColor,
    categoryId: g.categoryId,
    countryId: g.countryId,
    originGoodId: g.originGoodId,
    secondaryOriginGoodIds: g.secondaryOriginGoodIds,
    shelf: g.shelf,
    createdAt: g.createdAt?.toISOString() ?? null,
    familyId,
    /** the family it belongs to shows this good's name, image and tags */
    representative: family?.representativeGoodId === goodId,
    /** the storefront showed it: on the shelf, in a public family */
    public: !!family?.public && g.shelf === 'on',
    /** its family's lowest price: what the storefront listed for it */
    familyLowestPrice: family?.lowestPrice ?? null,
    originGood: origin
      ? {
          id: origin.id,
          name: origin.name,
          price: origin.price,
          delisted: origin.delisted,
          variants: origin.detail?.variants.map((v) => ({ size: v.size, color: v.color, price: normaliseMoney(v.price), sku: v.sku })) ?? [],
        }
      : null,
  };
}
export type GoodView = NonNullable<ReturnType<typeof goodView>>;
