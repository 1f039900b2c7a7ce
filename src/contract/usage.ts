/**
 * What uses a resource, as `GET /<resource>/:id/usage` answers it (docs/api.md, Usage): the counts an
 * administrator's confirmation states before a delete, and which of them refuse it. A delete that
 * `blockedBy` names is answered 409 with the same counts in its details.
 */
import { z } from 'zod';

export const usage = z
  .object({
    counts: z.record(z.string(), z.number().int().min(0)),
    /** the counts (non-zero) that make the delete refused; empty: the delete is allowed */
    blockedBy: z.array(z.string()),
  })
  .meta({ id: 'Usage' });

/** `K` names what is counted: the server's own keys, plain strings to the clients. */
export interface Usage<K extends string = string> {
  counts: Record<K, number>;
  blockedBy: K[];
}
