/** A price as the storefront shows it: `¥39.90`, or 暂无报价 when there is none. */
export const yuan = (p: string | null | undefined) => (p ? `¥${p}` : '暂无报价');
