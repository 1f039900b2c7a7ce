/** Request shape of the history routes (and of `catalog history`), next to its type. */
import { z } from 'zod';
import { MAX_PAGE_SIZE } from '../../platform/http/pagination';
import { queryInt } from '../../platform/http/validate';

const time = z.iso.datetime({ offset: true });
/** `at`: the subject then; `from` + `to`: what changed between; neither: the list (paged only when asked). */
export const historyQuery = z
  .object({
    at: time.optional(),
    from: time.optional(),
    to: time.optional(),
    page: queryInt(1, 1_000_000).optional(),
    pageSize: queryInt(1, MAX_PAGE_SIZE).optional(),
  })
  .strict();
export type HistoryQuery = z.infer<typeof historyQuery>;
