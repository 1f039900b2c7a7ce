/**
 * A link's family (docs/domain.md, Families): membership lives on the link's stream, and the
 * families it leaves and joins record it on theirs, in one append. The family routes' member
 * commands and a tag takeover that attaches a link both move it through here.
 */
import { runAcrossStreams, type Actor, type AnyStreamWrite } from '../../platform/commands';
import { AppError } from '../../platform/errors';
import { decideFamily, requireFamilyTaking } from '../families/decide';
import { familyStreamId } from '../families/events';
import type { FamilyDeps, FamilyResult } from '../families/handle';
import { familyStream, type FamilyState } from '../families/state';
import { decideLink } from './decide';
import { linkStream } from './state';

/** Adds a link to the family; it leaves the family it was in. Answers the family as this command left it. */
export async function addFamilyMember(deps: FamilyDeps, id: string, linkId: string, actor: Actor): Promise<FamilyResult> {
  const moved = await setLinkFamily(deps, linkId, id, actor, 'AddFamilyMember', { readFamily: id });
  return moved.family!;
}

/** Takes a link out of the family it is in, decided on the link's stream. Answers the family as this command left it. */
export async function removeFamilyMember(deps: FamilyDeps, id: string, linkId: string, actor: Actor): Promise<FamilyResult> {
  const moved = await setLinkFamily(deps, linkId, null, actor, 'RemoveFamilyMember', { readFamily: id, onlyFrom: id });
  return moved.family!;
}

/**
 * Moves a link into `familyId` (or out of any family when null): the link's move and both families'
 * records in one append, each stream at the revision it was decided on, so a family deleted or
 * merged meanwhile refuses the link (decided on its stream, not the read model) and no family's
 * record misses a move. `onlyFrom`: the link must be in that family (a removal). `readFamily`: the
 * family whose state, as this command left it, the caller answers with (read even when nothing
 * needed appending). Answers the family the link was in.
 */
export async function setLinkFamily(
  deps: FamilyDeps,
  linkId: string,
  familyId: string | null,
  actor: Actor,
  why: string,
  opts: { onlyFrom?: string; readFamily?: string } = {},
): Promise<{ previous: string | null; family: FamilyResult | null }> {
  const r = await runAcrossStreams(deps, {
    name: why,
    actor,
    decide: async (load) => {
      const link = linkStream(linkId);
      const state = (await load(link)).state;
      const previous = state.familyId;
      if (opts.onlyFrom !== undefined && previous !== opts.onlyFrom) {
        throw AppError.notFound('FAMILY.MEMBER_NOT_FOUND', `link ${linkId} is not a member of family ${opts.onlyFrom}`);
      }
      const writes: AnyStreamWrite[] = [{ spec: link, events: decideLink(state, { type: 'MoveLinkToFamily', linkId, familyId }) }];
      const family = async (id: string) => {
        const spec = familyStream(id);
        return { spec, state: (await load(spec)).state };
      };
      if (familyId) {
        const to = await family(familyId);
        writes.push({ spec: to.spec, events: previous === familyId ? (requireFamilyTaking(to.state), []) : decideFamily(to.state, { type: 'RecordMemberAdded', linkId }) });
      }
      if (previous && previous !== familyId) {
        const from = await family(previous);
        writes.push({ spec: from.spec, events: decideFamily(from.state, { type: 'RecordMemberRemoved', linkId }) });
      }
      if (opts.readFamily && opts.readFamily !== familyId && opts.readFamily !== previous) await family(opts.readFamily);
      return { writes, result: previous };
    },
  });
  const read = opts.readFamily ? r.streams.get(familyStreamId(opts.readFamily)) : undefined;
  return {
    previous: r.result,
    family: read ? { state: read.state as FamilyState, revision: read.revision, position: r.position, events: [] } : null,
  };
}
