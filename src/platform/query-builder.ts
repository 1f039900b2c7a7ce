/**
 * The administrator lists' dynamic WHERE: optional filters, each value a numbered parameter, joined
 * with AND; then one page of the rows and the count of all of them (docs/api.md, Paging).
 */
import type { Queryable } from './db';
import { limitOffset, paged, type Page, type PageQuery } from './http/pagination';

export class Filters {
  private readonly conditions: string[] = [];
  /** the parameters the conditions name, in their numbering */
  readonly params: unknown[] = [];

  /** The placeholder (`$n`) of a new parameter: write it into the condition that uses the value. */
  param(value: unknown): string {
    return `$${this.params.push(value)}`;
  }

  /** Adds a condition; its values go in through `param`, never into the SQL text. */
  and(condition: string): this {
    this.conditions.push(condition);
    return this;
  }

  /** `WHERE a AND b`, or nothing without a condition. */
  get where(): string {
    return this.conditions.length ? `WHERE ${this.conditions.join(' AND ')}` : '';
  }
}

/**
 * One page of a filtered list: the count of every matching row first, then the page. `count` is
 * given the WHERE, `rows` the WHERE and the `LIMIT … OFFSET …` clause to end on (after its ORDER BY).
 */
export async function pageOf<R>(
  db: Queryable,
  filters: Filters,
  q: PageQuery,
  sql: { count: (where: string) => string; rows: (where: string, page: string) => string },
): Promise<Page<R>> {
  const { limit, offset } = limitOffset(q);
  const params = [...filters.params];
  const total = await db.query<{ n: string }>(sql.count(filters.where), params);
  const page = `LIMIT $${params.push(limit)} OFFSET $${params.push(offset)}`;
  const rows = await db.query(sql.rows(filters.where, page), params);
  return paged(rows.rows as R[], Number(total.rows[0]!.n), q.page, q.pageSize);
}
