/**
 * The supplier's wire format (docs/supplier.md) as zod schemas. Unknown fields are stripped, not
 * rejected, so a supplier that adds a field does not stop the mirror; a missing or mistyped field
 * that the contract promises is a validation failure.
 */
import { z } from 'zod';
import { idSchema } from '../../platform/ids';

/** Money as the supplier sends it: a non-negative decimal string such as `"39.90"`, never a number. */
export const decimalSchema = z.string().regex(/^(0|[1-9]\d*)(\.\d{1,4})?$/, 'must be a decimal string such as "39.90"');

export const categorySchema = z.object({
  id: idSchema,
  parentId: idSchema.nullable(),
  name: z.string().min(1),
  // Suppliers send no icon, an empty string or null for "none"; the write path treats all three alike.
  icon: z.string().nullish(),
  sort: z.number().int(),
});

export const countrySchema = z.object({
  id: idSchema,
  name: z.string().min(1),
  code: z.string().regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code'),
});

export const linkStatusSchema = z.enum(['ON_SALE', 'OFF_SALE']);

export const linkSchema = z.object({
  id: idSchema,
  name: z.string().min(1),
  categoryId: idSchema,
  craftLabel: z.string(),
  price: decimalSchema,
  image: z.string(),
  status: linkStatusSchema,
  updatedAt: z.iso.datetime({ offset: true }),
});

export const variantSchema = z.object({
  sku: z.string().min(1),
  size: z.string().min(1),
  color: z.string().min(1),
  price: decimalSchema,
  stock: z.number().int().nonnegative(),
});

/** One row per size; the measurement columns (`chest`, `length`, `width` …) differ by product kind. */
export const sizeChartRowSchema = z.object({ size: z.string().min(1) }).catchall(z.string());

export const packagingSpecSchema = z.object({
  name: z.string().min(1),
  weightGrams: z.number().nonnegative(),
  lengthCm: z.number().nonnegative(),
  widthCm: z.number().nonnegative(),
  heightCm: z.number().nonnegative(),
});

export const optionSchema = z.object({
  name: z.string().min(1),
  values: z.array(z.string()),
});

export const mediaSchema = z.object({
  color: z.string(),
  url: z.string().min(1),
  sort: z.number().int(),
});

export const detailSchema = z.object({
  id: idSchema,
  variants: z.array(variantSchema),
  sizeChart: z.array(sizeChartRowSchema),
  packagingSpecs: z.array(packagingSpecSchema),
  options: z.array(optionSchema),
  media: z.array(mediaSchema),
});

/**
 * Page envelopes. Items stay `unknown` here because each item is validated on its own: one bad item
 * is reported and skipped, while a bad envelope fails the whole page.
 */
export const listEnvelopeSchema = z.object({ items: z.array(z.unknown()) });

/**
 * `nextCursor` is required (string or null): treating a missing cursor as "last page" would end a
 * listing pass early and make it look complete, which delists every link not yet seen.
 */
export const goodsEnvelopeSchema = z.object({
  items: z.array(z.unknown()),
  nextCursor: z.string().min(1).nullable(),
});

export type Category = z.infer<typeof categorySchema>;
export type Country = z.infer<typeof countrySchema>;
export type LinkStatus = z.infer<typeof linkStatusSchema>;
export type Link = z.infer<typeof linkSchema>;
export type Variant = z.infer<typeof variantSchema>;
export type SizeChartRow = z.infer<typeof sizeChartRowSchema>;
export type PackagingSpec = z.infer<typeof packagingSpecSchema>;
export type DetailOption = z.infer<typeof optionSchema>;
export type Media = z.infer<typeof mediaSchema>;
export type Detail = z.infer<typeof detailSchema>;
export type ListEnvelope = z.infer<typeof listEnvelopeSchema>;
export type GoodsEnvelope = z.infer<typeof goodsEnvelopeSchema>;
