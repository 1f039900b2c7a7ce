/**
 * What uses a resource, as `GET /<resource>/:id/usage` answers it (docs/api.md, Usage): the counts an
 * administrator's confirmation states before a delete, and which of them refuse it. A delete that
 * `blockedBy` names is answered 409 with the same counts in its details.
 */
export interface Usage<K extends string = string> {
  counts: Record<K, number>;
  /** the counts (non-zero) that make the delete refused; empty: the delete is allowed */
  blockedBy: K[];
}
