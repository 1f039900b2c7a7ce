/**
 * Hashes of content: equal content, equal hash, whatever the key order of its objects. Stored in the
 * read models (mirror and detail hashes), part of synchronisation's derived event ids, and used to
 * compare values by content (idempotent requests, organisation's plans, history differences).
 */
import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted (UTF-16 order), so equal content always hashes equal. Its exact text
 * is part of stored hashes and derived event ids, so it must never change (test/unit/sync/
 * event-ids.test.ts holds it to a reference). Synchronisation hashes every detail it sees three
 * times (its diff, the event's id, the projection's detail hash), so plain JSON data takes the fast
 * way: a copy with its keys in order, written by the engine's own JSON.stringify (1.5 times as fast
 * as writing it by hand). Whatever that copy would write differently (keys the engine orders as
 * integers, holes or undefined in arrays, functions, objects that are not plain) is written by hand
 * as it always was (test/unit/platform/content-hash.test.ts holds the two ways equal).
 */
export function stableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  try {
    return JSON.stringify(sortedCopy(value));
  } catch (e) {
    if (e === NOT_PLAIN) return stableJsonByHand(value);
    throw e;
  }
}

const NOT_PLAIN = Symbol('not plain JSON data');
/** Keys an object keeps in numeric order, before the others, whatever order they were added in. */
const INTEGER_LIKE = /^\d+$/;

function sortedCopy(value: unknown): unknown {
  if (value === null) return null;
  const type = typeof value;
  if (type !== 'object') {
    if (type === 'function' || type === 'symbol' || type === 'undefined') throw NOT_PLAIN;
    return value;
  }
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      if (value[i] === undefined) throw NOT_PLAIN; // a hole, or undefined: written otherwise
      out[i] = sortedCopy(value[i]);
    }
    return out;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) throw NOT_PLAIN;
  const record = value as Record<string, unknown>;
  const out = Object.create(null) as Record<string, unknown>; // so a key "__proto__" stays a key
  for (const k of Object.keys(record).sort()) {
    if (INTEGER_LIKE.test(k)) throw NOT_PLAIN;
    const v = record[k];
    if (v !== undefined) out[k] = sortedCopy(v);
  }
  return out;
}

/** The reference: what stableJson writes, one loop per level. */
export function stableJsonByHand(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      // as Array.prototype.join writes a missing element: nothing
      out += stableJsonByHand(value[i]) ?? '';
    }
    return out + ']';
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let out = '{';
  let first = true;
  for (const k of keys) {
    const v = record[k];
    if (v === undefined) continue;
    if (!first) out += ',';
    first = false;
    out += JSON.stringify(k) + ':' + stableJsonByHand(v);
  }
  return out + '}';
}

/**
 * Equal content, as comparing the two `stableJson` texts would say for JSON values (arrays in order,
 * objects whatever their key order, an undefined member no member), without writing either text:
 * organisation compares every link's parsed columns and tags on each run.
 */
export function sameContent(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameContent(a[i], b[i])) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let nx = 0;
  for (const k in x) {
    if (x[k] === undefined) continue;
    nx++;
    if (!sameContent(x[k], y[k])) return false;
  }
  let ny = 0;
  for (const k in y) if (y[k] !== undefined) ny++;
  return nx === ny;
}

export function contentHash(value: unknown): string {
  return hashOfStableJson(stableJson(value));
}

/** `contentHash` of the value whose `stableJson` text this is: for a caller that has the text already. */
export function hashOfStableJson(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 32);
}
