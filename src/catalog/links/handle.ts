/** Link commands of administrators: their tags by hand, or derived again (load → decide → append). */
import { runCommand, type Actor } from '../../platform/commands';
import { AppError } from '../../platform/errors';
import { LOCK_WAIT_MS } from '../../platform/locks';
import type { AdminDeps } from '../admin-commands';
import { emptyDimensionValues } from '../domain/tags';
import { setLinkFamily } from './membership';
import { decideGrouping } from '../domain/grouping';
import { decideLink } from './decide';
import { ensureDimensionTags, tagsOf, valuesOfTagIds } from './dimension-tags';
import type { DimensionValues, LinkEvent } from './events';
import { familiesWithNameKey } from './queries';
import { linkStream } from './state';
import { withBatchReferences } from '../references';
import { linkEventReferences } from './references';

/** What the link commands need: the composition root's services satisfy it. */
export type LinkDeps = AdminDeps;

/**
 * Manual takeover: the tags the administrator chose, dimensions left empty filled from the name. A
 * link outside any family then joins the one grouping would put it in, if there is one. The takeover
 * is appended holding the reference locks of the chosen tags (found live again under them: a delete
 * that went first makes it a 400) and of the live tags and country its values and parsed name name,
 * so a delete of one of them counts the link (docs/api.md, Usage).
 */
export async function updateLinkTags(deps: LinkDeps, id: string, tagIds: readonly string[], actor: Actor, expectedRevision?: bigint) {
  const { values: manual } = await valuesOfTagIds(deps, tagIds);
  let decided: LinkEvent[] = [];
  const result = await runCommand(deps, linkStream(id), {
    name: 'UpdateLinkTags',
    actor,
    expectedRevision,
    decide: (link) => (decided = decideLink(link, { type: 'UpdateLinkTags', linkId: id, manual })),
    appendWith: (events, append) =>
      withBatchReferences(
        deps.pool,
        { ...linkEventReferences(events), tagIds },
        async () => {
          await valuesOfTagIds(deps, tagIds);
          return append();
        },
        LOCK_WAIT_MS,
      ),
  });
  // The decision always ends in the takeover: the tags as set, and what was filled from the name.
  const takeover = decided.find((e): e is Extract<LinkEvent, { type: 'LinkTagsTakenOver' }> => e.type === 'LinkTagsTakenOver')!.data;
  await ensureDimensionTags(deps, takeover.tags, actor);
  let attachedFamilyId: string | null = null;
  const link = result.state;
  if (!link.familyId && link.parsed) {
    const families = await familiesWithNameKey(deps.pool, link.parsed.familyNameKey);
    const [decision] = decideGrouping([{ id, familyNameKey: link.parsed.familyNameKey, productName: link.parsed.productName, sku: link.parsed.sku }], families);
    if (decision?.kind === 'join') {
      try {
        await setLinkFamily(deps, id, decision.familyId, actor, 'UpdateLinkTags');
        attachedFamilyId = decision.familyId;
      } catch (e) {
        // The family the read model offered was deleted or merged meanwhile: the tags stand, the link
        // stays without a family for the next organisation.
        if (!(e instanceof AppError && e.code === 'FAMILY.GONE')) throw e;
      }
    }
  }
  const filledTags = await tagsOf(
    deps,
    takeover.filled.reduce<Partial<DimensionValues>>((acc, f) => ({ ...acc, [f.dimension]: [...(acc[f.dimension] ?? []), f.value] }), {}),
  );
  return { tags: await tagsOf(deps, takeover.tags), filledDimensionTags: filledTags, attachedFamilyId };
}

/**
 * Back to the tags derived from the name and detail; every derived value gets its tag. Appended
 * holding the reference locks of the live tags and country it names, as organisation does.
 */
export async function restoreAutoLinkTags(deps: LinkDeps, id: string, actor: Actor, expectedRevision?: bigint): Promise<void> {
  const result = await runCommand(deps, linkStream(id), {
    name: 'RestoreAutoLinkTags',
    actor,
    expectedRevision,
    decide: (link) => decideLink(link, { type: 'RestoreAutoLinkTags', linkId: id }),
    appendWith: (events, append) => withBatchReferences(deps.pool, linkEventReferences(events), append, LOCK_WAIT_MS),
  });
  // The derived tags: restored now, or already the link's (the decision then appends no restore).
  await ensureDimensionTags(deps, result.state.tags ?? emptyDimensionValues(), actor);
}
