/** Request shapes of /product-families, each next to its type. */
import { z } from 'zod';
import { keywordField } from '../request-fields';
import { priceField, visibleName } from '../../platform/http/fields';
import { pageQuery } from '../../platform/http/pagination';
import { idSchema } from '../../platform/ids';

/** Prices an administrator sets: positive, at most two decimals (docs/domain.md, Identifiers and money). */
const money = priceField();
const values = z.array(z.string().min(1).max(50)).max(50);
const dimensionValues = z.object({ size: values, color: values, printCount: values, craft: values, logistics: values }).strict();
/**
 * A cell of the family's matrix, by its values. The values come from link names (which bound nothing)
 * or custom members (50 characters); the cell must exist, so a longer value could only be refused.
 */
const keyValue = z.string().max(500);
const overrideKey = z.object({ size: keyValue, color: keyValue, printCount: keyValue, craft: keyValue, logistics: keyValue }).strict();

/** 上架 (`on`) / 下架 (`off`): a family's or a good's shelf state (docs/domain.md, Public catalog). */
const shelfField = z.enum(['on', 'off']);
export const shelfBody = z.object({ state: shelfField }).strict();
export type ShelfBody = z.infer<typeof shelfBody>;

/** `shelf`: `off` makes it 下架 from its creation (default `on`). */
export const createFamilyBody = z.object({ name: visibleName(200), familyNameKey: z.string().max(300).nullable().optional(), shelf: shelfField.optional() }).strict();
export type CreateFamilyBody = z.infer<typeof createFamilyBody>;

export const updateFamilyBody = z.object({ name: visibleName(200).optional(), locked: z.boolean().optional() }).strict();
export type UpdateFamilyBody = z.infer<typeof updateFamilyBody>;

export const addMemberBody = z.object({ originGoodId: idSchema }).strict();
export type AddMemberBody = z.infer<typeof addMemberBody>;

export const addCustomMemberBody = z.object({ goodId: idSchema, tags: dimensionValues, price: money }).strict();
export type AddCustomMemberBody = z.infer<typeof addCustomMemberBody>;

/** The orders of the families list (docs/api.md): by id (the default), name, members, lowest price, last change. */
export const FAMILY_SORTS = ['ID', 'NAME', 'MEMBERS_DESC', 'PRICE_ASC', 'PRICE_DESC', 'UPDATED_DESC'] as const;
const flag = z.enum(['true', 'false']).optional();
export const listFamiliesQuery = pageQuery
  .extend({
    keyword: keywordField.optional(),
    locked: flag,
    /** true: made by an administrator (organisation leaves them alone); false: made by organisation */
    manual: flag,
    /** false: no price yet (no matrix cell); true: priced */
    priced: flag,
    /** the family's country: its representative good's, else its member links' parsed country */
    countryId: idSchema.optional(),
    /** on: 上架; off: 下架 */
    shelf: shelfField.optional(),
    sort: z.enum(FAMILY_SORTS).optional(),
  })
  .strict();
export type ListFamiliesQuery = z.infer<typeof listFamiliesQuery>;

export const setOverrideBody = overrideKey.extend({ price: money });
export type SetOverrideBody = z.infer<typeof setOverrideBody>;

// docs/api.md: the same body as PUT, price optional (and ignored): a client can send back the cell it shows.
export const removeOverrideBody = overrideKey.extend({ price: z.string().max(40).optional() });
export type RemoveOverrideBody = z.infer<typeof removeOverrideBody>;
