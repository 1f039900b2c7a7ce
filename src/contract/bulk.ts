/** Bulk changes as the admin API answers them (docs/api.md, Bulk changes). */
import { z } from 'zod';

/** What became of one item of the selection: `index` its place in the selection, `id` the item. */
export const bulkItemResult = z
  .object({
    index: z.number().int().min(0),
    id: z.string(),
    outcome: z.enum(['done', 'skipped']),
    /** done: whether the item's change appended anything (false: it already was so) */
    changed: z.boolean().optional(),
    /** skipped: the error code and message the item's own command answered */
    code: z.string().optional(),
    message: z.string().optional(),
  })
  .meta({ id: 'BulkItemResult' });
export type BulkItemResult = z.infer<typeof bulkItemResult>;

export const bulkTarget = z.enum(['goods', 'families', 'countries', 'categories', 'tags']);
export type BulkTarget = z.infer<typeof bulkTarget>;

/**
 * A bulk run: its selection's progress and each item's outcome so far. `state` running until every
 * item has been handled; `failed` with `error` when the run stopped (a replacement whose delete was
 * refused at the end, the process stopped).
 */
export const bulkRun = z
  .object({
    runId: z.string(),
    target: bulkTarget,
    action: z.record(z.string(), z.unknown()),
    state: z.enum(['running', 'succeeded', 'failed']),
    done: z.number().int().min(0),
    total: z.number().int().min(0),
    counts: z.object({ done: z.number().int().min(0), changed: z.number().int().min(0), skipped: z.number().int().min(0) }),
    results: z.array(bulkItemResult),
    startedBy: z.string(),
    startedAt: z.string(),
    finishedAt: z.string().nullable(),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
  })
  .meta({ id: 'BulkRun' });
export type BulkRun = z.infer<typeof bulkRun>;
