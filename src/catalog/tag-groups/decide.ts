/**
 * Tag groups, pure: the state folded from a group's stream and the decisions on it. What lives in
 * other streams (which group holds a dimension, how many tags a group has) comes in with the command.
 */
import { changedFields } from '../../platform/changes';
import { AppError } from '../../platform/errors';
import type { Dimension } from '../domain/tags';
import type { TagGroupEvent } from './events';
import { type TagGroupFields, type TagGroupState } from './state';

export type TagGroupCommand =
  | {
      type: 'CreateTagGroup';
      tagGroupId: string;
      fields: TagGroupFields;
      /** the group that holds `fields.dimension` now, if any */
      dimensionHolder: string | null;
    }
  | {
      type: 'UpdateTagGroup';
      tagGroupId: string;
      changes: Partial<TagGroupFields>;
      /** the group that holds `changes.dimension` now, if any */
      dimensionHolder: string | null;
    }
  | { type: 'DeleteTagGroup'; tagGroupId: string; /** live tags in the group */ tagCount: number };

export const tagGroupNotFound = (id: string) => AppError.notFound('TAG_GROUP.NOT_FOUND', `no tag group ${id}`);

function dimensionTaken(dimension: Dimension, holder: string): AppError {
  return AppError.conflict('TAG_GROUP.DIMENSION_TAKEN', `the dimension ${dimension} already belongs to tag group ${holder}`, { dimension, tagGroupId: holder });
}

export function decideTagGroup(state: TagGroupState, command: TagGroupCommand): TagGroupEvent[] {
  switch (command.type) {
    case 'CreateTagGroup': {
      if (state.status !== 'none') throw AppError.conflict('TAG_GROUP.ALREADY_EXISTS', `tag group ${command.tagGroupId} already exists`);
      const { dimension } = command.fields;
      if (dimension !== null && command.dimensionHolder !== null) throw dimensionTaken(dimension, command.dimensionHolder);
      return [{ type: 'TagGroupCreated', data: { tagGroupId: command.tagGroupId, ...command.fields } }];
    }
    case 'UpdateTagGroup': {
      if (state.status !== 'active') throw tagGroupNotFound(command.tagGroupId);
      const changes = changedFields<TagGroupFields>(state, command.changes);
      if (changes.dimension != null && command.dimensionHolder !== null && command.dimensionHolder !== state.id) {
        throw dimensionTaken(changes.dimension, command.dimensionHolder);
      }
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'TagGroupUpdated', data: { tagGroupId: state.id, ...changes } }];
    }
    case 'DeleteTagGroup': {
      if (state.status !== 'active') throw tagGroupNotFound(command.tagGroupId);
      if (command.tagCount > 0) {
        throw AppError.conflict('TAG_GROUP.HAS_TAGS', `tag group ${state.id} still has ${command.tagCount} tag(s); delete or move them first`, { tagCount: command.tagCount });
      }
      return [{ type: 'TagGroupDeleted', data: { tagGroupId: state.id } }];
    }
    default: {
      const _exhaustive: never = command;
      throw new Error('unknown command');
    }
  }
}
