/**
 * A price as an administrator types it, judged before it is sent, with the reason in words: the
 * service takes a positive amount with at most two decimals (docs/domain.md, Identifiers and money).
 * Null when it can be sent.
 */
export function priceProblem(raw: string): string | null {
  const v = raw.trim();
  if (v === '') return '请输入价格';
  if (!/^\d+(\.\d+)?$/.test(v)) return '请输入数字金额，如 59.90';
  const [whole = '', decimals = ''] = v.split('.');
  if (decimals.length > 2) return '最多两位小数，如 59.99';
  if (whole.replace(/^0+/, '').length > 12) return '金额太大';
  if (!/[1-9]/.test(v)) return '价格须大于 0';
  return null;
}

/** `59.9` → `59.90`: how a price is shown. */
export const showPrice = (p: string | null | undefined) => (p === null || p === undefined || p === '' ? '—' : `¥${Number(p).toFixed(2)}`);
