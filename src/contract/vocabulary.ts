/**
 * The catalog's vocabulary as the admin API answers it: tags and tag groups, categories, countries,
 * home positions (docs/api.md, Administrator).
 */
import { z } from 'zod';

const revision = z.string().meta({ description: "the resource's revision, also its ETag" });

export const tagView = z.object({ id: z.string(), name: z.string(), groupId: z.string(), sortOrder: z.number().int(), color: z.string().nullable(), revision }).meta({ id: 'Tag' });
export type TagView = z.infer<typeof tagView>;

export const tagGroupView = z
  .object({
    id: z.string(),
    name: z.string(),
    dimension: z.string().nullable(),
    /** live tags in the group */
    tagCount: z.number().int(),
    revision,
  })
  .meta({ id: 'TagGroup' });
/** `D` names the dimensions a tag group can carry: the server's own dimension type, a plain string to the clients. */
export type TagGroupView<D extends string = string> = Omit<z.infer<typeof tagGroupView>, 'dimension'> & { dimension: D | null };

export const categoryView = z
  .object({
    id: z.string(),
    parentId: z.string().nullable(),
    name: z.string(),
    icon: z.string().nullable(),
    /** own icon, else the nearest ancestor's */
    effectiveIcon: z.string().nullable(),
    sortOrder: z.number().int(),
    /** 1 top, 2 middle, 3 style */
    level: z.number().int().min(1).max(3),
    /** mirrored from the supplier, or made by an administrator */
    source: z.enum(['supplier', 'admin']),
    revision,
  })
  .meta({ id: 'Category' });
export type CategoryView = z.infer<typeof categoryView>;

export const countryView = z
  .object({
    id: z.string(),
    name: z.string(),
    code: z.string(),
    sortOrder: z.number().int(),
    /** mirrored from the supplier, or made by an administrator */
    source: z.enum(['supplier', 'admin']),
    revision,
  })
  .meta({ id: 'Country' });
export type CountryView = z.infer<typeof countryView>;

export const positionView = z.object({ id: z.string(), name: z.string(), sortOrder: z.number().int(), goodIds: z.array(z.string()), revision }).meta({ id: 'Position' });
export type PositionView = z.infer<typeof positionView>;
