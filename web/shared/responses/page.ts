/**
 * A page of a list, as every paged list answers it (docs/api.md, Paging). The service keeps its own
 * declaration: src/platform imports nothing above it (docs/architecture.md).
 */
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}
