/** One event of a family's, a good's or a link's history (docs/api.md, History). */
export interface HistoryItem {
  position: string;
  /** the stream the event belongs to (`family-…`, `link-…`, `good-…`) */
  stream: string;
  /** the event's revision in its stream */
  version: string;
  type: string;
  at: string;
  by: string;
  why: string;
  correlationId: string;
  data: unknown;
  /** what the event changed in the subject's view; null for an own event that changed none of it */
  changes: Record<string, unknown> | null;
  /** on the last listed event of a bulk run (`BULK_RUN`): what the run changed of the subject together */
  runChanges?: Record<string, unknown> | null;
}
