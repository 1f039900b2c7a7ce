/**
 * The catalog's vocabulary as the admin API answers it: tags and tag groups, categories, countries,
 * home positions (docs/api.md, Administrator). `D` names the dimensions a tag group can carry: the
 * server's own dimension type, a plain string to the clients.
 */

export interface TagView {
  id: string;
  name: string;
  groupId: string;
  sortOrder: number;
  color: string | null;
  revision: string;
}

export interface TagGroupView<D extends string = string> {
  id: string;
  name: string;
  dimension: D | null;
  /** live tags in the group */
  tagCount: number;
  revision: string;
}

export interface CategoryView {
  id: string;
  parentId: string | null;
  name: string;
  icon: string | null;
  /** own icon, else the nearest ancestor's */
  effectiveIcon: string | null;
  sortOrder: number;
  /** 1 top, 2 middle, 3 style */
  level: number;
  /** mirrored from the supplier, or made by an administrator */
  source: 'supplier' | 'admin';
  revision: string;
}

export interface CountryView {
  id: string;
  name: string;
  code: string;
  sortOrder: number;
  /** mirrored from the supplier, or made by an administrator */
  source: 'supplier' | 'admin';
  revision: string;
}

export interface PositionView {
  id: string;
  name: string;
  sortOrder: number;
  goodIds: string[];
  revision: string;
}
