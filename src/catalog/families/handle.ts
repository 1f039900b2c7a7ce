/**
 * Family commands: look up what the rules need, then load → decide → append; and the move of a link
 * between families, which spans the link's stream and both families'.
 */
import { runAcrossStreams, runCommand, type Actor, type CommandResult, type StreamWrite } from '../../platform/commands';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import type { AdminDeps } from '../commands';
import { validateOverrideKey } from '../domain/matrix';
import { normaliseMoney } from '../domain/money';
import { decideLink } from '../links/decide';
import { linkStream } from '../links/state';
import { decideFamily, requireCustomGood, requireFamilyTaking, type FamilyCommand } from './decide';
import { familyStreamId } from './events';
import { familyContents, goodOrigin, readFamily } from './queries';
import type { AddCustomMemberBody, CreateFamilyBody, RemoveOverrideBody, SetOverrideBody, UpdateFamilyBody } from './requests';
import { familyStream, type FamilyState } from './state';

/** What the family commands need: the composition root's services satisfy it. */
export type FamilyDeps = AdminDeps;

export type FamilyResult = CommandResult<FamilyState>;

/** One command on a family's stream, recorded under its own name unless another is given; If-Match, when sent, must name the family's current revision. */
function run(deps: FamilyDeps, familyId: string, actor: Actor, command: FamilyCommand, opts: { name?: string; expectedRevision?: bigint | undefined; noWait?: boolean } = {}) {
  return runCommand(deps, familyStream(familyId), {
    name: opts.name ?? command.type,
    actor,
    expectedRevision: opts.expectedRevision,
    ...(opts.noWait ? { noWait: true } : {}),
    decide: (state) => decideFamily(state, command),
  });
}

export async function createFamily(deps: FamilyDeps, body: CreateFamilyBody, actor: Actor): Promise<{ id: string; result: FamilyResult }> {
  const id = newId();
  const result = await run(deps, id, actor, { type: 'CreateFamily', name: body.name, familyNameKey: body.familyNameKey ?? null });
  return { id, result };
}

export function updateFamily(deps: FamilyDeps, id: string, changes: UpdateFamilyBody, actor: Actor, expectedRevision?: bigint): Promise<FamilyResult> {
  return run(deps, id, actor, { type: 'UpdateFamily', changes }, { expectedRevision });
}

export async function deleteFamily(deps: FamilyDeps, id: string, actor: Actor, expectedRevision?: bigint): Promise<void> {
  const contents = await familyContents(deps.pool, id);
  await run(deps, id, actor, { type: 'DeleteFamily', ...contents }, { expectedRevision });
}

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

export async function addCustomMember(deps: FamilyDeps, id: string, body: AddCustomMemberBody, actor: Actor, expectedRevision?: bigint): Promise<FamilyResult> {
  requireCustomGood(body.goodId, await goodOrigin(deps.pool, body.goodId));
  return run(deps, id, actor, { type: 'AddCustomMember', goodId: body.goodId, tags: body.tags, price: normaliseMoney(body.price) }, { expectedRevision });
}

export function removeCustomMember(deps: FamilyDeps, id: string, goodId: string, actor: Actor, expectedRevision?: bigint): Promise<FamilyResult> {
  return run(deps, id, actor, { type: 'RemoveCustomMember', goodId }, { expectedRevision });
}

/** The key is checked against the family's matrix as the read model holds it. */
export async function setPriceOverride(deps: FamilyDeps, id: string, body: SetOverrideBody, actor: Actor, expectedRevision?: bigint): Promise<FamilyResult> {
  const current = await readFamily(deps.pool, id);
  const issues = validateOverrideKey(current.priceMatrix as Parameters<typeof validateOverrideKey>[0], body);
  const { price, ...key } = body;
  return run(deps, id, actor, { type: 'SetPriceOverride', key, price: normaliseMoney(price), issues }, { expectedRevision });
}

export function removePriceOverride(deps: FamilyDeps, id: string, body: RemoveOverrideBody, actor: Actor, expectedRevision?: bigint): Promise<FamilyResult> {
  const { price: _ignored, ...key } = body;
  return run(deps, id, actor, { type: 'RemovePriceOverride', key }, { expectedRevision });
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
      const writes: StreamWrite<any, any>[] = [{ spec: link, events: decideLink(state, { type: 'MoveLinkToFamily', linkId, familyId }) }];
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
