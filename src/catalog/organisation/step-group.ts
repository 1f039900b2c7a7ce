/**
 * Step 3 of organisation (docs/domain.md, Families): auto-group the organised links without a family.
 * Each family's record of its joining links (created first, for a new family) and the links' moves
 * go as one group, an existing family at the revision it was decided on; a family locked, merged or
 * deleted meanwhile takes none of them, and a link an administrator moved meanwhile is left alone.
 */
import { newId } from '../../platform/ids';
import { loadStream } from '../../platform/commands';
import { familyStreamId } from '../families/events';
import { familyStream } from '../families/state';
import { decideGrouping, type GroupingLink } from '../domain/grouping';
import { loadFamilies } from './link-reads';
import type { Planned, RunContext } from './run-context';

/** A family that moved after the run read it is decided on again this many times, then left alone. */
export const FAMILY_ATTEMPTS = 3;

type FamilyPlan = { create: { name: string; key: string } } | { revision: bigint };

export async function groupLinks(ctx: RunContext, organised: readonly GroupingLink[]): Promise<void> {
  const { report } = ctx;
  const families = await loadFamilies(ctx.s.pool);
  const revisions = new Map(families.map((f) => [f.id, f.revision]));
  const decisions = decideGrouping(organised, families);
  const created = new Map<string, { id: string; name: string }>(); // key → new family
  const joins = new Map<string, string[]>(); // family → links joining it
  for (const d of decisions) {
    if (d.kind === 'lockedSkipped') {
      report.lockedSkipped.push({ id: d.linkId, familyId: d.familyId });
      continue;
    }
    if (d.kind === 'create') {
      created.set(d.key, { id: newId(), name: d.name });
      report.created++;
    } else if (!d.familyId.startsWith('new:')) report.attached++;
    const familyId = d.kind === 'create' ? created.get(d.key)!.id : d.familyId.startsWith('new:') ? created.get(d.familyId.slice(4))!.id : d.familyId;
    let list = joins.get(familyId);
    if (!list) joins.set(familyId, (list = []));
    list.push(d.linkId);
  }
  const newFamilies = new Map([...created].map(([key, f]) => [f.id, { ...f, key }]));
  ctx.progress.done = 0;
  ctx.progress.total = decisions.length;
  let batch: Planned[] = [];
  let batchLinks = 0;
  for (const [familyId, ids] of joins) {
    const fresh = newFamilies.get(familyId);
    batch.push(...joinPlanned(ctx, familyId, ids, fresh ? { create: { name: fresh.name, key: fresh.key } } : { revision: revisions.get(familyId)! }, 1));
    batchLinks += ids.length;
    if (batch.length >= ctx.chunks.append) {
      await ctx.appendAll(batch);
      ctx.progress.done += batchLinks;
      batch = [];
      batchLinks = 0;
    }
  }
  await ctx.appendAll(batch);
  ctx.progress.done += batchLinks + report.lockedSkipped.length;
}

/**
 * A family's record of its new members (created first, for a new family) and its links' moves, as
 * one group: an existing family at the revision the decision was made on, each link at the
 * revision this run knows it at. If any of them moved meanwhile, the group is decided again on
 * what the streams say now (`rejoin`).
 */
function joinPlanned(ctx: RunContext, familyId: string, ids: readonly string[], family: FamilyPlan, attempt: number): Planned[] {
  const { meta } = ctx;
  const events = [
    ...('create' in family
      ? [ctx.s.registry.encode('FamilyCreated', { familyId, name: family.create.name, familyNameKey: family.create.key, autoManaged: true, locked: false }, meta)]
      : []),
    // The family's own record of who joined (for its history); the link streams hold the membership.
    ...ids.map((linkId) => ctx.s.registry.encode('FamilyMemberAdded', { familyId, linkId }, meta)),
  ];
  const group = { key: `join:${familyId}`, conflict: () => rejoin(ctx, familyId, ids, family, attempt) };
  for (const linkId of ids) ctx.touched.add(linkId);
  return [
    { append: { streamId: familyStreamId(familyId), events, expectedRevision: 'create' in family ? 'no_stream' : family.revision }, group },
    ...ids.map((linkId) => ({ ...ctx.movePlanned(linkId, familyId), group })),
  ];
}

/**
 * A join group one of whose streams moved: each link is read again, and one that is no longer
 * where this run read it (an administrator moved it meanwhile) is left alone and listed for
 * review; the family is read again, and while it still takes links the rest join it at the
 * revisions read now. A family locked, merged or deleted meanwhile (or still moving after
 * FAMILY_ATTEMPTS) takes none of them: they are reported as skipped.
 */
async function rejoin(ctx: RunContext, familyId: string, ids: readonly string[], family: FamilyPlan, attempt: number): Promise<void> {
  const { report } = ctx;
  const still = await ctx.stillWhereRead(ids, (id) => ctx.links.get(id)!.familyId);
  const left = ids.filter((id) => !still.includes(id));
  for (const id of left) ctx.touched.delete(id);
  if (!('create' in family)) report.attached -= left.length;
  const f = await loadStream(ctx.s, familyStream(familyId));
  const exists = 'create' in family ? f.revision !== null : true;
  const takesLinks = !exists || (f.state.exists && !f.state.gone && f.state.autoManaged && !f.state.locked);
  if (still.length && takesLinks && attempt < FAMILY_ATTEMPTS) {
    // A new family that was not created yet is created now; one that was is joined at its revision.
    const next = exists && f.revision !== null ? { revision: f.revision } : family;
    await ctx.appendAll(joinPlanned(ctx, familyId, still, next, attempt + 1));
    return;
  }
  for (const id of still) {
    ctx.touched.delete(id);
    report.lockedSkipped.push({ id, familyId });
  }
  if ('create' in family && !exists)
    report.created--; // never created: no link is left to found it
  else if (!('create' in family)) report.attached -= still.length;
}
