/**
 * Administrator list paging (docs/api.md, Paging): `page` is 1-based (default 1), `pageSize` defaults
 * to 50 and may not exceed 1000 (docs/api.md, Limits); anything else is a 400, never a silent clamp, so a client
 * that asks for 1001 rows learns it will not get them. Answers are `{items, total, page, pageSize}`.
 */
import { z } from 'zod';
import type { Page } from '../../contract/page';
import { queryInt } from './validate';

export const MAX_PAGE_SIZE = 1000;
export const DEFAULT_PAGE_SIZE = 50;
/** Far beyond any real catalog; it keeps `(page - 1) * pageSize` an exact integer for PostgreSQL. */
const MAX_PAGE = 1_000_000;

/** The paging fields, to `.extend()` a list's own filters onto (parse with `parseQuery`). */
export const pageQuery = z
  .object({
    page: queryInt(1, MAX_PAGE).default(1),
    pageSize: queryInt(1, MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  })
  .strict();
export type PageQuery = z.infer<typeof pageQuery>;

export type { Page } from '../../contract/page';

export function paged<T>(items: T[], total: number, page: number, pageSize: number): Page<T> {
  return { items, total, page, pageSize };
}

/** SQL `LIMIT`/`OFFSET` for a page. */
export function limitOffset(q: PageQuery): { limit: number; offset: number } {
  return { limit: q.pageSize, offset: (q.page - 1) * q.pageSize };
}
