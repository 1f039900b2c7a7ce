/** Product families as the admin API answers them (docs/api.md). */
import type { PublicCell } from './storefront';

/** A cell of a family's price matrix, or an override of one: its five dimension values and its price. */
export type Cell = PublicCell;

export interface Family {
  id: string; name: string; revision?: string; autoManaged: boolean; locked: boolean; memberCount: number; goodCount: number; lowestPrice: string | null;
  members?: { id: string; name: string; delisted: boolean; organised: boolean; tagsManual: boolean; missing: string[] | null }[];
  customMembers?: { goodId: string; tags: Record<string, string[] | string>; price: string }[];
  overrides?: Cell[];
  invalidOverrides?: Cell[];
  priceMatrix?: { cells: Cell[]; sizes?: string[]; colors?: string[]; printCounts?: string[]; crafts?: string[]; logistics?: string[] };
}
