/**
 * Tags, pure: a tag's state folded from its stream, the decisions on it, and the decision on the
 * full order of all tags. Looked-up facts (does the group exist, which names does it hold, which
 * tags exist in which order) come in with the command.
 */
import { changedFields } from '../../platform/changes';
import { AppError, unknownReference } from '../../platform/errors';
import { refuseWhileUsed, type Usage } from '../usage';
import { decideReorder } from '../../platform/permutation';
import { nameKey } from '../domain/names';
import type { TagEvent } from './events';
import { type TagFields, type TagState } from './state';

/** What the target group looks like: whether it exists and the name keys of its other live tags. */
export interface GroupFacts {
  exists: boolean;
  otherNames: readonly string[];
}

export type TagCommand =
  | { type: 'CreateTag'; tagId: string; fields: TagFields; group: GroupFacts }
  | { type: 'UpdateTag'; tagId: string; changes: Partial<TagFields>; /** the group the tag ends up in */ group: GroupFacts }
  /** `usage`: what uses the tag, counted under its reference lock (src/catalog/usage.ts) */
  | { type: 'DeleteTag'; tagId: string; usage: Usage };

export const tagNotFound = (id: string) => AppError.notFound('TAG.NOT_FOUND', `no tag ${id}`);

function checkPlacement(name: string, groupId: string, group: GroupFacts): void {
  if (!group.exists) throw unknownReference('groupId', [groupId], 'tag group');
  if (group.otherNames.includes(nameKey(name))) {
    throw AppError.conflict('TAG.NAME_TAKEN', `tag group ${groupId} already has a tag named ${name}`, { groupId, name });
  }
}

export function decideTag(state: TagState, command: TagCommand): TagEvent[] {
  switch (command.type) {
    case 'CreateTag': {
      if (state.status !== 'none') throw AppError.conflict('TAG.ALREADY_EXISTS', `tag ${command.tagId} already exists`);
      checkPlacement(command.fields.name, command.fields.groupId, command.group);
      return [{ type: 'TagCreated', data: { tagId: command.tagId, ...command.fields } }];
    }
    case 'UpdateTag': {
      if (state.status !== 'active') throw tagNotFound(command.tagId);
      const { sortOrder: _fromStream, ...current } = state;
      // The tag's stream does not see reorders, so a requested sortOrder is always written, never compared.
      const changes: Partial<TagFields> = changedFields(current, command.changes);
      if (command.changes.sortOrder !== undefined) changes.sortOrder = command.changes.sortOrder;
      if (changes.name !== undefined || changes.groupId !== undefined) {
        checkPlacement(changes.name ?? state.name, changes.groupId ?? state.groupId, command.group);
      }
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'TagUpdated', data: { tagId: state.id, ...changes } }];
    }
    case 'DeleteTag':
      if (state.status !== 'active') throw tagNotFound(command.tagId);
      refuseWhileUsed('TAG.IN_USE', `tag ${state.id}`, command.usage);
      return [{ type: 'TagDeleted', data: { tagId: state.id } }];
    default: {
      const _exhaustive: never = command;
      throw new Error('unknown command');
    }
  }
}

/**
 * The full new order of all tags. `current` is every live tag id in its present order; the new
 * order must name each exactly once. The order it already has appends nothing.
 */
export const decideTagOrder = (current: readonly string[], requested: readonly string[]): TagEvent[] =>
  decideReorder(current, requested, { code: 'TAGS.NOT_A_PERMUTATION', message: 'ids must list every tag exactly once' }, (tagIds) => ({
    type: 'TagsReordered',
    data: { tagIds },
  }));
