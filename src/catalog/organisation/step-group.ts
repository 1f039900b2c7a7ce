/**
 * Step 3 of organisation (docs/domain.md, Families): auto-group the organised links without a family.
 * The links waiting for a family are read again, a few thousand at a time (whole family name keys),
 * planned again on what they hold now, and grouped. Each family's record of its joining links
 * (created first, for a new family) and each link's one LinkOrganised event (its plan and its family)
 * go as one group, an existing family at the revision it was decided on; a family locked, merged or
 * deleted meanwhile takes none of them, and a link an administrator moved meanwhile is left alone.
 */
import { newId } from '../../platform/ids';
import { loadStream } from '../../platform/commands';
import { familyStreamId } from '../families/events';
import { familyStream } from '../families/state';
import { decideGrouping, type FamilyFacts, type GroupingLink } from '../domain/grouping';
import { loadFamilies, readLinksById, stampPlans, type LinkRow, type PlanStamp, type ReadLink } from './link-reads';
import { organisedEvents, planLink, planOrganised, type LinkPlan } from './plan';
import type { Planned, RunContext } from './run-context';
import { planStamp, reportPlan, standalonePlanned } from './step-plan';

/** A family that moved after the run read it is decided on again this many times, then left alone. */
export const FAMILY_ATTEMPTS = 3;

type FamilyPlan = { create: { name: string; key: string } } | { revision: bigint };

/**
 * A link joining a family: as read (from its row, with the inputs its stamp hashes, or from its
 * stream after a conflict) and its plan (null in the grouping step alone, which plans nothing).
 */
interface Joining {
  link: LinkRow & { planInputs?: string };
  plan: LinkPlan | null;
}

/** `waiting`: the links' ids by family name key (./step-plan.ts); emptied as the keys are grouped. */
export async function groupLinks(ctx: RunContext, waiting: Map<string, string[]>, groupOnly: boolean): Promise<void> {
  const byKey = new Map<string, (FamilyFacts & { revision: bigint })[]>();
  for (const f of await loadFamilies(ctx.s.pool)) {
    if (!f.familyNameKey) continue;
    const list = byKey.get(f.familyNameKey);
    if (list) list.push(f);
    else byKey.set(f.familyNameKey, [f]);
  }
  ctx.progress.done = 0;
  ctx.progress.total = [...waiting.values()].reduce((n, ids) => n + ids.length, 0);
  let keys: string[] = [];
  let count = 0;
  for (const [key, ids] of waiting) {
    keys.push(key);
    count += ids.length;
    if (count < ctx.chunks.read) continue;
    await groupChunk(ctx, keys, waiting, byKey, groupOnly);
    keys = [];
    count = 0;
  }
  if (keys.length) await groupChunk(ctx, keys, waiting, byKey, groupOnly);
}

async function groupChunk(
  ctx: RunContext,
  keys: readonly string[],
  waiting: Map<string, string[]>,
  byKey: ReadonlyMap<string, (FamilyFacts & { revision: bigint })[]>,
  groupOnly: boolean,
): Promise<void> {
  const { report } = ctx;
  const ids = keys.flatMap((k) => waiting.get(k)!);
  for (const k of keys) waiting.delete(k);
  const chunkKeys = new Set(keys);
  const planned: Planned[] = [];
  const stamps: PlanStamp[] = [];
  const candidates: GroupingLink[] = [];
  const joining = new Map<string, Joining>();
  for (const link of await readLinksById(ctx.s.pool, ids)) {
    const plan = groupOnly ? null : planLink(link);
    const parsed = plan ? plan.parsed : link.parsed;
    if (parsed && !link.familyId && chunkKeys.has(parsed.familyNameKey)) {
      candidates.push({ id: link.id, familyNameKey: parsed.familyNameKey, productName: parsed.productName, sku: parsed.sku });
      joining.set(link.id, { link, plan });
    } else if (plan) {
      // No longer waiting for a family of these keys (given one, or renamed, meanwhile): its plan alone.
      planned.push(...alonePlanned(ctx, link, plan, stamps));
    }
  }
  const decisions = decideGrouping(
    candidates,
    keys.flatMap((k) => byKey.get(k) ?? []),
  );
  const created = new Map<string, { id: string; name: string }>(); // key → new family
  const joins = new Map<string, Joining[]>(); // family → links joining it
  for (const d of decisions) {
    if (d.kind === 'lockedSkipped') {
      report.lockedSkipped.push({ id: d.linkId, familyId: d.familyId });
      const { link, plan } = joining.get(d.linkId)!;
      if (plan) planned.push(...alonePlanned(ctx, link as ReadLink, plan, stamps));
      continue;
    }
    if (d.kind === 'create') {
      created.set(d.key, { id: newId(), name: d.name });
      report.created++;
    } else if (!d.familyId.startsWith('new:')) report.attached++;
    const familyId = d.kind === 'create' ? created.get(d.key)!.id : d.familyId.startsWith('new:') ? created.get(d.familyId.slice(4))!.id : d.familyId;
    let list = joins.get(familyId);
    if (!list) joins.set(familyId, (list = []));
    list.push(joining.get(d.linkId)!);
  }
  const newFamilies = new Map([...created].map(([key, f]) => [f.id, { ...f, key }]));
  const revisions = new Map(keys.flatMap((k) => (byKey.get(k) ?? []).map((f) => [f.id, f.revision] as const)));
  for (const [familyId, members] of joins) {
    const fresh = newFamilies.get(familyId);
    planned.push(...joinPlanned(ctx, familyId, members, fresh ? { create: { name: fresh.name, key: fresh.key } } : { revision: revisions.get(familyId)! }, 1, stamps, groupOnly));
  }
  await ctx.appendAll(planned);
  await stampPlans(ctx.s.pool, stamps);
  ctx.progress.done += ids.length;
}

