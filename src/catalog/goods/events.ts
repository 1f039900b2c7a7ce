/** Events of the good stream (`good-<id>`): curated catalog products. */
import { z } from 'zod';
import { defineEvent, type EventUnion } from '../../platform/events/registry';
import { idSchema } from '../../platform/ids';

export const goodStreamId = (id: string) => `good-${id}`;

const fields = z.object({
  name: z.string().min(1),
  description: z.string().nullable(),
  image: z.string().nullable(),
  goodPriority: z.number(),
  tagIds: z.array(idSchema),
  tagFontColor: z.string().nullable(),
  categoryId: idSchema.nullable(),
  countryId: idSchema.nullable(),
});

export const GoodCreated = defineEvent(
  'GoodCreated',
  1,
  fields.extend({
    goodId: idSchema,
    /** the primary origin link; null for a custom good */
    originGoodId: idSchema.nullable(),
  }),
);
export const GoodUpdated = defineEvent('GoodUpdated', 1, fields.partial().extend({ goodId: idSchema }));
export const GoodOriginsSet = defineEvent('GoodOriginsSet', 1, z.object({ goodId: idSchema, secondaryOriginGoodIds: z.array(idSchema) }));
/**
 * An administrator put the good on the shelf (上架) or took it off (下架). A good is created on the
 * shelf; one off it contributes nothing to any public read (docs/domain.md, Public catalog).
 */
export const GoodShelfSet = defineEvent('GoodShelfSet', 1, z.object({ goodId: idSchema, state: z.enum(['on', 'off']) }));
export const GoodDeleted = defineEvent('GoodDeleted', 1, z.object({ goodId: idSchema }));

export const goodEvents = [GoodCreated, GoodUpdated, GoodOriginsSet, GoodDeleted, GoodShelfSet] as const;
export type GoodEvent = EventUnion<typeof goodEvents>;
