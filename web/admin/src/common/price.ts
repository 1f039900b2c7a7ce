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

/** How far a new price may move from a reference before it is asked about: ×3 up or ÷3 down. */
const FAR = 3;

/**
 * A new price far from every reference price (the cell's current price, its automatic price when
 * known): the reference it was compared with and the ratio, for the question asked before saving.
 * Null when it is within ×3/÷3 of one of them, so a typo like 99999999 for 59.90 is caught while a
 * manual price put back near its automatic one is not.
 */
export function farChange(next: string, refs: readonly string[]): { ref: string; ratio: number } | null {
  const n = Number(next);
  const known = refs.map(Number).filter((r) => r > 0);
  if (!(n > 0) || known.length === 0) return null;
  if (known.some((r) => n <= r * FAR && n >= r / FAR)) return null;
  const ref = known[0]!;
  return { ref: refs[refs.map(Number).indexOf(ref)]!, ratio: n / ref };
}

/** A ratio as said in the question: `16 694` → "16694", `0.0417` → "0.042". */
export const showRatio = (r: number) => (r >= 10 ? String(Math.round(r)) : String(Number(r.toPrecision(2))));
