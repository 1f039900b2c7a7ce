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

export function contentHash(value: unknown): string {
  return createHash('sha256').update(stableJson(value)).digest('base64url').slice(0, 32);
}

