/**
 * Family commands: look up what the rules need, then load → decide → append; and the move of a link
 * between families, which spans the link's stream and both families'.
 */
import { type Actor, type CommandResult, commandRunner } from '../../platform/commands';
import { newId } from '../../platform/ids';
import type { AdminDeps } from '../admin-commands';
import { validateOverrideKey } from '../domain/matrix';
import { normaliseMoney } from '../domain/money';
import { decideFamily, requireCustomGood } from './decide';
import { familyContents, goodOrigin, readFamily } from './queries';
import type { AddCustomMemberBody, CreateFamilyBody, ShelfBody, RemoveOverrideBody, SetOverrideBody, UpdateFamilyBody } from './requests';
import { familyStream, type FamilyState } from './state';

/** What the family commands need: the composition root's services satisfy it. */
export type FamilyDeps = AdminDeps;

export type FamilyResult = CommandResult<FamilyState>;

const run = commandRunner(familyStream, decideFamily);

export async function createFamily(deps: FamilyDeps, body: CreateFamilyBody, actor: Actor): Promise<{ id: string; result: FamilyResult }> {
  const id = newId();
  const result = await run(deps, id, actor, { type: 'CreateFamily', name: body.name, familyNameKey: body.familyNameKey ?? null, shelf: body.shelf ?? 'on' });
  return { id, result };
}

export function updateFamily(deps: FamilyDeps, id: string, changes: UpdateFamilyBody, actor: Actor, expectedRevision?: bigint): Promise<FamilyResult> {
  return run(deps, id, actor, { type: 'UpdateFamily', changes }, { expectedRevision });
}

/** 上架 / 下架 (docs/domain.md, Public catalog). */
export function setFamilyShelf(deps: FamilyDeps, id: string, body: ShelfBody, actor: Actor, expectedRevision?: bigint, opts: { noWait?: boolean } = {}): Promise<FamilyResult> {
  return run(deps, id, actor, { type: 'SetFamilyShelf', state: body.state }, { expectedRevision, ...opts });
}

export async function deleteFamily(deps: FamilyDeps, id: string, actor: Actor, expectedRevision?: bigint): Promise<void> {
  const contents = await familyContents(deps.pool, id);
  await run(deps, id, actor, { type: 'DeleteFamily', ...contents }, { expectedRevision });
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