/** A link's plan appended alone (none when it changes nothing); stamped once it is (when `stamps`). */
function alonePlanned(ctx: RunContext, link: ReadLink, raw: LinkPlan, stamps: PlanStamp[]): Planned[] {
  const plan = { ...raw, events: organisedEvents(link.id, raw.events) };
  if (plan.events.length) return [standalonePlanned(ctx, link, plan, stamps)];
  reportPlan(ctx, link, plan, false);
  if (plan.parsed) stamps.push(planStamp(link, plan));
  return [];
}

/**
 * A family's record of its new members (created first, for a new family) and each link's plan with
 * its move, as one group: an existing family at the revision the decision was made on, each link at
 * the revision it was read at. If any of them moved meanwhile, the group is decided again on what
 * the streams say now (`rejoin`). `stamps`: where the links' stamps go once appended (null for
 * links planned from their streams, whose inputs as the row hashes them were not read).
 */
function joinPlanned(
  ctx: RunContext,
  familyId: string,
  members: readonly Joining[],
  family: FamilyPlan,
  attempt: number,
  stamps: PlanStamp[] | null,
  groupOnly: boolean,
): Planned[] {
  const { meta } = ctx;
  const linkIds = members.map((m) => m.link.id);
  const events = [
    ...('create' in family
      ? [ctx.s.registry.encode('FamilyCreated', { familyId, name: family.create.name, familyNameKey: family.create.key, autoManaged: true, locked: false, shelf: 'on' }, meta)]
      : []),
    // The family's own record of who joined (for its history); the link streams hold the membership.
    ctx.s.registry.encode('FamilyMembersAdded', { familyId, linkIds }, meta),
  ];
  const group = { key: `join:${familyId}`, conflict: () => rejoin(ctx, familyId, linkIds, family, attempt, groupOnly) };
  return [
    { append: { streamId: familyStreamId(familyId), events, expectedRevision: 'create' in family ? 'no_stream' : family.revision }, group },
    ...members.map(({ link, plan }) => ({
      append: ctx.linkAppend(link.id, organisedEvents(link.id, plan?.events ?? [], familyId), link.revision),
      done: () => {
        reportPlan(ctx, link, plan, true);
        if (stamps && plan?.parsed && link.planInputs !== undefined) stamps.push(planStamp(link as ReadLink, plan));
      },
      group,
    })),
  ];
}

/**
 * A join group one of whose streams moved: each link is read again, and one that is no longer
 * where this run read it (an administrator moved it meanwhile) is left alone and listed for
 * review; the others are planned again on what their streams say now. The family is read again,
 * and while it still takes links the links that still belong to it join it at the revisions read
 * now. A family locked, merged or deleted meanwhile (or still moving after FAMILY_ATTEMPTS) takes
 * none of them: they are reported as skipped, and get their plans alone.
 */
async function rejoin(ctx: RunContext, familyId: string, ids: readonly string[], family: FamilyPlan, attempt: number, groupOnly: boolean): Promise<void> {
  const { report } = ctx;
  const still = await ctx.stillWhereRead(ids, null);
  const f = await loadStream(ctx.s, familyStream(familyId));
  const exists = 'create' in family ? f.revision !== null : true;
  const takesLinks = !exists || (f.state.exists && !f.state.gone && f.state.autoManaged && !f.state.locked);
  const key = 'create' in family ? family.create.key : f.state.familyNameKey;
  const members: Joining[] = [];
  for (const link of still) {
    const plan = groupOnly ? null : planLink(link);
    if ((plan ? plan.parsed : link.parsed)?.familyNameKey === key) members.push({ link, plan });
    // Renamed meanwhile into another product: not this family's; grouped by a later run.
    else await appendAlone(ctx, link, groupOnly);
  }
  if (!('create' in family)) report.attached -= ids.length - members.length;
  if (members.length && takesLinks && attempt < FAMILY_ATTEMPTS) {
    // A new family that was not created yet is created now; one that was is joined at its revision.
    const next = exists && f.revision !== null ? { revision: f.revision } : family;
    await ctx.appendAll(joinPlanned(ctx, familyId, members, next, attempt + 1, null, groupOnly));
    return;
  }
  for (const { link } of members) {
    report.lockedSkipped.push({ id: link.id, familyId });
    await appendAlone(ctx, link, groupOnly);
  }
  if ('create' in family && !exists)
    report.created--; // never created: no link is left to found it
  else if (!('create' in family)) report.attached -= members.length;
}

/** A link's plan, alone, from what its stream says (nothing in the grouping step alone). */
async function appendAlone(ctx: RunContext, link: LinkRow, groupOnly: boolean): Promise<void> {
  if (groupOnly) return;
  const plan = await ctx.appendPlanned(link, (facts) => planOrganised(facts));
  reportPlan(ctx, link, plan, plan.events.length > 0);
}
