/**
 * Events of the link stream (`link-<supplier id>`): what the supplier mirror and organisation record
 * about one purchasable link.
 */
import { z } from 'zod';
import { defineEvent, type EventUnion } from '../../platform/events/registry';
import { idSchema } from '../../platform/ids';
import { dimensionValues, linkDetailSchema } from '../domain/values';

export const linkStreamId = (linkId: string) => `link-${linkId}`;

const decimal = z.string().regex(/^-?\d+(\.\d+)?$/, 'a decimal string');

const linkFields = z.object({
  linkId: idSchema,
  name: z.string(),
  categoryId: idSchema.nullable(),
  craftLabel: z.string().nullable(),
  price: decimal,
  image: z.string().nullable(),
  status: z.enum(['ON_SALE', 'OFF_SALE']),
  supplierUpdatedAt: z.string().nullable(),
});

/**
 * v1 stored `price` as a JSON number, as the first supplier client parsed it; a float cannot hold
 * money exactly, so v2 keeps the supplier's decimal string. Old events are upcast on read: the v1
 * number is turned into a two-decimal string (the supplier always quoted cents).
 */
export type LinkMirrorData = z.infer<typeof linkFields>;

export const LinkMirrored = defineEvent('LinkMirrored', 2, linkFields, {
  1: (data) => {
    const d = data as Record<string, unknown>;
    return { ...d, price: typeof d.price === 'number' ? d.price.toFixed(2) : d.price };
  },
});

export const LinkDelisted = defineEvent('LinkDelisted', 1, z.object({ linkId: idSchema, reason: z.enum(['MISSING_FROM_LISTING', 'OFF_SALE', 'DETAIL_NOT_FOUND']) }));

export const LinkRelisted = defineEvent('LinkRelisted', 1, z.object({ linkId: idSchema }));

// The shapes the catalog's pure rules read too (../domain/values.ts).
export type { DimensionValues, LinkDetail } from '../domain/values';

export const LinkDetailSynced = defineEvent('LinkDetailSynced', 1, z.object({ linkId: idSchema, detail: linkDetailSchema }));

const dimension = z.enum(['size', 'color', 'printCount', 'craft', 'logistics']);

const parsedColumns = z.object({ country: z.string(), logistics: z.string(), productName: z.string(), sku: z.string(), familyNameKey: z.string() });

/** Organisation filled the parsed columns from the link name (never synchronisation). */
export const LinkParsed = defineEvent('LinkParsed', 1, parsedColumns.extend({ linkId: idSchema }));

/** Organisation derived the link's dimension tags from its name and detail (only while not taken over). */
export const LinkTagsDerived = defineEvent('LinkTagsDerived', 1, z.object({ linkId: idSchema, tags: dimensionValues, missing: z.array(dimension) }));

/** An administrator set the link's tags: from now on organisation leaves them alone. */
export const LinkTagsTakenOver = defineEvent(
  'LinkTagsTakenOver',
  1,
  z.object({ linkId: idSchema, tags: dimensionValues, filled: z.array(z.object({ dimension, value: z.string() })) }),
);

/** Back to derived tags (restore-auto), with the single-link derivation of organisation. */
export const LinkTagsRestored = defineEvent('LinkTagsRestored', 1, z.object({ linkId: idSchema, tags: dimensionValues, missing: z.array(dimension) }));

/** Membership lives on the link stream, so "at most one family per link" holds by construction. */
export const LinkJoinedFamily = defineEvent('LinkJoinedFamily', 1, z.object({ linkId: idSchema, familyId: idSchema }));
export const LinkLeftFamily = defineEvent('LinkLeftFamily', 1, z.object({ linkId: idSchema, familyId: idSchema }));

/**
 * What one organisation run did to the link, in one event (docs/domain.md, Organisation): each part
 * only when the run changed it. `parsed`: the parsed columns filled from its name (as LinkParsed);
 * `tags` and `missing`: its derived tags (as LinkTagsDerived, never over manual ones); `familyId`:
 * the family it joined (as LinkJoinedFamily; the family's FamilyMembersAdded of the same append
 * records it). Runs before this event appended those three events instead; they are read as ever.
 */
export const LinkOrganised = defineEvent(
  'LinkOrganised',
  1,
  z
    .object({
      linkId: idSchema,
      parsed: parsedColumns.optional(),
      tags: dimensionValues.optional(),
      missing: z.array(dimension).optional(),
      familyId: idSchema.optional(),
    })
    .refine((d) => (d.tags === undefined) === (d.missing === undefined), 'tags and missing go together'),
);

/** The link became (or stopped being) the primary origin of a good: one good per link, held here. */
export const LinkGoodAssigned = defineEvent('LinkGoodAssigned', 1, z.object({ linkId: idSchema, goodId: idSchema }));
export const LinkGoodUnassigned = defineEvent('LinkGoodUnassigned', 1, z.object({ linkId: idSchema, goodId: idSchema }));

export const linkEvents = [
  LinkGoodAssigned,
  LinkGoodUnassigned,
  LinkMirrored,
  LinkDelisted,
  LinkRelisted,
  LinkDetailSynced,
  LinkParsed,
  LinkTagsDerived,
  LinkTagsTakenOver,
  LinkTagsRestored,
  LinkJoinedFamily,
  LinkLeftFamily,
  LinkOrganised,
] as const;
export type LinkEvent = EventUnion<typeof linkEvents>;
