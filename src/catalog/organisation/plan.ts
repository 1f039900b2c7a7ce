/**
 * Organisation's per-link decisions, pure: parse the name into the parsed columns, derive tags
 * (never over manual ones), and tell whether the link can enter the matrix. Grouping is decided in
 * ./group.ts, against the families.
 */
import type { PendingEvent } from '../../platform/commands';
import { sameContent } from '../../platform/content-hash';
import { familyNameKey, parseLinkName, type ParsedLinkName } from '../domain/names';
import { deriveLinkTags, type Dimension, type VariantDimensions } from '../domain/tags';
import type { DimensionValues } from '../domain/values';

/**
 * The version of the per-link rules below (and the name grammar and tag derivation they apply).
 * Organisation skips links whose stamp says this step already left them as these rules would
 * (./organise.ts, `readLinks`): change it whenever `planLink` would answer differently for some
 * link, so the next organisation plans every link again (test/unit/catalog/organisation/plan-rules.test.ts
 * fails until it is changed).
 */
export const LINK_PLAN_RULES = '1';

export interface LinkFacts {
  id: string;
  name: string;
  /** the synced detail, of which tag derivation reads the variants' sizes and colours */
  detail: VariantDimensions | null;
  parsed: { country: string; logistics: string; productName: string; sku: string; familyNameKey: string } | null;
  tags: DimensionValues | null;
  tagsManual: boolean;
}

export interface LinkPlan {
  events: PendingEvent[];
  /** null: the name does not follow the grammar (reported, never grouped) */
  parsed: (ParsedLinkName & { familyNameKey: string }) | null;
  parsedChanged: boolean;
  derivedChanged: boolean;
  /** the tags the link has after the plan */
  tags: DimensionValues | null;
  /** craft / logistics missing from those tags: the link contributes no matrix cell */
  missing: Dimension[];
}

export function planLink(link: LinkFacts): LinkPlan {
  const p = parseLinkName(link.name);
  if (!p) return { events: [], parsed: null, parsedChanged: false, derivedChanged: false, tags: link.tags, missing: [] };
  const parsed = { ...p, familyNameKey: familyNameKey(p) };
  const events: PendingEvent[] = [];
  const columns = { country: p.country, logistics: p.logistics, productName: p.productName, sku: p.sku, familyNameKey: parsed.familyNameKey };
  const parsedChanged = !link.parsed || !sameContent(link.parsed, columns);
  if (parsedChanged) events.push({ type: 'LinkParsed', data: { linkId: link.id, ...columns } });
  let tags = link.tags;
  let derivedChanged = false;
  if (!link.tagsManual) {
    const derived = deriveLinkTags(p, link.detail);
    if (!link.tags || !sameContent(link.tags, derived.values)) {
      events.push({ type: 'LinkTagsDerived', data: { linkId: link.id, tags: derived.values, missing: derived.missing } });
      derivedChanged = true;
    }
    tags = derived.values;
  }
  const missing = missingForMatrix(tags);
  return { events, parsed, parsedChanged, derivedChanged, tags, missing };
}

/**
 * The plan as a run appends it: its events (and the family the link joins, if any) as the one
 * LinkOrganised event a run appends to a link, or none when the run changes nothing of it.
 */
export function planOrganised(link: LinkFacts, joins?: string): LinkPlan {
  const plan = planLink(link);
  return { ...plan, events: organisedEvents(link.id, plan.events, joins) };
}

/** LinkParsed, LinkTagsDerived and a join, as one LinkOrganised (src/catalog/links/events.ts). */
export function organisedEvents(linkId: string, events: readonly PendingEvent[], joins?: string): PendingEvent[] {
  const data: Record<string, unknown> = {};
  for (const e of events) {
    const { linkId: _id, ...d } = e.data as Record<string, unknown>;
    if (e.type === 'LinkParsed') data.parsed = d;
    else if (e.type === 'LinkTagsDerived') Object.assign(data, d);
    else throw new Error(`an organisation plan has no ${e.type}`);
  }
  if (joins) data.familyId = joins;
  return Object.keys(data).length ? [{ type: 'LinkOrganised', data: { linkId, ...data } }] : [];
}

/** Craft and logistics missing from a link's tags: without them it contributes no matrix cell. */
export function missingForMatrix(tags: DimensionValues | null): Dimension[] {
  return (['craft', 'logistics'] as const).filter((d) => !tags || tags[d].length === 0);
}
