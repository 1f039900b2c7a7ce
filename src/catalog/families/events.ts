/** Events of the family stream (`family-<id>`): the public unit of the catalog. */
import { z } from 'zod';
import { defineEvent, type EventUnion } from '../../platform/events/registry';
import { idSchema } from '../../platform/ids';
import { dimensionValues } from '../domain/values';

export const familyStreamId = (id: string) => `family-${id}`;

const money = z.string().regex(/^\d+(\.\d{1,4})?$/, 'a decimal string such as "39.90"');
export const overrideKey = z.object({ size: z.string(), color: z.string(), printCount: z.string(), craft: z.string(), logistics: z.string() });
export type OverrideKey = z.infer<typeof overrideKey>;

/** On the shelf (上架): shown publicly when it has a good on the shelf; off (下架): in no public read (docs/domain.md, Public catalog). */
export const shelfState = z.enum(['on', 'off']);
export type ShelfState = z.infer<typeof shelfState>;

/** v2 adds `shelf`; a family created before it was on the shelf, as every family then was. */
export const FamilyCreated = defineEvent(
  'FamilyCreated',
  2,
  z.object({
    familyId: idSchema,
    name: z.string().min(1),
    /** country + productName + SKU of the links it groups; null for a manual family without one */
    familyNameKey: z.string().nullable(),
    autoManaged: z.boolean(),
    locked: z.boolean(),
    shelf: shelfState,
  }),
  { 1: (d) => ({ ...(d as object), shelf: 'on' }) },
);
export const FamilyRenamed = defineEvent('FamilyRenamed', 1, z.object({ familyId: idSchema, name: z.string().min(1) }));
/** An administrator put the family on the shelf (上架) or took it off (下架). */
export const FamilyShelfSet = defineEvent('FamilyShelfSet', 1, z.object({ familyId: idSchema, state: shelfState }));
export const FamilyLocked = defineEvent('FamilyLocked', 1, z.object({ familyId: idSchema }));
export const FamilyUnlocked = defineEvent('FamilyUnlocked', 1, z.object({ familyId: idSchema }));
/** The family's record of membership changes (the link stream holds the membership itself). */
export const FamilyMemberAdded = defineEvent('FamilyMemberAdded', 1, z.object({ familyId: idSchema, linkId: idSchema }));
/** An organisation run's record of the links that joined the family (each link's LinkOrganised holds its move). */
export const FamilyMembersAdded = defineEvent('FamilyMembersAdded', 1, z.object({ familyId: idSchema, linkIds: z.array(idSchema).min(1) }));
export const FamilyMemberRemoved = defineEvent('FamilyMemberRemoved', 1, z.object({ familyId: idSchema, linkId: idSchema }));
export const FamilyCustomMemberAdded = defineEvent('FamilyCustomMemberAdded', 1, z.object({ familyId: idSchema, goodId: idSchema, tags: dimensionValues, price: money }));
export const FamilyCustomMemberRemoved = defineEvent('FamilyCustomMemberRemoved', 1, z.object({ familyId: idSchema, goodId: idSchema }));
export const FamilyPriceOverrideSet = defineEvent('FamilyPriceOverrideSet', 1, overrideKey.extend({ familyId: idSchema, price: money }));
export const FamilyPriceOverrideRemoved = defineEvent('FamilyPriceOverrideRemoved', 1, overrideKey.extend({ familyId: idSchema }));
/** Consolidation: a pure fragment family merged into the one that has goods, then gone. */
export const FamilyMergedInto = defineEvent('FamilyMergedInto', 1, z.object({ familyId: idSchema, intoFamilyId: idSchema }));
export const FamilyDeleted = defineEvent('FamilyDeleted', 1, z.object({ familyId: idSchema }));
/**
 * An organisation's closing full recompute found the family's stored aggregates (`columns`, as the
 * read model names them) differing from what its members, goods and overrides give, so the catalog
 * projection computes them again. Appended only then: a catalog whose aggregates are right gets none.
 */
export const FamilyRecomputed = defineEvent('FamilyRecomputed', 1, z.object({ familyId: idSchema, columns: z.array(z.string()) }));

export const familyEvents = [
  FamilyCreated,
  FamilyRenamed,
  FamilyLocked,
  FamilyUnlocked,
  FamilyMemberAdded,
  FamilyMemberRemoved,
  FamilyCustomMemberAdded,
  FamilyCustomMemberRemoved,
  FamilyPriceOverrideSet,
  FamilyPriceOverrideRemoved,
  FamilyMergedInto,
  FamilyDeleted,
  FamilyRecomputed,
  FamilyMembersAdded,
  FamilyShelfSet,
] as const;
export type FamilyEvent = EventUnion<typeof familyEvents>;
