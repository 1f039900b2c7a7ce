/**
 * Tag groups and tags as administrators and the storefront read them: `tag_groups`, `tags`.
 * Replay-safe: every row carries the revision of the last event of its own stream, and an event at or
 * below it changes nothing; a reorder (stream `tag-order`) sets each listed tag's sort_order to its
 * index, which writes the same values however often it is applied.
 */
import { defineProjection } from '../src/platform/projections/definition';
import type { TagGroupEvent } from '../src/catalog/tag-groups/events';
import type { TagEvent } from '../src/catalog/tags/events';
import { applyOrder, updateGuarded } from '../src/platform/projections/sql';

export const tagsProjection = defineProjection<TagGroupEvent | TagEvent>({
  name: 'tags',
  // `tag-` also covers the order stream `tag-order`.
  streamPrefixes: ['tagGroup-', 'tag-'],
  tables: ['tag_groups', 'tags'],
  domains: ['meta', 'goods'],
  on: {
    async TagGroupCreated(db, e) {
      const d = e.data;
      await db.query(
        `INSERT INTO tag_groups (id, name, dimension, revision, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)
           ON CONFLICT (id) DO NOTHING`,
        [d.tagGroupId, d.name, d.dimension, e.revision.toString(), e.recordedAt],
      );
    },
    async TagGroupUpdated(db, e) {
      const d = e.data;
      await updateGuarded(db, 'tag_groups', d.tagGroupId, e.revision, { name: d.name, dimension: d.dimension, updated_at: e.recordedAt });
    },
    async TagGroupDeleted(db, e) {
      await updateGuarded(db, 'tag_groups', e.data.tagGroupId, e.revision, { deleted: true, updated_at: e.recordedAt });
    },
    async TagCreated(db, e) {
      const d = e.data;
      await db.query(
        `INSERT INTO tags (id, group_id, name, color, sort_order, revision, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
           ON CONFLICT (id) DO NOTHING`,
        [d.tagId, d.groupId, d.name, d.color, d.sortOrder, e.revision.toString(), e.recordedAt],
      );
    },
    async TagUpdated(db, e) {
      const d = e.data;
      await updateGuarded(db, 'tags', d.tagId, e.revision, {
        group_id: d.groupId,
        name: d.name,
        color: d.color,
        sort_order: d.sortOrder,
        updated_at: e.recordedAt,
      });
    },
    async TagDeleted(db, e) {
      await updateGuarded(db, 'tags', e.data.tagId, e.revision, { deleted: true, updated_at: e.recordedAt });
    },
    async TagsReordered(db, e) {
      await applyOrder(db, 'tags', e.data.tagIds);
    },
  },
});
