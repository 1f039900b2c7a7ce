/**
 * Request shapes of the public storefront (docs/api.md, Public), each next to its type, and the cache key
 * each one maps to. Parse with `parseQuery` (repeated or nested parameters are a 400).
 */
import { z } from 'zod';
import { queryInt } from '../platform/http/validate';
import { idListParam, idSchema } from '../platform/ids';

import { MAX_TAG_FILTER, PUBLIC_SORTS, type PublicSort } from '../catalog/domain/ordering';
import { keywordField } from '../catalog/request-fields';

export { MAX_TAG_FILTER, PUBLIC_SORTS, type PublicSort };

export const PUBLIC_DEFAULT_PAGE_SIZE = 20;
export const PUBLIC_MAX_PAGE_SIZE = 100;
/** Far beyond any catalog; it keeps `(page - 1) * pageSize` an exact small integer. */
const MAX_PAGE = 1_000_000;

/**
 * `tagIds=1,2,3`: all must match. An empty value is no filter (a storefront joining an empty
 * selection sends `tagIds=`); duplicates collapse and the order is irrelevant, so the ids are sorted
 * to give one cache key per set.
 */
const tagIdsField = idListParam(MAX_TAG_FILTER).transform((ids) => [...new Set(ids)].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0)));

export const publicGoodsQuery = z
  .object({
    page: queryInt(1, MAX_PAGE).default(1),
    pageSize: queryInt(1, PUBLIC_MAX_PAGE_SIZE).default(PUBLIC_DEFAULT_PAGE_SIZE),
    sort: z.enum(PUBLIC_SORTS).default('DEFAULT'),
    countryId: idSchema.optional(),
    categoryId: idSchema.optional(),
    tagIds: tagIdsField.optional(),
    keyword: keywordField.optional(),
  })
  .strict();
export type PublicGoodsQuery = z.infer<typeof publicGoodsQuery>;

/** What selects and orders the materialised list: everything but the page window. */
export interface PublicListSpec {
  sort: PublicSort;
  countryId: string | null;
  categoryId: string | null;
  tagIds: string[];
  keyword: string | null;
}

export function listSpecOf(q: PublicGoodsQuery): PublicListSpec {
  return {
    sort: q.sort,
    countryId: q.countryId ?? null,
    categoryId: q.categoryId ?? null,
    tagIds: q.tagIds ?? [],
    keyword: q.keyword ?? null,
  };
}

/**
 * One key per (filters, sort): the page window is not part of it, since the cache holds the whole
 * list and every page is cut from it. The keyword is in it as the query matches it (`folded`: its
 * pattern as the database lowers it, ./keywords.ts), so `T恤` and `t恤` share one entry. A JSON
 * array, so no value can make two keys collide.
 */
export function listCacheKey(spec: PublicListSpec, folded: string | null): string {
  return JSON.stringify(['public-goods', spec.sort, spec.countryId, spec.categoryId, spec.tagIds, spec.keyword === null ? null : folded]);
}
