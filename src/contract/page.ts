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

/** A category an empty search result suggests, with its number of public families. */
export const categorySuggestion = z.object({ id: z.string(), name: z.string(), familyCount: z.number().int().min(1) }).meta({ id: 'CategorySuggestion' });
export type CategorySuggestion = z.infer<typeof categorySuggestion>;

/**
 * A page of a list that takes `keyword`: as pageOf, and when a keyword found nothing, `suggestions`,
 * categories to look in instead (docs/api.md, Paging). Absent otherwise.
 */
export const searchPageOf = <T extends z.ZodType>(item: T) =>
  pageOf(item).extend({
    suggestions: z.array(categorySuggestion).optional().meta({ description: 'only when a keyword found nothing: up to 5 categories with public families, the likeliest first' }),
  });
export type SearchPage<T> = Page<T> & { suggestions?: CategorySuggestion[] };
