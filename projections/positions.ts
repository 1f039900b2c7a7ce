/**
 * Positions (home-page slots) and the goods placed in them: `positions`, `position_goods`.
 * Replay-safe: a position row carries the revision of the last event of its stream; the goods list is
 * rewritten only when the position row itself took the event.
 */
import { defineProjection, type ProjectionDb } from '../src/platform/projections/definition';
import type { PositionEvent } from '../src/catalog/positions/events';
import { updateGuarded } from '../src/platform/projections/sql';

async function placeGoods(db: ProjectionDb, positionId: string, goodIds: readonly string[]): Promise<void> {
  await db.query(`DELETE FROM position_goods WHERE position_id = $1`, [positionId]);
  if (goodIds.length === 0) return;
  await db.query(
    `INSERT INTO position_goods (position_id, good_id, sort_order)
     SELECT $1, g.id, g.ord - 1 FROM unnest($2::bigint[]) WITH ORDINALITY AS g(id, ord)`,
    [positionId, goodIds],
  );
}

export const positionsProjection = defineProjection<PositionEvent>({
  name: 'positions',
  streamPrefixes: ['position-'],
  tables: ['positions', 'position_goods'],
  domains: ['meta', 'goods'],
  on: {
    async PositionCreated(db, e) {
      const d = e.data;
      const r = await db.query(
        `INSERT INTO positions (id, name, sort_order, revision, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)
           ON CONFLICT (id) DO NOTHING`,
        [d.positionId, d.name, d.sortOrder, e.revision.toString(), e.recordedAt],
      );
      if ((r.rowCount ?? 0) > 0) await placeGoods(db, d.positionId, d.goodIds);
    },
    async PositionUpdated(db, e) {
      const d = e.data;
      const took = await updateGuarded(db, 'positions', d.positionId, e.revision, { name: d.name, sort_order: d.sortOrder, updated_at: e.recordedAt });
      if (took && d.goodIds) await placeGoods(db, d.positionId, d.goodIds);
    },
    async PositionDeleted(db, e) {
      const id = e.data.positionId;
      if (await updateGuarded(db, 'positions', id, e.revision, { deleted: true, updated_at: e.recordedAt })) await placeGoods(db, id, []);
    },
  },
});
