/**
 * Steps 1 and 2 of organisation (docs/domain.md, Organisation): fill each link's parsed columns and
 * derive its tags (never over manual ones), a chunk of links at a time. A link whose stamp holds is
 * not planned again. Answers what the later steps need: the organised links without a family, every
 * tag value seen, and the links to stamp once the projection shows what was appended.
 */
import { DIMENSIONS, type Dimension } from '../domain/tags';
import { linkNameProblem } from '../domain/names';
import type { GroupingLink } from '../domain/grouping';
import { readLinks } from './link-reads';
import { missingForMatrix, planLink, type LinkPlan } from './plan';
import type { Planned, RunContext } from './run-context';

export interface PlanOutcome {
  /** organised links without a family, for the grouping step */
  organised: GroupingLink[];
  /** every value of every dimension the links carry: each gets its tag */
  values: Record<Dimension, Set<string>>;
  /** the links planned whose names parse, with their inputs as read: stamped at the end */
  toStamp: { id: string; inputs: string }[];
}

/** `groupOnly`: plan nothing; only collect what the grouping step needs. */
export async function planLinks(ctx: RunContext, groupOnly: boolean): Promise<PlanOutcome> {
  const { report, links, touched } = ctx;
  const organised: GroupingLink[] = [];
  const values: Record<Dimension, Set<string>> = { size: new Set(), color: new Set(), printCount: new Set(), craft: new Set(), logistics: new Set() };
  const toStamp: { id: string; inputs: string }[] = [];
  for await (const chunk of readLinks(ctx.s.pool, ctx.chunks.read)) {
    const planned: Planned[] = [];
    const plans = new Map<string, LinkPlan>();
    for (const link of chunk) {
      links.set(link.id, { revision: link.revision, familyId: link.familyId });
      if (groupOnly) {
        if (link.parsed && !link.familyId) organised.push({ id: link.id, ...link.parsed });
        for (const d of DIMENSIONS) for (const v of link.tags?.[d] ?? []) values[d].add(v);
        continue;
      }
      if (link.settled) continue;
      const plan = planLink(link);
      if (plan.parsed) toStamp.push({ id: link.id, inputs: link.planInputs });
      plans.set(link.id, plan);
      if (plan.events.length) {
        planned.push({
          append: ctx.linkAppend(link.id, plan.events, link.revision),
          done: (r) => (links.get(link.id)!.revision = r.nextRevision),
          conflict: async () => {
            const again = await ctx.appendPlanned(link, (facts) => planLink(facts));
            plans.set(link.id, again);
            links.set(link.id, { revision: link.revision, familyId: link.familyId });
          },
        });
      }
    }
    await ctx.appendAll(planned);
    for (const link of chunk) {
      if (link.settled && !groupOnly) {
        // As planLink would answer: no events, its stored tags, its name parsed into its family.
        for (const d of DIMENSIONS) for (const v of link.tags?.[d] ?? []) values[d].add(v);
        const missing = missingForMatrix(link.tags);
        if (missing.length) report.incomplete.push({ id: link.id, name: link.name, missing });
        continue;
      }
      const plan = plans.get(link.id);
      if (!plan) continue;
      if (plan.parsedChanged) report.parsed++;
      if (plan.derivedChanged) report.derived++;
      if (plan.events.length) touched.add(link.id);
      for (const d of DIMENSIONS) for (const v of plan.tags?.[d] ?? []) values[d].add(v);
      if (!plan.parsed) report.unparseable.push({ id: link.id, name: link.name, problem: linkNameProblem(link.name) ?? undefined });
      else {
        if (plan.missing.length) report.incomplete.push({ id: link.id, name: link.name, missing: plan.missing });
        if (!links.get(link.id)!.familyId) organised.push({ id: link.id, ...plan.parsed });
      }
    }
    ctx.progress.done += chunk.length;
  }
  return { organised, values, toStamp };
}
