/** How the storefront words prices and counts, so no page says 暂无报价起 or 0 款 · 暂无报价起. */

/** A price as shown: `¥39.90`. */
export const yuan = (p: string) => `¥${p}`;

/** What a family or category costs from: `¥24.90 起`, or null when nothing is priced yet. */
export const priceFrom = (lowest: string | null | undefined): string | null => (lowest ? `${yuan(lowest)} 起` : null);

/** A category's line: `21 款 · ¥24.90 起`, `3 款` when none is priced, 暂无商品 when it is empty. */
export function categorySummary(familyCount: number, lowest: string | null): string {
  if (familyCount === 0) return '暂无商品';
  const from = priceFrom(lowest);
  return from ? `${familyCount} 款 · ${from}` : `${familyCount} 款`;
}
