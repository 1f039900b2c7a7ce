/**
 * What a link's mirror hash covers: the link as the supplier lists it, which synchronisation compares
 * to decide whether the listing changed and the catalog projection stores (origin_goods.mirror_hash).
 */
import { contentHash } from '../../platform/content-hash';
import type { LinkMirrorData } from './events';

/** The supplier's `updatedAt` alone is no change: only what the service shows is compared. */
export function linkMirrorHash(data: LinkMirrorData): string {
  const { supplierUpdatedAt: _ignored, ...shown } = data;
  return contentHash(shown);
}
