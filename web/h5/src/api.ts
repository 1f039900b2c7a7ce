import { apiBase } from '../../shared/api-base';
import { createHttp } from '../../shared/http';

/** The V2 storefront's API base: announced by the serving process, else VITE_H5_API_BASE, else /v2-api (docs/api.md, Deployments and proxy prefixes). */
export const API_BASE: string = apiBase(import.meta.env.VITE_H5_API_BASE ?? '/v2-api');
export const api = createHttp(API_BASE);

export interface ListItem { goodId: string; name: string; image: string | null; price: string | null; countryId: string | null; categoryId: string | null; tags: { id: string; name: string }[]; tagFontColor: string | null }
export interface CategoryNode { id: string; name: string; icon: string | null; sortOrder: number; familyCount: number; lowestPrice: string | null; children: CategoryNode[] }
export interface Cell { size: string; color: string; printCount: string; craft: string; logistics: string; price: string }
export interface Detail {
  goodId: string; name: string; image: string | null; description: string | null; lowestPrice: string | null;
  tags: { id: string; name: string }[];
  priceMatrix: { sizes: string[]; colors: string[]; printCounts: string[]; crafts: string[]; logistics: string[]; cells: Cell[] };
  mediaByColor: Record<string, { id: string; url: string; sortOrder: number }[]>;
  sizeChart: unknown; packagingSpecs: unknown;
}
