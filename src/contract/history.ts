/** The audit history of families, goods and links (docs/api.md, History). */
import { z } from 'zod';

/** One event of a family's, a good's or a link's history. */
export const historyItem = z
  .object({
    position: z.string(),
    /** the stream the event belongs to (`family-…`, `link-…`, `good-…`) */
    stream: z.string(),
    /** the event's revision in its stream */
    version: z.string(),
    type: z.string(),
    at: z.string(),
    by: z.string(),
    why: z.string(),
    correlationId: z.string(),
    data: z.unknown(),
    /** what the event changed in the subject's view; null for an own event that changed none of it */
    changes: z.record(z.string(), z.unknown()).nullable(),
    /** on the last listed event of a bulk run (`BULK_RUN`): what the run changed of the subject together */
    runChanges: z.record(z.string(), z.unknown()).nullable().optional(),
  })
  .meta({ id: 'HistoryItem' });
export type HistoryItem = z.infer<typeof historyItem>;

const changes = z.record(z.string(), z.unknown()).nullable();

/** The list: the events, newest first; `page` and `pageSize` when paged. */
export const historyList = z.object({ items: z.array(historyItem), total: z.number().int(), page: z.number().int().optional(), pageSize: z.number().int().optional() });

/** `from` and `to`: what changed between them, and the events that made it. */
export const historyBetween = z.object({ from: z.string(), to: z.string(), changes, items: z.array(historyItem) });

/**
 * A history answer: the list; with `at`, `{at, <subject>}` (the subject, `family`, `good` or
 * `originGood`, as it was then); with `from` and `to`, what changed between.
 */
export const historyAnswer = (subject: 'family' | 'good' | 'originGood') =>
  z.union([historyList, historyBetween, z.object({ at: z.string(), [subject]: z.record(z.string(), z.unknown()) })]);
