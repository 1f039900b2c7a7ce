/**
 * Everything a family shows that is computed from its members (docs/domain.md, Price matrix, Unions
 * and media, Public catalog): member and good counts, the representative, the unions, the price
 * matrix, the lowest price and the media by colour. One pure function, called by the catalog
 * projection with rows from its tables and by the audit history with states folded from the event
 * streams, so the family "as it was then" is made by exactly the code that made it then.
 */
import {
  compareIds,
  computeFamilyMatrix,
  contributingLinks,
  mediaByColor,
  toPublicPriceMatrix,
  unionOptions,
  unionPackagingSpecs,
  unionSizeChart,
  unionVariants,
  type MatrixConflict,
  type MatrixCustomMember,
  type MatrixLink,
  type MediaSource,
  type Override,
  type SecondaryOrigin,
} from './matrix';
import type { LinkDetail } from './values';

/**
 * The version of the rules below. A family's aggregates stamp (src/catalog/families/recompute.ts)
 * records the version it was verified under: change it whenever the output of
 * `computeFamilyAggregates` changes for some input, so an organisation recomputes every family
 * under the new rules (test/unit/catalog/domain/family-aggregates.test.ts fails until it is changed).
 */
export const FAMILY_AGGREGATE_RULES = '2';

/** A good of the family, with what the choice of representative reads. */
export interface AggregateGood {
  id: string;
  goodPriority: number;
  createdAt: Date;
  /** 上架: only a good on the shelf can be the representative (docs/domain.md, Public catalog) */
  onShelf: boolean;
}

export interface FamilyAggregatesInput {
  /** every member link (delisted and unorganised ones included: they count as members), any order */
  links: readonly MatrixLink[];
  customMembers: readonly MatrixCustomMember[];
  overrides: readonly Override[];
  /** the family's goods (made from a member link, or custom members), any order */
  goods: readonly AggregateGood[];
  /** the goods' secondary origins that are not delisted: goods by id, each good's origins in its order */
  secondaryOrigins: readonly (SecondaryOrigin & { detail: LinkDetail | null })[];
}

export interface FamilyAggregates {
  memberCount: number;
  goodCount: number;
  representativeGoodId: string | null;
  variants: ReturnType<typeof unionVariants>;
  sizeChart: ReturnType<typeof unionSizeChart>;
  packagingSpecs: ReturnType<typeof unionPackagingSpecs>;
  options: ReturnType<typeof unionOptions>;
  priceMatrix: ReturnType<typeof toPublicPriceMatrix> & { invalidOverrides: Override[] };
  conflicts: MatrixConflict[];
  lowestPrice: string | null;
  mediaByColor: ReturnType<typeof mediaByColor>;
}

/**
 * The representative, among the goods on the shelf (none on it: no representative): highest `goodPriority`, then the newest, then the lowest id. The read
 * model's goods-only update (src/catalog/families/recompute.ts) orders by the same three keys in SQL.
 */
export function compareRepresentative(a: AggregateGood, b: AggregateGood): number {
  if (a.goodPriority !== b.goodPriority) return b.goodPriority - a.goodPriority;
  const ta = a.createdAt.getTime();
  const tb = b.createdAt.getTime();
  if (ta !== tb) return tb - ta;
  return compareIds(a.id, b.id);
}

export function computeFamilyAggregates(input: FamilyAggregatesInput): FamilyAggregates {
  const matrix = computeFamilyMatrix({ links: input.links, customMembers: input.customMembers, overrides: input.overrides });
  const mediaSources: MediaSource[] = [
    ...contributingLinks(input.links).map((l) => ({ linkId: l.id, media: l.detail?.media ?? [] })),
    ...input.secondaryOrigins.map((s) => ({ linkId: s.id, media: s.detail?.media ?? [] })),
  ];
  const secondary = input.secondaryOrigins;
  const representative = input.goods.filter((g) => g.onShelf).sort(compareRepresentative)[0];
  return {
    memberCount: input.links.length,
    goodCount: input.goods.length,
    representativeGoodId: representative?.id ?? null,
    variants: unionVariants(input.links, secondary),
    sizeChart: unionSizeChart(input.links, secondary),
    packagingSpecs: unionPackagingSpecs(input.links, secondary),
    options: unionOptions(input.links, secondary),
    priceMatrix: { ...toPublicPriceMatrix(matrix), invalidOverrides: matrix.invalidOverrides },
    conflicts: matrix.conflicts,
    lowestPrice: matrix.lowestPrice,
    mediaByColor: mediaByColor(mediaSources),
  };
}
