/** One row per supplier link: the mirrored fields, the delisted flag and the synced detail. */
import type { LinkDetail, LinkMirrorData } from '../src/catalog/links/events';
import { defineProjection } from '../src/platform/projections/definition';
import { linkMirrorHash } from '../src/sync/diff';
import { contentHash } from '../src/sync/event-ids';

export const originGoodsProjection = defineProjection({
  name: 'origin_goods',
  handles: ['LinkMirrored', 'LinkDelisted', 'LinkRelisted', 'LinkDetailSynced'],
  streamPrefixes: ['link-'],
  tables: ['origin_goods'],
  domains: ['goods', 'matrix'],
  async apply(db, e) {
    const rev = e.revision.toString();
    const at = e.recordedAt;
    switch (e.type) {
      case 'LinkMirrored': {
        const d = e.data as LinkMirrorData;
        await db.query(
          `INSERT INTO origin_goods (id, name, category_id, craft_label, price, image, status, supplier_updated_at, mirror_hash, revision, first_seen_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)
           ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, category_id = EXCLUDED.category_id, craft_label = EXCLUDED.craft_label,
             price = EXCLUDED.price, image = EXCLUDED.image, status = EXCLUDED.status, supplier_updated_at = EXCLUDED.supplier_updated_at,
             mirror_hash = EXCLUDED.mirror_hash, revision = EXCLUDED.revision, updated_at = EXCLUDED.updated_at
           WHERE origin_goods.revision < EXCLUDED.revision`,
          [d.linkId, d.name, d.categoryId, d.craftLabel, d.price, d.image, d.status, d.supplierUpdatedAt, linkMirrorHash(d), rev, at],
        );
        return;
      }
      case 'LinkDelisted': {
        const d = e.data as { linkId: string; reason: string };
        await db.query(
          `UPDATE origin_goods SET delisted = true, delisted_reason = $2, revision = $3, updated_at = $4 WHERE id = $1 AND revision < $3`,
          [d.linkId, d.reason, rev, at],
        );
        return;
      }
      case 'LinkRelisted':
        await db.query(
          `UPDATE origin_goods SET delisted = false, delisted_reason = NULL, revision = $2, updated_at = $3 WHERE id = $1 AND revision < $2`,
          [(e.data as { linkId: string }).linkId, rev, at],
        );
        return;
      case 'LinkDetailSynced': {
        const d = e.data as { linkId: string; detail: LinkDetail };
        await db.query(
          `UPDATE origin_goods SET detail = $2, detail_hash = $3, detail_synced_at = $4, revision = $5, updated_at = $4 WHERE id = $1 AND revision < $5`,
          [d.linkId, d.detail, contentHash(d.detail), at, rev],
        );
        return;
      }
    }
  },
});
