/**
 * Step 4 of organisation (docs/domain.md, Families): merge every pure fragment of a product into
 * the family that has goods, whose id is public; list the others for review.
 */
import { familyStreamId } from '../families/events';
import { decideConsolidation } from '../domain/grouping';
import { loadFamilies } from './link-reads';
import type { KnownLink, RunContext } from './run-context';
import { FAMILY_ATTEMPTS } from './step-group';

export async function consolidate(ctx: RunContext): Promise<void> {
  const { report } = ctx;
  const settled = await loadFamilies(ctx.s.pool);
  const revisions = new Map(settled.map((f) => [f.id, f.revision]));
  for (const c of decideConsolidation(settled)) {
    if (c.kind === 'review') {
      report.review.push({ familyId: c.familyId, reason: c.reason });
      continue;
    }
    const members = await readMembers(ctx, c.fragmentId);
    // Counted as touched unless the run appended to them before (their plan, in step 1).
    const before = await Promise.all(members.map(async (m) => [m.id, await ctx.appendedTo(m.id)] as const));
    const merged = await merge(ctx, c.fragmentId, c.intoFamilyId, members, revisions, 1);
    if (!merged) continue;
    const earlier = new Map(before);
    for (const l of merged) if (!earlier.get(l)) ctx.touched++;
    report.merged++;
  }
}

/**
 * The fragment's members as the read model shows them now, each known to the run at the revision
 * the row shows: also a link the run never read (synchronised after the run began, then added to the
 * fragment by an administrator). Such a link moves with its fragment like any other member: left
 * out, it would stay in a family the merge deletes, which counts as no family (docs/domain.md,
 * Families). A member whose stream moved after this read is decided again on what its stream says
 * then, as every member is (`merge`).
 */
async function readMembers(ctx: RunContext, fragmentId: string): Promise<KnownLink[]> {
  const rows = (await ctx.s.pool.query<{ id: string; revision: string }>(`SELECT id, revision FROM origin_goods WHERE family_id = $1 ORDER BY id`, [fragmentId])).rows;
  return rows.map((r) => ({ id: r.id, revision: BigInt(r.revision), familyId: fragmentId }));
}

/**
 * Merges a fragment into the family that keeps its id: the fragment's members move, the target
 * records them, the fragment records the merge, as one group, both families at the revisions the
 * consolidation was decided on (`revisions`, advanced by each merge this run appends, so a second
 * fragment merges into the same target in the same run). If either family moved meanwhile (locked,
 * given goods or prices, merged), the fragment is left for review (`CHANGED`); if only a member
 * link moved, that link is left alone and listed, and the rest merge. Answers the links moved, or
 * null when nothing was merged.
 */
async function merge(
  ctx: RunContext,
  fragmentId: string,
  intoFamilyId: string,
  members: readonly KnownLink[],
  revisions: Map<string, bigint>,
  attempt: number,
): Promise<string[] | null> {
  const { meta } = ctx;
  let outcome: string[] | null = members.map((m) => m.id);
  const group = {
    key: `merge:${fragmentId}`,
    conflict: async () => {
      outcome = null;
      const [fragment, into] = [await ctx.s.store.streamRevision(familyStreamId(fragmentId)), await ctx.s.store.streamRevision(familyStreamId(intoFamilyId))];
      if (fragment !== revisions.get(fragmentId) || into !== revisions.get(intoFamilyId) || attempt >= FAMILY_ATTEMPTS) {
        ctx.report.review.push({ familyId: fragmentId, reason: 'CHANGED' });
        return;
      }
      const still = await ctx.stillWhereRead(
        members.map((m) => m.id),
        fragmentId,
      );
      outcome = await merge(ctx, fragmentId, intoFamilyId, still, revisions, attempt + 1);
    },
  };
  await ctx.appendAll([
    ...members.map((m) => ({ ...ctx.movePlanned(m, intoFamilyId), group })),
    {
      append: {
        streamId: familyStreamId(intoFamilyId),
        events: members.map((m) => ctx.s.registry.encode('FamilyMemberAdded', { familyId: intoFamilyId, linkId: m.id }, meta)),
        expectedRevision: revisions.get(intoFamilyId)!,
      },
      done: (r) => revisions.set(intoFamilyId, r.nextRevision),
      group,
    },
    {
      append: {
        streamId: familyStreamId(fragmentId),
        events: [ctx.s.registry.encode('FamilyMergedInto', { familyId: fragmentId, intoFamilyId }, meta)],
        expectedRevision: revisions.get(fragmentId)!,
      },
      done: (r) => revisions.set(fragmentId, r.nextRevision),
      group,
    },
  ]);
  return outcome;
}
