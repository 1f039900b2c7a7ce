/**
 * Administrators' events on category streams (`category-<id>`, shared with the supplier mirror's
 * events in ./events.ts) and on the order streams, one per parent, that hold the order of that
 * parent's children (`category-order-<parentId>`, `category-order-root`). Categories an
 * administrator makes get allocated ids, which never collide with the supplier's, so the mirror
 * never touches them.
 */
import { z } from 'zod';
import { defineEvent, type EventUnion } from '../../platform/events/registry';
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
export const CategoryUpdated = defineEvent(
  'CategoryUpdated',
  1,
  z
    .object({ categoryId: idSchema, ...fields })
    .partial()
    .required({ categoryId: true }),
);

/** Hidden from every list; a supplier category the supplier still lists comes back at the next synchronisation. */
export const CategoryDeleted = defineEvent('CategoryDeleted', 1, z.object({ categoryId: idSchema }));

/** The full new order of one parent's live children: `categoryIds[i]` gets sort order i. */
export const CategoriesReordered = defineEvent('CategoriesReordered', 1, z.object({ parentId: idSchema.nullable(), categoryIds: z.array(idSchema) }));

/** One order stream per parent, so reordering two parents' children never conflicts. */
export const categoryOrderStreamId = (parentId: string | null) => `category-order-${parentId ?? 'root'}`;

export const categoryAdminEvents = [CategoryCreated, CategoryUpdated, CategoryDeleted, CategoriesReordered] as const;
export type CategoryAdminEvent = EventUnion<typeof categoryAdminEvents>;
