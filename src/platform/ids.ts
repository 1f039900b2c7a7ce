/**
 * 64-bit identifiers, serialised as decimal strings. Supplier ids (links, categories, countries) are
 * the supplier's; ids the service allocates come from a time-based range that starts far above any
 * supplier id, so the two never collide.
 */
import { z } from 'zod';
import { AppError } from './errors';

const MAX_INT64 = 9223372036854775807n;
const DECIMAL = /^(0|[1-9]\d{0,18})$/;

/**
 * A regular expression source matching exactly the decimals from 0 to `max` (no sign, no leading
 * zero), for the API description: JSON Schema has no bound on a number written as a string.
 */
export function decimalsUpTo(max: string): string {
  const n = max.length;
  const shorter = n > 1 ? [`[1-9]\\d{0,${n - 2}}`] : [];
  const sameLength = [...max].flatMap((digit, i) => {
    const lowest = i === 0 ? 1 : 0;
    const below = Number(digit) - 1;
    if (below < lowest) return [];
    const range = below === lowest ? `${lowest}` : `[${lowest}-${below}]`;
    const rest = n - i - 1;
    return [`${max.slice(0, i)}${range}${rest ? `\\d{${rest}}` : ''}`];
  });
  return `^(?:0|${[...shorter, ...sameLength, max].join('|')})$`;
}

export function isInt64(value: string): boolean {
  return DECIMAL.test(value) && BigInt(value) <= MAX_INT64;
}

/** Parses a path or query id; anything that is not a decimal 64-bit integer is a 400, never a 500. */
export function parseId(value: unknown, name = 'id'): string {
  if (typeof value !== 'string' || !isInt64(value)) {
    throw AppError.badRequest('INVALID_ID', `${name} must be a decimal 64-bit integer`);
  }
  return value;
}

export const idSchema = z.string().refine(isInt64, { message: 'must be a decimal 64-bit integer' });
// What the refinement checks, said to the API description (src/platform/http/openapi.ts); metadata only, the check stays the refinement.
export const INT64_PATTERN = decimalsUpTo(MAX_INT64.toString());
z.globalRegistry.add(idSchema, { description: 'a decimal 64-bit integer (0 to 9223372036854775807), as a string', pattern: INT64_PATTERN, example: '385153753948357094' });

/** INT64_PATTERN without its anchors, to be part of another pattern. */
const ID_SOURCE = INT64_PATTERN.slice(1, -1);

/**
 * What `idListParam(max)` accepts, said to the API description (metadata only: the check stays the
 * parse below): empty (or white space only), or 1 to `max` ids separated by commas, white space
 * around each (`String.prototype.trim` and `\s` take away the same characters).
 */
const idListPattern = (max: number) => `^\\s*(?:${ID_SOURCE}\\s*(?:,\\s*${ID_SOURCE}\\s*){0,${max - 1}})?$`;

/** A query parameter `1,2,3`: at most `max` ids; an empty value is an empty list. */
export const idListParam = (max: number) =>
  z
    .string()
    .meta({
      pattern: idListPattern(max),
      description: `at most ${max} ids (decimal 64-bit integers) separated by commas; empty: none`,
      example: '385153753948357094,385153753948357095',
    })
    .transform((v) => v.split(',').map((s) => s.trim()))
    .transform((ids) => (ids.length === 1 && ids[0] === '' ? [] : ids))
    .pipe(z.array(idSchema).max(max));

/**
 * Allocated ids: milliseconds since 2024-01-01 << 22 | 22 bits of sequence. The smallest value
 * (about 2^51 today) is far above the supplier's id range, and ids sort by creation time.
 */
const EPOCH = 1704067200000n;
const FLOOR = 1n << 50n;
let lastMs = 0n;
let seq = 0n;
export function newId(now: number = Date.now()): string {
  let ms = BigInt(now) - EPOCH;
  if (ms <= lastMs) {
    ms = lastMs;
    seq = (seq + 1n) & 0x3fffffn;
    if (seq === 0n) ms = lastMs + 1n; // sequence exhausted within one millisecond: borrow the next one
  } else {
    seq = BigInt(Math.floor(Math.random() * 1024)); // random start so two processes rarely meet
  }
  lastMs = ms;
  return (FLOOR + ((ms << 22n) | seq)).toString();
}
