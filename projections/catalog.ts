/**
 * The organised catalog: links (origin_goods), families and goods in one projection, so a family's
 * aggregates are always computed from one consistent snapshot. Handlers record which families an
 * event touched (catalog_dirty_families); after the batch each touched family is recomputed once
 * (variants, size chart, packaging, price matrix, lowest price, media by colour, representative).
 */
import type { DimensionValues, LinkDetail, LinkMirrorData } from '../src/catalog/links/events';
import type { OverrideKey } from '../src/catalog/families/events';
import { recomputeFamilies } from '../src/catalog/families/recompute';
import { defineProjection, type ProjectionDb } from '../src/platform/projections/definition';
import { linkMirrorHash } from '../src/sync/diff';
import { contentHash } from '../src/sync/event-ids';

const dirty = (db: ProjectionDb, familyId: string | null | undefined) =>
  familyId ? db.query(`INSERT INTO catalog_dirty_families (family_id) VALUES ($1) ON CONFLICT DO NOTHING`, [familyId]) : Promise.resolve();

/** The link's family (after the update), marked dirty: its inputs changed. */
async function touchLinkFamily(db: ProjectionDb, sql: string, params: unknown[]): Promise<void> {
  const r = await db.query<{ family_id: string | null }>(sql + ' RETURNING family_id', params);
  await dirty(db, r.rows[0]?.family_id);
}

const missingOf = (tags: DimensionValues) => (['craft', 'logistics'] as const).filter((d) => tags[d].length === 0);

