/**
 * Events of the tag stream (`tag-<allocated id>`), and of the one stream that holds the order of all
 * tags (`tag-order`): a reorder is one event however many tags it moves.
 */
import { z } from 'zod';
import { defineEvent, type EventUnion } from '../../platform/events/registry';
import { idSchema } from '../../platform/ids';

export const tagStreamId = (id: string) => `tag-${id}`;
export const TAG_ORDER_STREAM = 'tag-order';

const fields = {
  groupId: idSchema,
  name: z.string().min(1),
  sortOrder: z.number().int(),
  /** display colour of the tag's label, e.g. `#ff0000`; null = the storefront's default */
  color: z.string().nullable(),
};

export const TagCreated = defineEvent('TagCreated', 1, z.object({ tagId: idSchema, ...fields }));

/** Only the fields that changed are present (a `groupId` moves the tag to another group). */
export const TagUpdated = defineEvent(
  'TagUpdated',
  1,
  z
    .object({ tagId: idSchema, ...fields })
    .partial()
    .required({ tagId: true }),
);

export const TagDeleted = defineEvent('TagDeleted', 1, z.object({ tagId: idSchema }));

/** The full new order of all live tags: `tagIds[i]` gets sort order i. */
export const TagsReordered = defineEvent('TagsReordered', 1, z.object({ tagIds: z.array(idSchema) }));

export const tagEvents = [TagCreated, TagUpdated, TagDeleted, TagsReordered] as const;
export type TagEvent = EventUnion<typeof tagEvents>;
