/**
 * Family commands: look up what the rules need, then load → decide → append; and the move of a link
 * between families, which spans the link's stream and both families'.
 */
import { loadStream, runCommand, type Actor, type CommandResult } from '../../platform/commands';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import type { AdminDeps } from '../commands';
import { validateOverrideKey } from '../domain/matrix';
import { normaliseMoney } from '../domain/money';
import { decideLink } from '../links/decide';
import { linkStream } from '../links/state';
import { decideFamily, requireCustomGood, requireFamily, type FamilyCommand } from './decide';
import { familyStreamId } from './events';
import { familyContents, goodOrigin, isMember, readFamily } from './queries';
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

/** Adds a link to the family; it leaves the family it was in. */
export async function addFamilyMember(deps: FamilyDeps, id: string, linkId: string, actor: Actor): Promise<void> {
  requireFamily((await loadStream(deps, familyStream(id))).state);
  await setLinkFamily(deps, linkId, id, actor, 'AddFamilyMember');
}

/** Takes a link the read model shows in the family out of it. */
export async function removeFamilyMember(deps: FamilyDeps, id: string, linkId: string, actor: Actor): Promise<void> {
  if (!(await isMember(deps.pool, id, linkId))) throw AppError.notFound('FAMILY.MEMBER_NOT_FOUND', `link ${linkId} is not a member of family ${id}`);
  await setLinkFamily(deps, linkId, null, actor, 'RemoveFamilyMember');
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

/** Moves a link into `familyId` (or out of any family when null), recording it on both families' streams. */
export async function setLinkFamily(deps: FamilyDeps, linkId: string, familyId: string | null, actor: Actor, why: string): Promise<string | null> {
  let previous: string | null = null;
  const r = await runCommand(deps, linkStream(linkId), {
    name: why,
    actor,
    noWait: true,
    decide: (link) => {
      previous = link.familyId;
      return decideLink(link, { type: 'MoveLinkToFamily', linkId, familyId });
    },
  });
  if (!r.position) return previous;
  const streams = [r.events.length ? `link-${linkId}` : ''];
  // The answer waits for the last of the appends: the family's own event comes after the link's, and a
  // read that waited only for the link's could still show the member (the admin then shows it as kept).
  let last = r.position;
  if (previous) {
    const removed = await run(deps, previous, actor, { type: 'RecordMemberRemoved', linkId }, { name: why, noWait: true });
    if (removed.position) last = removed.position;
    streams.push(familyStreamId(previous));
  }
  if (familyId) {
    const added = await run(deps, familyId, actor, { type: 'RecordMemberAdded', linkId }, { name: why, noWait: true });
    if (added.position) last = added.position;
    streams.push(familyStreamId(familyId));
  }
  await deps.waitForProjections(last, streams.filter(Boolean));
  return previous;
}
