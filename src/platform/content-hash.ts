/**
 * Hashes of content: equal content, equal hash, whatever the key order of its objects. Stored in the
 * read models (mirror and detail hashes), part of synchronisation's derived event ids, and used to
 * compare values by content (idempotent requests, organisation's plans, history differences).
 */
import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted (UTF-16 order), so equal content always hashes equal. Its exact text
 * is part of stored hashes and derived event ids, so it must never change (test/unit/sync/
 * event-ids.test.ts holds it to a reference); it is written as one loop per level because
 * synchronisation hashes every detail it sees.
 */
export function stableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      // as Array.prototype.join writes a missing element: nothing
      out += stableJson(value[i]) ?? '';
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
    out += JSON.stringify(k) + ':' + stableJson(v);
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
  return createHash('sha256').update(stableJson(value)).digest('base64url').slice(0, 32);
}

