/**
 * Event ids of synchronisation events are derived from what the event says and where it lands
 * (stream and expected revision), so an append retried after a lost answer carries the same ids and
 * the store treats it as already done. Including the revision keeps A→B→A changes distinct.
 */
import { createHash } from 'node:crypto';
import { v5 as uuidv5 } from 'uuid';

const NAMESPACE = '0b8a3f52-6a2e-4a5c-9d57-3c1f2e9b7a10';

/** JSON with object keys sorted, so equal content always hashes equal. */
export function stableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
}

export function contentHash(value: unknown): string {
  return createHash('sha256').update(stableJson(value)).digest('base64url').slice(0, 32);
}

export function syncEventId(streamId: string, expectedRevision: bigint | 'no_stream', index: number, type: string, data: unknown): string {
  return uuidv5(`${streamId}@${String(expectedRevision)}#${index}:${type}:${contentHash(data)}`, NAMESPACE);
}
