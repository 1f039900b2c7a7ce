/**
 * Steps 1 and 2 of organisation (docs/domain.md, Organisation): fill each link's parsed columns and
 * derive its tags (never over manual ones), a chunk of links at a time. A link whose stamp holds is
 * not planned again. A link that has a family gets its plan now, as one LinkOrganised event; one
 * that waits for a family (organised, without one) gets it with its family, from the grouping step
 * (./step-group.ts), which reads it again: of those the run keeps only their ids, by family name key.
 */
import { DIMENSIONS, type Dimension } from '../domain/tags';
import { linkNameProblem } from '../domain/names';
import { readLinks, stampPlans, type LinkRow, type PlanStamp, type ReadLink } from './link-reads';
import { missingForMatrix, planOrganised, type LinkPlan } from './plan';
import type { Planned, RunContext } from './run-context';

export interface PlanOutcome {
  /** ids of the organised links without a family, by family name key, each list in id order */
  waiting: Map<string, string[]>;
  /** every value of every dimension the links carry: each gets its tag */
  values: Record<Dimension, Set<string>>;
}

/** `groupOnly`: plan nothing; only collect what the grouping step needs. */
export async function planLinks(ctx: RunContext, groupOnly: boolean): Promise<PlanOutcome> {
  const waiting = new Map<string, string[]>();
  const values: Record<Dimension, Set<string>> = { size: new Set(), color: new Set(), printCount: new Set(), craft: new Set(), logistics: new Set() };
  const wait = (key: string, id: string) => {
    const list = waiting.get(key);
    if (list) list.push(id);
    else waiting.set(key, [id]);
  };
  for await (const chunk of readLinks(ctx.s.pool, ctx.chunks.read)) {
    ctx.read += chunk.length;
    const planned: Planned[] = [];
    const stamps: PlanStamp[] = [];
    for (const link of chunk) {
      if (groupOnly) {
        if (link.parsed && !link.familyId) wait(link.parsed.familyNameKey, link.id);
        collectValues(values, link.tags);
        continue;
      }
      if (link.settled) {
        // As planLink would answer: no events, its stored tags, its name parsed into its family.
        collectValues(values, link.tags);
        const missing = missingForMatrix(link.tags);
        if (missing.length) ctx.report.incomplete.push({ id: link.id, name: link.name, missing });
        continue;
      }
      const plan = planOrganised(link);
      collectValues(values, plan.tags);
      if (plan.parsed && !link.familyId) {
        // Appended with its family, from what it holds then.
        wait(plan.parsed.familyNameKey, link.id);
        continue;
      }
      if (plan.events.length === 0) {
        reportPlan(ctx, link, plan, false);
        if (plan.parsed) stamps.push(planStamp(link, plan));
        continue;
      }
      planned.push(
        standalonePlanned(ctx, link, plan, stamps, (again, now) => {
          // Its family gone meanwhile (an administrator removed it): it waits to be grouped.
          if (!again.parsed || now.familyId) return;
          ctx.reported.add(link.id);
          wait(again.parsed.familyNameKey, link.id);
        }),
      );
    }
    await ctx.appendAll(planned);
    await stampPlans(ctx.s.pool, stamps);
    ctx.progress.done += chunk.length;
  }
  return { waiting, values };
}

/**
 * A link's plan appended alone, at the revision it was read at; `stamps` takes its stamp once it is
 * appended. When its stream moved meanwhile it is planned again on what the stream says now (and
 * not stamped: its inputs as read are not those); `replanned` hears that plan and the link as it is.
 */
export function standalonePlanned(ctx: RunContext, link: ReadLink, plan: LinkPlan, stamps: PlanStamp[], replanned?: (plan: LinkPlan, now: LinkRow) => void): Planned {
  return {
    append: ctx.linkAppend(link.id, plan.events, link.revision),
    done: () => {
      reportPlan(ctx, link, plan, true);
      if (plan.parsed) stamps.push(planStamp(link, plan));
    },
    conflict: async () => {
      const again = await ctx.appendPlanned(link, (facts) => planOrganised(facts));
      reportPlan(ctx, link, again, again.events.length > 0);
      replanned?.(again, link);
    },
  };
}

/** What a link's plan adds to the report, once its events (if any: `appended`) are in the log. */
export function reportPlan(ctx: RunContext, link: { id: string; name: string }, plan: LinkPlan | null, appended: boolean): void {
  const { report } = ctx;
  if (ctx.reported.has(link.id)) return;
  if (appended) ctx.touched++;
  // The grouping step alone plans nothing, and reports nothing of the links' names and tags.
  if (!plan) return;
  if (appended && plan.parsedChanged) report.parsed++;
  if (appended && plan.derivedChanged) report.derived++;
  if (!plan.parsed) report.unparseable.push({ id: link.id, name: link.name, problem: linkNameProblem(link.name) ?? undefined });
  else if (plan.missing.length) report.incomplete.push({ id: link.id, name: link.name, missing: plan.missing });
}

export function planStamp(link: ReadLink, plan: LinkPlan): PlanStamp {
  return { id: link.id, inputs: link.planInputs, parsed: plan.parsed!, tags: plan.tags };
}

function collectValues(values: Record<Dimension, Set<string>>, tags: LinkPlan['tags']): void {
  for (const d of DIMENSIONS) for (const v of tags?.[d] ?? []) values[d].add(v);
}
