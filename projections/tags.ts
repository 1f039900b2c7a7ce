/**
 * Tag groups and tags as administrators and the storefront read them: `tag_groups`, `tags`.
 * Replay-safe: every row carries the revision of the last event of its own stream, and an event at or
 * below it changes nothing; a reorder (stream `tag-order`) sets each listed tag's sort_order to its
 * index, which writes the same values however often it is applied.
 */
import type { DataOf } from '../src/platform/events/catalogue';
import { defineProjection } from '../src/platform/projections/definition';
import type { TagGroupCreated, TagGroupUpdated } from '../src/catalog/tag-groups/events';
import type { TagCreated, TagsReordered, TagUpdated } from '../src/catalog/tags/events';
import { applyOrder, updateGuarded } from './sql';

export const tagsProjection = defineProjection({
  name: 'tags',
  handles: ['TagGroupCreated', 'TagGroupUpdated', 'TagGroupDeleted', 'TagCreated', 'TagUpdated', 'TagDeleted', 'TagsReordered'],
  // `tag-` also covers the order stream `tag-order`.
  streamPrefixes: ['tagGroup-', 'tag-'],
  tables: ['tag_groups', 'tags'],
  domains: ['meta', 'goods'],
  async apply(db, e) {
    const rev = e.revision.toString();
    const at = e.recordedAt;
    switch (e.type) {
      case 'TagGroupCreated': {
        const d = e.data as DataOf<typeof TagGroupCreated>;
        await db.query(
          `INSERT INTO tag_groups (id, name, dimension, revision, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)
           ON CONFLICT (id) DO NOTHING`,
          [d.tagGroupId, d.name, d.dimension, rev, at],
        );
        return;
      }
      case 'TagGroupUpdated': {
        const d = e.data as DataOf<typeof TagGroupUpdated>;
        await updateGuarded(db, 'tag_groups', d.tagGroupId, e.revision, { name: d.name, dimension: d.dimension, updated_at: at });
        return;
      }
      case 'TagGroupDeleted':
        await updateGuarded(db, 'tag_groups', (e.data as { tagGroupId: string }).tagGroupId, e.revision, { deleted: true, updated_at: at });
        return;
      case 'TagCreated': {
        const d = e.data as DataOf<typeof TagCreated>;
        await db.query(
          `INSERT INTO tags (id, group_id, name, color, sort_order, revision, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
           ON CONFLICT (id) DO NOTHING`,
          [d.tagId, d.groupId, d.name, d.color, d.sortOrder, rev, at],
        );
        return;
      }
      case 'TagUpdated': {
        const d = e.data as DataOf<typeof TagUpdated>;
        await updateGuarded(db, 'tags', d.tagId, e.revision, {
          group_id: d.groupId,
          name: d.name,
          color: d.color,
          sort_order: d.sortOrder,
          updated_at: at,
        });
        return;
      }
      case 'TagDeleted':
        await updateGuarded(db, 'tags', (e.data as { tagId: string }).tagId, e.revision, { deleted: true, updated_at: at });
        return;
      case 'TagsReordered':
        await applyOrder(db, 'tags', (e.data as DataOf<typeof TagsReordered>).tagIds);
        return;
    }
  },
});
