/** Events of the category stream (`category-<supplier id>`). */
import { z } from 'zod';
import { defineEvent, type EventUnion } from '../../platform/events/registry';
import { idSchema } from '../../platform/ids';
import type { CategoryAdminEvent } from './admin-events';

export const categoryStreamId = (id: string) => `category-${id}`;

/**
 * The supplier's category as mirrored: `name` is the cleaned name (docs/domain.md, Category names), `rawName` the
 * supplier's. `sortOrder` is set only when the category is first seen (backfilled from the supplier's
 * ordering); afterwards administrators own it, so later mirrors carry null and leave it alone.
 */
export const CategoryMirrored = defineEvent(
  'CategoryMirrored',
  1,
  z.object({
    categoryId: idSchema,
    parentId: idSchema.nullable(),
    name: z.string().min(1),
    rawName: z.string().min(1),
    icon: z.string().nullable(),
    supplierSort: z.number().int(),
    sortOrder: z.number().int().nullable(),
  }),
);

/** Gone from a complete supplier listing. */
export const CategoryRemovedUpstream = defineEvent('CategoryRemovedUpstream', 1, z.object({ categoryId: idSchema }));

export const categoryEvents = [CategoryMirrored, CategoryRemovedUpstream] as const;
/** Every event a category stream holds: the supplier mirror's and the administrators'. */
export type CategoryEvent = EventUnion<typeof categoryEvents> | CategoryAdminEvent;
