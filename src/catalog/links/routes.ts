/** Administrators' read of one supplier link with its synced detail (API.md "Origin good"). */
import { Router, type RequestHandler } from 'express';
import type { Pool } from '../../platform/db';
import { AppError } from '../../platform/errors';
import { parseId } from '../../platform/ids';

export function originGoodRoutes(pool: Pool, guard: RequestHandler): Router {
  const r = Router();
  r.get('/origin-goods/:id', guard, async (req, res) => {
    const id = parseId(req.params.id);
    const q = await pool.query(
      `SELECT id, name, category_id, craft_label, price::text AS price, image, delisted, delisted_reason, detail, detail_synced_at
         FROM origin_goods WHERE id = $1`,
      [id],
    );
    const g = q.rows[0];
    if (!g) throw AppError.notFound('ORIGIN_GOOD.NOT_FOUND', `no origin good ${id}`);
    res.json({
      id: g.id,
      name: g.name,
      categoryId: g.category_id,
      craftLabel: g.craft_label,
      price: g.price,
      image: g.image,
      delisted: g.delisted,
      delistedReason: g.delisted_reason,
      // Organisation fills these (parsed columns, tags, family); synchronisation never does.
      parsed: null,
      tags: [],
      tagsManual: false,
      family: null,
      detail: g.detail,
      detailSyncedAt: g.detail_synced_at ? (g.detail_synced_at as Date).toISOString() : null,
    });
  });
  return r;
}
