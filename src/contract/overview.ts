/** GET /overview: the catalogue in figures for the admin's first screen (docs/api.md, Overview). */
import { z } from 'zod';

const count = z.number().int().min(0);

export const catalogOverview = z
  .object({
    families: z.object({ total: count, public: count, unpriced: count, locked: count, manual: count, empty: count, withoutGood: count }),
    goods: z.object({ total: count, custom: count, withoutFamily: count }),
    links: z.object({
      total: count,
      organised: count,
      notOrganised: count,
      incomplete: count,
      delisted: count,
      withoutGood: count,
      withoutFamily: count,
      groupedWithoutGood: count,
    }),
    vocabulary: z.object({ categories: count, countries: count, tagGroups: count, tags: count, positions: count }),
  })
  .meta({ id: 'Overview' });
export type CatalogOverview = z.infer<typeof catalogOverview>;
