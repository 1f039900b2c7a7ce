/** Tag group commands: look up what the rules need, then load → decide → append (runCommand). */
import { readModelsCurrent, type Actor, type StreamSpec, commandRunner } from '../../platform/commands';
import { newId } from '../../platform/ids';
import { withLocks } from '../../platform/locks';
import { ownOf, type AdminDeps } from '../admin-commands';
import { decideTagGroup } from './decide';
import { evolveTagGroup, initialTagGroup, type TagGroupState } from './state';
import { tagGroupStreamId, type TagGroupEvent } from './events';
import { dimensionHolder, liveTagCount } from './queries';
import type { CreateTagGroupBody, UpdateTagGroupBody } from './requests';

/** What a write's answer shows from its own result (src/catalog/write-answer.ts, answerWrite). */
const OWN = ['name', 'dimension'];

export const tagGroupStream = (id: string): StreamSpec<TagGroupState, TagGroupEvent> => ({ streamId: tagGroupStreamId(id), initial: initialTagGroup, evolve: evolveTagGroup });

/** Serialises every change of a group's dimension: "at most one group per dimension" spans streams. */
export const DIMENSIONS_LOCK = 'tag-group-dimensions';
/** Serialises what depends on a group's tags: their names, and whether the group may be deleted. */
export const tagGroupLock = (id: string) => `tag-group:${id}`;

const run = commandRunner(tagGroupStream, decideTagGroup);

export async function createTagGroup(deps: AdminDeps, body: CreateTagGroupBody, actor: Actor) {
  const tagGroupId = newId();
  const create = async () => {
    if (body.dimension) await readModelsCurrent(deps, ['tagGroup-']);
    const holder = body.dimension ? await dimensionHolder(deps.pool, body.dimension) : null;
    return run(deps, tagGroupId, actor, { type: 'CreateTagGroup', tagGroupId, fields: body, dimensionHolder: holder });
  };
  const result = await (body.dimension ? withLocks(deps.pool, [DIMENSIONS_LOCK], create) : create());
  return { id: tagGroupId, revision: result.revision, own: ownOf(result.state, OWN) };
}

export async function updateTagGroup(deps: AdminDeps, tagGroupId: string, changes: UpdateTagGroupBody, actor: Actor, expectedRevision?: bigint) {
  const update = async () => {
    if (changes.dimension) await readModelsCurrent(deps, ['tagGroup-']);
    const holder = changes.dimension ? await dimensionHolder(deps.pool, changes.dimension) : null;
    return run(deps, tagGroupId, actor, { type: 'UpdateTagGroup', tagGroupId, changes, dimensionHolder: holder }, { expectedRevision });
  };
  const result = await (changes.dimension !== undefined ? withLocks(deps.pool, [DIMENSIONS_LOCK], update) : update());
  return { id: tagGroupId, revision: result.revision, own: ownOf(result.state, OWN) };
}

export async function deleteTagGroup(deps: AdminDeps, tagGroupId: string, actor: Actor, expectedRevision?: bigint): Promise<void> {
  await withLocks(deps.pool, [tagGroupLock(tagGroupId)], async () => {
    await readModelsCurrent(deps, ['tag-', 'tagGroup-']);
    const tagCount = await liveTagCount(deps.pool, tagGroupId);
    await run(deps, tagGroupId, actor, { type: 'DeleteTagGroup', tagGroupId, tagCount }, { expectedRevision });
  });
}
