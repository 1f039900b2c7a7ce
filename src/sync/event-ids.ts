/**
 * Event ids of synchronisation events are derived from what the event says and where it lands
 * (stream and expected revision), so an append retried after a lost answer carries the same ids and
 * the store treats it as already done. Including the revision keeps A→B→A changes distinct.
 */
import { contentHash, hashOfStableJson } from '../platform/content-hash';
import { v5 as uuidv5 } from 'uuid';

const NAMESPACE = '0b8a3f52-6a2e-4a5c-9d57-3c1f2e9b7a10';

/** `stable`: `stableJson(data)`, when the caller has it (the same id, without writing the data again). */
export function syncEventId(streamId: string, expectedRevision: bigint | 'no_stream', index: number, type: string, data: unknown, stable?: string): string {
  const hash = stable !== undefined ? hashOfStableJson(stable) : contentHash(data);
  return uuidv5(`${streamId}@${String(expectedRevision)}#${index}:${type}:${hash}`, NAMESPACE);
}
