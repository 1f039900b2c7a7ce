/**
 * The shapes of the values the catalog's rules work on, declared once: a link's detail as the
 * supplier describes it, and values per dimension (a link's tags, a custom member's explicit tags).
 * The link's events carry them (../links/events.ts); the pure rules here read them.
 */
import { z } from 'zod';

const decimalString = z.string().regex(/^-?\d+(\.\d+)?$/, 'a decimal string');

/** The link's detail as the supplier last described it (variants, size chart, packaging, options, media). */
export const linkDetailSchema = z.object({
  variants: z.array(z.object({ sku: z.string(), size: z.string(), color: z.string(), price: decimalString, stock: z.number() })),
  sizeChart: z.array(z.record(z.string(), z.string())),
  packagingSpecs: z.array(z.object({ name: z.string(), weightGrams: z.number(), lengthCm: z.number(), widthCm: z.number(), heightCm: z.number() })),
  options: z.array(z.object({ name: z.string(), values: z.array(z.string()) })),
  media: z.array(z.object({ color: z.string(), url: z.string(), sort: z.number() })),
});
export type LinkDetail = z.infer<typeof linkDetailSchema>;

/** Values per dimension, the shape of link tags and custom members' explicit tags. */
export const dimensionValues = z.object({
  size: z.array(z.string()),
  color: z.array(z.string()),
  printCount: z.array(z.string()),
  craft: z.array(z.string()),
  logistics: z.array(z.string()),
});
export type DimensionValues = z.infer<typeof dimensionValues>;
