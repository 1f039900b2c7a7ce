/** A page of a list, as every paged list answers it (docs/api.md, Paging). */
import { z } from 'zod';

const pageFields = z.object({
  total: z.number().int().min(0).meta({ description: 'how many items the whole list holds', example: 137 }),
  page: z.number().int().min(1).meta({ description: '1-based' }),
  pageSize: z.number().int().min(1),
});

/** `{items, total, page, pageSize}` of `item`. */
export const pageOf = <T extends z.ZodType>(item: T) => pageFields.extend({ items: z.array(item) });

export type Page<T> = z.infer<typeof pageFields> & { items: T[] };
