/** Tag commands: look up what the rules need, then load → decide → append (runCommand). */
import { COMMAND_ATTEMPTS, loadStream, readModelsCurrent, type Actor, type StreamSpec, commandRunner } from '../../platform/commands';
import { AppError } from '../../platform/errors';
import { EventStoreErrors } from '../../platform/event-store/port';
import { newId } from '../../platform/ids';
import { withLocks } from '../../platform/locks';
import { saveOrder, type AdminDeps, ownOf } from '../admin-commands';
import { foldWhitespace } from '../domain/names';
import { tagGroupLock, tagGroupStream } from '../tag-groups/handle';
import { decideTag, decideTagOrder, tagNotFound, type GroupFacts } from './decide';
import { evolveTag, initialTag, type TagState } from './state';
import { TAG_ORDER_STREAM, tagStreamId, type TagEvent } from './events';
import { nextTagSortOrder, otherNameKeys, tagOrder } from './queries';
import type { CreateTagInput, UpdateTagBody } from './requests';
import { whileUnreferenced } from '../references';
import { tagUsage } from '../usage';

/** What a write's answer shows from its own result (src/catalog/write-answer.ts, answerWrite). */
const OWN = ['groupId', 'name', 'color'];

export const tagStream = (id: string): StreamSpec<TagState, TagEvent> => ({ streamId: tagStreamId(id), initial: initialTag, evolve: evolveTag });

async function groupFacts(deps: AdminDeps, groupId: string, tagId: string): Promise<GroupFacts> {
  await readModelsCurrent(deps, ['tag-', 'tagGroup-']);
  const group = await loadStream(deps, tagGroupStream(groupId));
  if (group.state.status !== 'active') return { exists: false, otherNames: [] };
  return { exists: true, otherNames: await otherNameKeys(deps.pool, groupId, tagId) };
}

const run = commandRunner(tagStream, decideTag);

export async function createTag(deps: AdminDeps, body: CreateTagInput, actor: Actor) {
  const tagId = newId();
  // Under the group's lock: the name check and the group's existence hold until the tag is written.
  const result = await withLocks(deps.pool, [tagGroupLock(body.groupId)], async () => {
    const group = await groupFacts(deps, body.groupId, tagId);
    const sortOrder = body.sortOrder ?? (await nextTagSortOrder(deps.pool));
    const fields = { groupId: body.groupId, name: foldWhitespace(body.name), sortOrder, color: body.color ?? null };
    return run(deps, tagId, actor, { type: 'CreateTag', tagId, fields, group });
  });
  return { id: tagId, revision: result.revision, own: ownOf(result.state, OWN) };
}

export async function updateTag(deps: AdminDeps, tagId: string, changes: UpdateTagBody, actor: Actor, expectedRevision?: bigint) {
  // Without If-Match the last writer wins: a tag that moved between the lookups and the append is looked up again.
  for (let attempt = 1; ; attempt++) {
    try {
      return await updateTagOnce(deps, tagId, changes, actor, expectedRevision);
    } catch (e) {
      if (expectedRevision !== undefined || attempt >= COMMAND_ATTEMPTS || !(e instanceof AppError && e.code === EventStoreErrors.WRONG_REVISION)) throw e;
    }
  }
}

async function updateTagOnce(deps: AdminDeps, tagId: string, changes: UpdateTagBody, actor: Actor, expectedRevision?: bigint) {
  const seen = await loadStream(deps, tagStream(tagId));
  if (seen.state.status !== 'active') throw tagNotFound(tagId);
  const groupId = changes.groupId ?? seen.state.groupId;
  const placement = changes.name !== undefined || changes.groupId !== undefined;
  const update = async () => {
    const group = placement ? await groupFacts(deps, groupId, tagId) : { exists: true, otherNames: [] };
    // Expect the revision the lookups were made against: a tag changed meanwhile is a 409, not a guess.
    return run(deps, tagId, actor, { type: 'UpdateTag', tagId, changes, group }, { expectedRevision: expectedRevision ?? seen.revision });
  };
  const result = await (placement ? withLocks(deps.pool, [tagGroupLock(groupId)], update) : update());
  return { id: tagId, revision: result.revision, own: ownOf(result.state, OWN) };
}

/** Refused while goods or links use the tag (src/catalog/usage.ts), counted under its reference lock. */
export async function deleteTag(deps: AdminDeps, tagId: string, actor: Actor, expectedRevision?: bigint): Promise<void> {
  await whileUnreferenced(deps, 'tag', tagId, tagStreamId(tagId), ['tag-', 'tagGroup-', 'good-', 'link-'], async () => {
    const usage = await tagUsage(deps.pool, tagId);
    return run(deps, tagId, actor, { type: 'DeleteTag', tagId, usage }, { expectedRevision });
  });
}

/** Saves the full new order of all tags as one event on the order stream. */
export async function sortTags(deps: AdminDeps, ids: readonly string[], actor: Actor, expectedRevision?: bigint): Promise<void> {
  const current = await tagOrder(deps.pool);
  await saveOrder(deps, TAG_ORDER_STREAM, { name: 'SortTags', actor, expectedRevision, decide: () => decideTagOrder(current, ids) });
}