export const catalogProjection = defineProjection({
  name: 'catalog',
  handles: [
    'LinkMirrored',
    'LinkDelisted',
    'LinkRelisted',
    'LinkDetailSynced',
    'LinkParsed',
    'LinkTagsDerived',
    'LinkTagsTakenOver',
    'LinkTagsRestored',
    'LinkJoinedFamily',
    'LinkLeftFamily',
    'LinkGoodAssigned',
    'LinkGoodUnassigned',
    'FamilyCreated',
    'FamilyRenamed',
    'FamilyLocked',
    'FamilyUnlocked',
    'FamilyCustomMemberAdded',
    'FamilyCustomMemberRemoved',
    'FamilyPriceOverrideSet',
    'FamilyPriceOverrideRemoved',
    'FamilyMergedInto',
    'FamilyDeleted',
    'GoodCreated',
    'GoodUpdated',
    'GoodOriginsSet',
    'GoodDeleted',
  ],
  streamPrefixes: ['link-', 'family-', 'good-'],
  tables: ['origin_goods', 'families', 'family_custom_members', 'family_overrides', 'goods', 'good_origin_goods', 'catalog_dirty_families'],
  domains: ['goods', 'matrix', 'meta'],
  async apply(db, e) {
    const rev = e.revision.toString();
    const at = e.recordedAt;
    const d = e.data as Record<string, unknown> & { linkId: string; familyId: string; goodId: string };
    // Each write is guarded by the stream revision, so a replayed event changes nothing.
    switch (e.type) {
      case 'LinkMirrored': {
        const m = e.data as LinkMirrorData;
        await touchLinkFamily(
          db,
          `INSERT INTO origin_goods (id, name, category_id, craft_label, price, image, status, supplier_updated_at, mirror_hash, revision, first_seen_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)
           ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, category_id = EXCLUDED.category_id, craft_label = EXCLUDED.craft_label,
             price = EXCLUDED.price, image = EXCLUDED.image, status = EXCLUDED.status, supplier_updated_at = EXCLUDED.supplier_updated_at,
             mirror_hash = EXCLUDED.mirror_hash, revision = EXCLUDED.revision, updated_at = EXCLUDED.updated_at
           WHERE origin_goods.revision < EXCLUDED.revision`,
          [m.linkId, m.name, m.categoryId, m.craftLabel, m.price, m.image, m.status, m.supplierUpdatedAt, linkMirrorHash(m), rev, at],
        );
        return;
      }
      case 'LinkDelisted':
        await touchLinkFamily(
          db,
          `UPDATE origin_goods SET delisted = true, delisted_reason = $2, revision = $3, updated_at = $4 WHERE id = $1 AND revision < $3`,
          [d.linkId, d.reason, rev, at],
        );
        return;
      case 'LinkRelisted':
        await touchLinkFamily(
          db,
          `UPDATE origin_goods SET delisted = false, delisted_reason = NULL, revision = $2, updated_at = $3 WHERE id = $1 AND revision < $2`,
          [d.linkId, rev, at],
        );
        return;
      case 'LinkDetailSynced': {
        const detail = d.detail as LinkDetail;
        await touchLinkFamily(
          db,
          `UPDATE origin_goods SET detail = $2, detail_hash = $3, detail_synced_at = $4, revision = $5, updated_at = $4 WHERE id = $1 AND revision < $5`,
          [d.linkId, detail, contentHash(detail), at, rev],
        );
        return;
      }
      case 'LinkParsed':
        await touchLinkFamily(
          db,
          `UPDATE origin_goods SET parsed_country = $2, parsed_logistics = $3, parsed_product_name = $4, parsed_sku = $5, family_name_key = $6,
                  revision = $7, updated_at = $8
            WHERE id = $1 AND revision < $7`,
          [d.linkId, d.country, d.logistics, d.productName, d.sku, d.familyNameKey, rev, at],
        );
        return;
      case 'LinkTagsDerived':
      case 'LinkTagsRestored':
      case 'LinkTagsTakenOver': {
        const tags = d.tags as DimensionValues;
        await touchLinkFamily(
          db,
          `UPDATE origin_goods SET tags = $2, tags_manual = $3, tags_missing = $4, revision = $5, updated_at = $6 WHERE id = $1 AND revision < $5`,
          [d.linkId, tags, e.type === 'LinkTagsTakenOver', JSON.stringify(missingOf(tags)), rev, at],
        );
        return;
      }
      case 'LinkJoinedFamily':
      case 'LinkLeftFamily': {
        const joined = e.type === 'LinkJoinedFamily';
        const r = await db.query(`UPDATE origin_goods SET family_id = $2, revision = $3, updated_at = $4 WHERE id = $1 AND revision < $3`, [
          d.linkId,
          joined ? d.familyId : null,
          rev,
          at,
        ]);
        if (r.rowCount) await dirty(db, d.familyId);
        return;
      }
      case 'LinkGoodAssigned':
      case 'LinkGoodUnassigned':
        // The goods table holds the relation; the link's revision must still follow its stream,
        // since synchronisation appends expecting it.
        await db.query(`UPDATE origin_goods SET revision = $2 WHERE id = $1 AND revision < $2`, [d.linkId, rev]);
        return;
      case 'FamilyCreated':
        await db.query(
          `INSERT INTO families (id, name, family_name_key, auto_managed, locked, created_at, updated_at, revision)
           VALUES ($1, $2, $3, $4, $5, $6, $6, $7) ON CONFLICT (id) DO NOTHING`,
          [d.familyId, d.name, d.familyNameKey, d.autoManaged, d.locked, at, rev],
        );
        await dirty(db, d.familyId);
        return;
      case 'FamilyRenamed':
      case 'FamilyLocked':
      case 'FamilyUnlocked': {
        const set = e.type === 'FamilyRenamed' ? `name = $4` : `locked = ${e.type === 'FamilyLocked'}`;
        await db.query(`UPDATE families SET ${set}, revision = $2, updated_at = $3 WHERE id = $1 AND revision < $2`, [
          d.familyId,
          rev,
          at,
          ...(e.type === 'FamilyRenamed' ? [d.name] : []),
        ]);
        return;
      }
      case 'FamilyCustomMemberAdded':
        await db.query(
          `INSERT INTO family_custom_members (family_id, good_id, tags, price) VALUES ($1, $2, $3, $4)
           ON CONFLICT (family_id, good_id) DO UPDATE SET tags = EXCLUDED.tags, price = EXCLUDED.price`,
          [d.familyId, d.goodId, d.tags, d.price],
        );
        await db.query(`UPDATE goods SET family_id = $1 WHERE id = $2 AND origin_good_id IS NULL`, [d.familyId, d.goodId]);
        await dirty(db, d.familyId);
        return;
      case 'FamilyCustomMemberRemoved':
        await db.query(`DELETE FROM family_custom_members WHERE family_id = $1 AND good_id = $2`, [d.familyId, d.goodId]);
        await db.query(`UPDATE goods SET family_id = NULL WHERE id = $2 AND family_id = $1 AND origin_good_id IS NULL`, [d.familyId, d.goodId]);
        await dirty(db, d.familyId);
        return;
      case 'FamilyPriceOverrideSet':
      case 'FamilyPriceOverrideRemoved': {
        const k = e.data as OverrideKey & { familyId: string; price?: string };
        const key = [k.familyId, k.size, k.color, k.printCount, k.craft, k.logistics];
        if (e.type === 'FamilyPriceOverrideSet') {
          await db.query(
            `INSERT INTO family_overrides (family_id, size, color, print_count, craft, logistics, price) VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (family_id, size, color, print_count, craft, logistics) DO UPDATE SET price = EXCLUDED.price`,
            [...key, k.price],
          );
        } else {
          await db.query(
            `DELETE FROM family_overrides WHERE family_id = $1 AND size = $2 AND color = $3 AND print_count = $4 AND craft = $5 AND logistics = $6`,
            key,
          );
        }
        await dirty(db, k.familyId);
        return;
      }
      case 'FamilyMergedInto':
      case 'FamilyDeleted':
        // Its links moved (or left) through their own events; custom members go with the family.
        await db.query(`UPDATE goods SET family_id = NULL WHERE family_id = $1 AND origin_good_id IS NULL`, [d.familyId]);
        await db.query(`DELETE FROM family_custom_members WHERE family_id = $1`, [d.familyId]);
        await db.query(`DELETE FROM family_overrides WHERE family_id = $1`, [d.familyId]);
        await db.query(`DELETE FROM families WHERE id = $1`, [d.familyId]);
        await db.query(`DELETE FROM catalog_dirty_families WHERE family_id = $1`, [d.familyId]);
        if (e.type === 'FamilyMergedInto') await dirty(db, d.intoFamilyId as string);
        return;
      case 'GoodCreated': {
        // Attribution: a good's family is its primary link's family (a custom good gets one when added as a custom member).
        const r = await db.query<{ family_id: string | null }>(
          `INSERT INTO goods (id, name, description, image, good_priority, tag_ids, tag_font_color, category_id, country_id, origin_good_id, family_id, created_at, updated_at, revision)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, (SELECT family_id FROM origin_goods WHERE id = $10), $11, $11, $12)
           ON CONFLICT (id) DO NOTHING RETURNING family_id`,
          [d.goodId, d.name, d.description, d.image, d.goodPriority, d.tagIds, d.tagFontColor, d.categoryId, d.countryId, d.originGoodId, at, rev],
        );
        await dirty(db, r.rows[0]?.family_id);
        return;
      }
      case 'GoodUpdated': {
        const cols: [string, unknown][] = (
          [
            ['name', d.name],
            ['description', d.description],
            ['image', d.image],
            ['good_priority', d.goodPriority],
            ['tag_ids', d.tagIds],
            ['tag_font_color', d.tagFontColor],
            ['category_id', d.categoryId],
            ['country_id', d.countryId],
          ] as [string, unknown][]
        ).filter(([, v]) => v !== undefined);
        await touchLinkFamily(
          db,
          `UPDATE goods SET ${cols.map(([c], i) => `${c} = $${i + 4}`).join(', ')}${cols.length ? ',' : ''} revision = $2, updated_at = $3
            WHERE id = $1 AND revision < $2`,
          [d.goodId, rev, at, ...cols.map(([, v]) => v)],
        );
        return;
      }
      case 'GoodOriginsSet': {
        const r = await db.query<{ family_id: string | null }>(`UPDATE goods SET revision = $2, updated_at = $3 WHERE id = $1 AND revision < $2 RETURNING family_id`, [
          d.goodId,
          rev,
          at,
        ]);
        if (!r.rowCount) return;
        await db.query(`DELETE FROM good_origin_goods WHERE good_id = $1`, [d.goodId]);
        await db.query(
          `INSERT INTO good_origin_goods (good_id, origin_good_id, position) SELECT $1, id, ord FROM unnest($2::bigint[]) WITH ORDINALITY AS u(id, ord)`,
          [d.goodId, d.secondaryOriginGoodIds],
        );
        await dirty(db, r.rows[0]?.family_id);
        return;
      }
      case 'GoodDeleted': {
        const r = await db.query<{ family_id: string | null }>(`DELETE FROM goods WHERE id = $1 RETURNING family_id`, [d.goodId]);
        await db.query(`DELETE FROM good_origin_goods WHERE good_id = $1`, [d.goodId]);
        await dirty(db, r.rows[0]?.family_id);
        return;
      }
    }
  },
  async afterBatch(db) {
    // A link that joined, moved or left takes its good along; both families are touched.
    const moved = await db.query<{ old_family: string | null; new_family: string | null }>(
      `WITH changed AS (
         SELECT g.id, g.family_id AS old_family, og.family_id AS new_family
           FROM goods g JOIN origin_goods og ON og.id = g.origin_good_id
          WHERE g.family_id IS DISTINCT FROM og.family_id
       )
       UPDATE goods g SET family_id = c.new_family FROM changed c WHERE g.id = c.id RETURNING c.old_family, c.new_family`,
    );
    for (const m of moved.rows) {
      await dirty(db, m.old_family);
      await dirty(db, m.new_family);
    }
    const touched = await db.query<{ family_id: string }>(`DELETE FROM catalog_dirty_families RETURNING family_id`);
    await recomputeFamilies(
      db,
      touched.rows.map((r) => r.family_id),
    );
  },
});
