/** Links (the supplier's goods, `/origin-goods`) as the admin API answers them (docs/api.md). */
import type { LinkNameProblem } from './organise';

export interface Link {
  id: string; name: string; price: string; delisted: boolean; craftLabel: string | null;
  parsed: { country: string; logistics: string; productName: string; sku: string } | null;
  /** not parsed: which part of its name cannot be read (null when it can: not organised yet) */
  nameProblem?: LinkNameProblem | null;
  tags: { id: string; name: string; dimension: string }[]; tagsManual: boolean; tagsMissing?: string[] | null;
  family: { id: string; memberCount: number } | null;
  /** the good made from this link, if any */
  good: { id: string; name: string } | null;
}

/** A link's detail as the supplier last described it. */
export interface LinkDetail {
  variants: { sku: string; size: string; color: string; price: string; stock: number }[];
  sizeChart: Record<string, string>[];
  packagingSpecs: { name: string; weightGrams: number; lengthCm: number; widthCm: number; heightCm: number }[];
  options: { name: string; values: string[] }[];
  media: { color: string; url: string; sort: number }[];
}

/** GET /origin-goods/:id: the link with its detail, null until the detail was synchronised. */
export interface LinkWithDetail extends Link { detail: LinkDetail | null; detailSyncedAt: string | null }

/** GET /origin-goods/tree: the links by parsed country, then category. */
export interface LinkStatsCategory {
  categoryId: string | null; categoryName: string | null;
  links: number; organised: number; grouped: number; delisted: number; primaryReferences: number; secondaryReferences: number;
}
export interface LinkStatsCountry { country: string | null; categories: LinkStatsCategory[] }
