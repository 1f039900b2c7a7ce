/**
 * Event ids of synchronisation events are derived from what the event says and where it lands
 * (stream and expected revision), so an append retried after a lost answer carries the same ids and
 * the store treats it as already done. Including the revision keeps A→B→A changes distinct.
 */
import { createHash } from 'node:crypto';
import { v5 as uuidv5 } from 'uuid';

const NAMESPACE = '0b8a3f52-6a2e-4a5c-9d57-3c1f2e9b7a10';

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

export function syncEventId(streamId: string, expectedRevision: bigint | 'no_stream', index: number, type: string, data: unknown): string {
  return uuidv5(`${streamId}@${String(expectedRevision)}#${index}:${type}:${contentHash(data)}`, NAMESPACE);
}
