/** Events of the position stream (`position-<allocated id>`): home-page slots holding goods. */
import { z } from 'zod';
import { defineEvent, type EventUnion } from '../../platform/events/registry';
import { idSchema } from '../../platform/ids';

export const positionStreamId = (id: string) => `position-${id}`;

const fields = {
  name: z.string().min(1),
  sortOrder: z.number().int(),
  /** in display order, each once */
  goodIds: z.array(idSchema),
};

export const PositionCreated = defineEvent('PositionCreated', 1, z.object({ positionId: idSchema, ...fields }));

/** Only the fields that changed are present; `goodIds` is the complete new list. */
export const PositionUpdated = defineEvent(
  'PositionUpdated',
  1,
  z
    .object({ positionId: idSchema, ...fields })
    .partial()
    .required({ positionId: true }),
);

export const PositionDeleted = defineEvent('PositionDeleted', 1, z.object({ positionId: idSchema }));

export const positionEvents = [PositionCreated, PositionUpdated, PositionDeleted] as const;
export type PositionEvent = EventUnion<typeof positionEvents>;
