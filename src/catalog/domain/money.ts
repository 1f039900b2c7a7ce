/**
 * Money as exact decimal strings (docs/domain.md, Identifiers and money: NUMERIC in PostgreSQL, decimal strings in
 * JSON, never a float). Comparison works on scaled BigInts, so `'39.9'` and `'39.10'` compare by
 * value, not as text and not through binary floating point.
 */
import { AppError } from '../../platform/errors';

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;
/** The stored scale: at least two decimals (cents), at most four (NUMERIC(…, 4)-style precision). */
const MIN_DECIMALS = 2;
const MAX_DECIMALS = 4;

interface Parsed {
  negative: boolean;
  int: string;
  /** Fraction digits with trailing zeros removed. */
  frac: string;
}

function parse(value: string): Parsed | null {
  const m = DECIMAL.exec(value);
  if (!m) return null;
  return { negative: m[1] === '-', int: m[2] ?? '0', frac: (m[3] ?? '').replace(/0+$/, '') };
}

function parseOrThrow(value: string): Parsed {
  const p = typeof value === 'string' ? parse(value) : null;
  if (!p) throw AppError.badRequest('MONEY.INVALID', `not a decimal amount: ${JSON.stringify(value)}`);
  return p;
}

/**
 * A decimal string with at most four significant decimals (`39.9`, `39.90`, `-1.5`, `0.0001`);
 * trailing zeros beyond that are allowed (`39.900000`). Not numbers, not `1e3`, not `.5`.
 */
export function isMoney(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const p = parse(value);
  return p !== null && p.frac.length <= MAX_DECIMALS;
}

/**
 * The stored form: leading zeros dropped, at least two decimals, up to four kept
 * (`'39.9'` → `'39.90'`, `'5'` → `'5.00'`, `'1.23450'` → `'1.2345'`, `'-0'` → `'0.00'`).
 * More than four significant decimals cannot be stored exactly: rejected rather than rounded.
 */
export function normaliseMoney(value: string): string {
  const p = parseOrThrow(value);
  if (p.frac.length > MAX_DECIMALS) {
    throw AppError.badRequest('MONEY.TOO_PRECISE', `at most ${MAX_DECIMALS} decimals: ${value}`);
  }
  const int = p.int.replace(/^0+(?=\d)/, '');
  const frac = p.frac.padEnd(MIN_DECIMALS, '0');
  const zero = /^0+$/.test(int) && /^0*$/.test(p.frac);
  return `${p.negative && !zero ? '-' : ''}${int}.${frac}`;
}

function scaled(p: Parsed, scale: number): bigint {
  const magnitude = BigInt(p.int + p.frac.padEnd(scale, '0'));
  return p.negative ? -magnitude : magnitude;
}

/** -1, 0 or 1 by value; any number of decimals. */
export function compareMoney(a: string, b: string): -1 | 0 | 1 {
  const pa = parseOrThrow(a);
  const pb = parseOrThrow(b);
  const scale = Math.max(pa.frac.length, pb.frac.length);
  const x = scaled(pa, scale);
  const y = scaled(pb, scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The smallest amount, as written in the list (the first of equal ones); null for an empty list. */
export function minMoney(list: Iterable<string>): string | null {
  let min: string | null = null;
  for (const m of list) {
    if (min === null) parseOrThrow(m); // a one-element list is checked too
    if (min === null || compareMoney(m, min) < 0) min = m;
  }
  return min;
}
