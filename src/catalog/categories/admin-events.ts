/**
 * Administrators' events on category streams (`category-<id>`, shared with the supplier mirror's
 * events in ./events.ts). Categories an administrator makes get allocated ids, which never collide
 * with the supplier's, so the mirror never touches them.
 */
import { z } from 'zod';
import { defineEvent, type EventUnion } from '../../platform/events/catalogue';
import { idSchema } from '../../platform/ids';

const fields = {
  /** null: a top-level category */
  parentId: idSchema.nullable(),
  name: z.string().min(1),
  /** null: inherits the nearest ancestor's icon */
  icon: z.string().min(1).nullable(),
  sortOrder: z.number().int(),
};

export const CategoryCreated = defineEvent('CategoryCreated', 1, z.object({ categoryId: idSchema, ...fields }));

/**
 * Only the fields that changed are present. On a mirrored category, name, icon and parent last until
 * the supplier changes the category (the mirror then overwrites them); sortOrder is the administrators'.
 */
export const CategoryUpdated = defineEvent('CategoryUpdated', 1, z.object({ categoryId: idSchema, ...fields }).partial().required({ categoryId: true }));

/** Hidden from every list; a supplier category the supplier still lists comes back at the next synchronisation. */
export const CategoryDeleted = defineEvent('CategoryDeleted', 1, z.object({ categoryId: idSchema }));

export const categoryAdminEvents = [CategoryCreated, CategoryUpdated, CategoryDeleted] as const;
export type CategoryAdminEvent = EventUnion<typeof categoryAdminEvents>;
