/** Product families as the admin API answers them (docs/api.md). */
import { z } from 'zod';
import { publicCell } from './storefront';

/** A cell of a family's price matrix, or an override of one: its five dimension values and its price. */
export const cell = publicCell;
export type Cell = z.infer<typeof cell>;

export const family = z
  .object({
    id: z.string(),
    name: z.string(),
    revision: z.string().optional(),
    autoManaged: z.boolean(),
    locked: z.boolean(),
    /** 上架 (on) / 下架 (off) */
    shelf: z.enum(['on', 'off']),
    /** the storefront shows it: on the shelf with a good on the shelf (docs/domain.md, Public catalog) */
    public: z.boolean(),
    memberCount: z.number().int(),
    goodCount: z.number().int(),
    lowestPrice: z.string().nullable(),
    members: z
      .array(z.object({ id: z.string(), name: z.string(), delisted: z.boolean(), organised: z.boolean(), tagsManual: z.boolean(), missing: z.array(z.string()).nullable() }))
      .optional(),
    customMembers: z.array(z.object({ goodId: z.string(), tags: z.record(z.string(), z.union([z.array(z.string()), z.string()])), price: z.string() })).optional(),
    overrides: z.array(cell).optional(),
    invalidOverrides: z.array(cell).optional(),
    priceMatrix: z
      .object({
        cells: z.array(cell),
        sizes: z.array(z.string()).optional(),
        colors: z.array(z.string()).optional(),
        printCounts: z.array(z.string()).optional(),
        crafts: z.array(z.string()).optional(),
        logistics: z.array(z.string()).optional(),
      })
      .optional(),
  })
  .meta({ id: 'Family' });
export type Family = z.infer<typeof family>;
