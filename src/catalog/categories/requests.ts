/** Request shapes of /categories, each next to its type. */
import { z } from 'zod';
import { pageQuery } from '../../platform/http/pagination';
import { idSchema } from '../../platform/ids';
import { iconField as imageOrNone } from '../../platform/http/fields';
import { nameField, sortOrderField } from '../request-fields';

/** The image rule; an empty icon counts as none (docs/domain.md, Category names). */
const iconField = imageOrNone(1000);

export const createCategoryBody = z
  .object({
    parentId: idSchema.nullable().default(null),
    name: nameField(),
    icon: iconField.default(null),
    sortOrder: sortOrderField.default(0),
  })
  .strict();
export type CreateCategoryBody = z.infer<typeof createCategoryBody>;

export const updateCategoryBody = z
  .object({ parentId: idSchema.nullable().optional(), name: nameField().optional(), icon: iconField.optional(), sortOrder: sortOrderField.optional() })
  .strict();
export type UpdateCategoryBody = z.infer<typeof updateCategoryBody>;

/** The full new order of one parent's children; `parentId` null is the top level. */
export const sortCategoriesBody = z.object({ parentId: idSchema.nullable(), ids: z.array(idSchema).max(100_000) }).strict();
export type SortCategoriesBody = z.infer<typeof sortCategoriesBody>;

/** `parentId=root` lists the top level. */
export const listCategoriesQuery = pageQuery.extend({ parentId: z.union([z.literal('root'), idSchema]).optional() }).strict();
export type ListCategoriesQuery = z.infer<typeof listCategoriesQuery>;
