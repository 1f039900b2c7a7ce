/** Events of the tag group stream (`tagGroup-<allocated id>`). */
import { z } from 'zod';
import { defineEvent, type EventUnion } from '../../platform/events/registry';
import { idSchema } from '../../platform/ids';
import { DIMENSIONS } from '../domain/tags';

export const tagGroupStreamId = (id: string) => `tagGroup-${id}`;

/** A group's dimension, or null for a group outside the price matrix (e.g. "style"). */
export const dimensionSchema = z.enum(DIMENSIONS);

export const TagGroupCreated = defineEvent('TagGroupCreated', 1, z.object({ tagGroupId: idSchema, name: z.string().min(1), dimension: dimensionSchema.nullable() }));

/** Only the fields that changed are present; `dimension: null` means the group no longer has one. */
export const TagGroupUpdated = defineEvent(
  'TagGroupUpdated',
  1,
  z.object({ tagGroupId: idSchema, name: z.string().min(1).optional(), dimension: dimensionSchema.nullable().optional() }),
);

export const TagGroupDeleted = defineEvent('TagGroupDeleted', 1, z.object({ tagGroupId: idSchema }));

export const tagGroupEvents = [TagGroupCreated, TagGroupUpdated, TagGroupDeleted] as const;
export type TagGroupEvent = EventUnion<typeof tagGroupEvents>;
