/** The public shapes the storefront answers and the H5 client shows (docs/api.md, Public). */

export interface PublicTag {
  id: string;
  name: string;
}

/** One entry of the list and of home positions: a family, shown through its representative good. */
export interface PublicGoodItem {
  goodId: string;
  name: string;
  image: string | null;
  price: string | null;
  countryId: string | null;
  categoryId: string | null;
  tags: PublicTag[];
  tagFontColor: string | null;
}

export interface PublicCell {
  size: string;
  color: string;
  printCount: string;
  craft: string;
  logistics: string;
  price: string;
}

export interface PublicPriceMatrix {
  sizes: string[];
  colors: string[];
  printCounts: string[];
  crafts: string[];
  logistics: string[];
  cells: PublicCell[];
}

export interface PublicCategoryNode {
  id: string;
  name: string;
  icon: string | null;
  sortOrder: number;
  familyCount: number;
  lowestPrice: string | null;
  children: PublicCategoryNode[];
}

export interface MediaImage {
  id: string;
  url: string;
  sortOrder: number;
}

export interface PublicGoodDetail {
  goodId: string;
  name: string;
  image: string | null;
  description: string | null;
  countryId: string | null;
  categoryId: string | null;
  tags: PublicTag[];
  lowestPrice: string | null;
  variants: { size: string; color: string; price: string; sku: string }[];
  sizeChart: unknown[];
  packagingSpecs: unknown[];
  options: { name: string; values: string[] }[];
  priceMatrix: PublicPriceMatrix;
  mediaByColor: Record<string, MediaImage[]>;
}
