/** Links (the supplier's goods, `/origin-goods` on the wire) as the admin API answers them (docs/api.md). */
import { z } from 'zod';
import { linkNameProblem } from './organise';

export const link = z
  .object({
    id: z.string(),
    name: z.string(),
    price: z.string(),
    delisted: z.boolean(),
    craftLabel: z.string().nullable(),
    parsed: z.object({ country: z.string(), logistics: z.string(), productName: z.string(), sku: z.string() }).nullable(),
    /** not parsed: which part of its name cannot be read (null when it can: not organised yet) */
    nameProblem: linkNameProblem.nullable().optional(),
    tags: z.array(z.object({ id: z.string(), name: z.string(), dimension: z.string() })),
    tagsManual: z.boolean(),
    tagsMissing: z.array(z.string()).nullable().optional(),
    /** the family it is in (a good made from it joins it) */
    family: z.object({ id: z.string(), name: z.string(), memberCount: z.number().int() }).nullable(),
    /** the good made from this link, if any */
    good: z.object({ id: z.string(), name: z.string() }).nullable(),
    detailSyncedAt: z.string().nullable(),
    revision: z.string(),
  })
  .meta({ id: 'OriginGood' });
export type Link = z.infer<typeof link>;

/** A link's detail as the supplier last described it. */
export const linkDetail = z.object({
  variants: z.array(z.object({ sku: z.string(), size: z.string(), color: z.string(), price: z.string(), stock: z.number().int() })),
  sizeChart: z.array(z.record(z.string(), z.string())),
  packagingSpecs: z.array(z.object({ name: z.string(), weightGrams: z.number(), lengthCm: z.number(), widthCm: z.number(), heightCm: z.number() })),
  options: z.array(z.object({ name: z.string(), values: z.array(z.string()) })),
  media: z.array(z.object({ color: z.string(), url: z.string(), sort: z.number().int() })),
});
export type LinkDetail = z.infer<typeof linkDetail>;

/** GET /origin-goods/:id: the link with its detail, null until the detail was synchronised. */
export const linkWithDetail = link.extend({ detail: linkDetail.nullable() }).meta({ id: 'OriginGoodWithDetail' });
export type LinkWithDetail = z.infer<typeof linkWithDetail>;

/** GET /origin-goods/tree: the links by parsed country, then category. */
export const linkStatsCategory = z.object({
  categoryId: z.string().nullable(),
  categoryName: z.string().nullable(),
  links: z.number().int(),
  organised: z.number().int(),
  grouped: z.number().int(),
  delisted: z.number().int(),
  primaryReferences: z.number().int(),
  secondaryReferences: z.number().int(),
});
export type LinkStatsCategory = z.infer<typeof linkStatsCategory>;
export const linkStatsCountry = z.object({ country: z.string().nullable(), categories: z.array(linkStatsCategory) });
export type LinkStatsCountry = z.infer<typeof linkStatsCountry>;

/** GET /origin-goods/tree */
export const linkTree = z.object({ items: z.array(linkStatsCountry) });

/** A tag a link carries for a dimension of its name. */
export const dimensionTag = z.object({ id: z.string(), name: z.string(), dimension: z.string() });

/** PUT /origin-goods/:id/tags: the tags as set, those filled from the name, and the family the link joined (if any). */
export const linkTagsAnswer = z.object({ tags: z.array(dimensionTag), filledDimensionTags: z.array(dimensionTag), attachedFamilyId: z.string().nullable() });
