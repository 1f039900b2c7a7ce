/**
 * The mirror's decisions, pure: given what the service last recorded about a supplier object and
 * what the supplier says now, which events (if any) record the difference. Nothing here does I/O.
 */
import type { LinkDetail, LinkMirrorData } from '../catalog/links/events';
import { linkMirrorHash } from '../catalog/links/mirror';
import type { Category, Country, Detail, Link } from './supplier/schemas';
import { cleanCategoryName } from '../catalog/domain/names';
import { contentHash, hashOfStableJson, stableJson } from '../platform/content-hash';
import type { CountKey, Counts } from '../contract/sync';

export interface PendingEvent {
  type: string;
  data: unknown;
  /** `stableJson(data)`, when the decision wrote it already (its event id is derived from it) */
  stable?: string;
}

export type { CountKey, Counts };
export const zeroCounts = (): Counts => ({ created: 0, changed: 0, unchanged: 0, delisted: 0, relisted: 0, failed: 0 });

export interface Decision {
  events: PendingEvent[];
  counts: Partial<Counts>;
  /** what was left out, recorded as an error of the run (the item counted `failed`) */
  problem?: { item: string; message: string };
}

/** What a decision reads beyond the item: the categories that are not live (deleted, or removed by the supplier). */
export interface MirrorFacts {
  removedCategories: ReadonlySet<string>;
}

export const NO_FACTS: MirrorFacts = { removedCategories: new Set() };

// ---------------------------------------------------------------- links

/** What the service knows of a link's mirror, from the read model or folded from its stream. */
export interface LinkMirrorState {
  revision: bigint;
  mirrorHash: string | null;
  delisted: boolean;
  detailHash: string | null;
  /** the category the link is filed under */
  categoryId: string | null;
}

export function linkMirrorData(link: Link): LinkMirrorData {
  return {
    linkId: link.id,
    name: link.name,
    categoryId: link.categoryId,
    craftLabel: link.craftLabel,
    price: link.price,
    image: link.image || null,
    status: link.status,
    supplierUpdatedAt: link.updatedAt,
  };
}

/**
 * A listing entry that would file a link under a category that is not live, and that the link is not
 * filed under already, is not mirrored: a deleted category is never named again (docs/api.md, Usage),
 * as an administrator's write naming it is refused. The entry is recorded as an error of the run and
 * decided again by the next listing pass (the next categories pass brings back a category the
 * supplier still lists). Its listing state (off sale or on sale again) is still mirrored.
 */
export function diffLink(current: LinkMirrorState | undefined, link: Link, facts: MirrorFacts = NO_FACTS): Decision {
  const data = linkMirrorData(link);
  const offSale = link.status === 'OFF_SALE';
  const heldBack =
    facts.removedCategories.has(link.categoryId) && current?.categoryId !== link.categoryId
      ? { item: link.id, message: `category ${link.categoryId} is deleted or removed: the link is not filed under it until a categories pass lists it again` }
      : undefined;
  if (!current || current.mirrorHash === null) {
    if (heldBack) return { events: [], counts: { failed: 1 }, problem: heldBack };
    const events: PendingEvent[] = [{ type: 'LinkMirrored', data }];
    if (offSale) events.push({ type: 'LinkDelisted', data: { linkId: link.id, reason: 'OFF_SALE' } });
    return { events, counts: offSale ? { created: 1, delisted: 1 } : { created: 1 } };
  }
  const events: PendingEvent[] = [];
  const counts: Partial<Counts> = {};
  if (linkMirrorHash(data) !== current.mirrorHash) {
    if (heldBack) counts.failed = 1;
    else {
      events.push({ type: 'LinkMirrored', data });
      counts.changed = 1;
    }
  }
  if (offSale && !current.delisted) {
    events.push({ type: 'LinkDelisted', data: { linkId: link.id, reason: 'OFF_SALE' } });
    counts.delisted = 1;
  } else if (!offSale && current.delisted) {
    events.push({ type: 'LinkRelisted', data: { linkId: link.id } });
    counts.relisted = 1;
  }
  if (events.length === 0 && !counts.failed) counts.unchanged = 1;
  return counts.failed ? { events, counts, problem: heldBack } : { events, counts };
}

/** After a complete listing pass: links the pass did not see and that are still listed. */
export function linksToDelist(known: ReadonlyMap<string, LinkMirrorState>, seen: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const [id, s] of known) if (!s.delisted && s.mirrorHash !== null && !seen.has(id)) out.push(id);
  return out.sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
}

export function delistDecision(linkId: string): Decision {
  return { events: [{ type: 'LinkDelisted', data: { linkId, reason: 'MISSING_FROM_LISTING' } }], counts: { delisted: 1 } };
}

export function linkDetailData(detail: Detail): LinkDetail {
  return {
    variants: detail.variants,
    sizeChart: detail.sizeChart,
    packagingSpecs: detail.packagingSpecs,
    options: detail.options,
    media: detail.media,
  };
}

export function diffDetail(current: LinkMirrorState, detail: Detail): Decision {
  const data = linkDetailData(detail);
  const text = stableJson(data);
  if (current.detailHash === hashOfStableJson(text)) return { events: [], counts: { unchanged: 1 } };
  // The event's stable text holds the detail's as it is (keys in order: detail, linkId), so its id
  // is derived without writing the detail out again: a details sync wrote each one three times.
  return {
    events: [{ type: 'LinkDetailSynced', data: { linkId: detail.id, detail: data }, stable: `{"detail":${text},"linkId":${JSON.stringify(detail.id)}}` }],
    counts: current.detailHash === null ? { created: 1 } : { changed: 1 },
  };
}

/** Folds a link stream into its mirror state (used when the read model was stale). */
export function evolveLinkMirror(state: LinkMirrorState, event: { type: string; data: unknown; revision: bigint }): LinkMirrorState {
  const next = { ...state, revision: event.revision };
  switch (event.type) {
    case 'LinkMirrored':
      return { ...next, mirrorHash: linkMirrorHash(event.data as LinkMirrorData), categoryId: (event.data as LinkMirrorData).categoryId };
    case 'LinkDelisted':
      return { ...next, delisted: true };
    case 'LinkRelisted':
      return { ...next, delisted: false };
    case 'LinkDetailSynced':
      return { ...next, detailHash: contentHash((event.data as { detail: LinkDetail }).detail) };
    default:
      return next; // organisation's events on the same stream do not touch the mirror
  }
}

export const emptyLinkMirror = (): LinkMirrorState => ({ revision: -1n, mirrorHash: null, delisted: false, detailHash: null, categoryId: null });

// ---------------------------------------------------------------- categories and countries

export interface MirrorState {
  revision: bigint;
  mirrorHash: string | null;
  removed: boolean;
  /** a category's: the parent it is filed under */
  parentId?: string | null;
}

/** An empty icon counts as none. */
export function normaliseIcon(icon: string | null | undefined): string | null {
  const t = icon?.trim();
  return t ? t : null;
}

export function categoryMirrorFields(c: Category) {
  return {
    categoryId: c.id,
    parentId: c.parentId,
    name: cleanCategoryName(c.name),
    rawName: c.name,
    icon: normaliseIcon(c.icon),
    supplierSort: c.sort,
  };
}

/**
 * A category the supplier files under a parent that is not live (deleted by an administrator, or
 * removed by the supplier) is not mirrored unless it is a live child of that parent already, as a
 * listing entry is held back from such a category (`diffLink`): the parent's delete counted no such
 * child. It is recorded as an error of the run, and decided again by the next categories pass.
 */
export function diffCategory(current: MirrorState | undefined, c: Category, facts: MirrorFacts = NO_FACTS): Decision {
  const fields = categoryMirrorFields(c);
  const hash = contentHash(fields);
  if (current && current.mirrorHash === hash && !current.removed) return { events: [], counts: { unchanged: 1 } };
  const filedAlready = !!current && !current.removed && current.parentId === c.parentId;
  if (c.parentId !== null && facts.removedCategories.has(c.parentId) && !filedAlready) {
    const message = `parent category ${c.parentId} is deleted or removed: category ${c.id} is not filed under it until a categories pass lists the parent again`;
    return { events: [], counts: { failed: 1 }, problem: { item: c.id, message } };
  }
  if (!current || current.mirrorHash === null) {
    // First sight: sortOrder is backfilled from the supplier's ordering; administrators own it afterwards.
    return { events: [{ type: 'CategoryMirrored', data: { ...fields, sortOrder: c.sort } }], counts: { created: 1 } };
  }
  return { events: [{ type: 'CategoryMirrored', data: { ...fields, sortOrder: null } }], counts: current.removed ? { relisted: 1 } : { changed: 1 } };
}

export function diffCountry(current: MirrorState | undefined, c: Country): Decision {
  const data = { countryId: c.id, name: c.name, code: c.code };
  if (!current || current.mirrorHash === null) return { events: [{ type: 'CountryMirrored', data }], counts: { created: 1 } };
  if (current.mirrorHash === contentHash(data) && !current.removed) return { events: [], counts: { unchanged: 1 } };
  return { events: [{ type: 'CountryMirrored', data }], counts: current.removed ? { relisted: 1 } : { changed: 1 } };
}

/**
 * Of the categories in `removed` (not live in the read models), those still not live once the
 * listed categories are mirrored: a listed one that the pass mirrors again (brought back, or changed
 * while a delete was appended) is live again, unless its own parent keeps it back (`diffCategory`).
 * A categories pass files children under the rest of them as the facts' `removedCategories`.
 */
export function categoriesStillRemoved(listed: readonly Category[], known: ReadonlyMap<string, MirrorState>, removed: ReadonlySet<string>): Set<string> {
  const still = new Set(removed);
  for (let changed = true; changed;) {
    changed = false;
    for (const c of listed) {
      if (still.has(c.id) && diffCategory(known.get(c.id), c, { removedCategories: still }).events.length > 0) {
        still.delete(c.id);
        changed = true;
      }
    }
  }
  return still;
}

/** Known, not removed, and absent from a complete listing. */
export function missingFrom<S extends { removed: boolean; mirrorHash: string | null }>(known: ReadonlyMap<string, S>, seen: ReadonlySet<string>): string[] {
  return [...known].filter(([id, s]) => !s.removed && s.mirrorHash !== null && !seen.has(id)).map(([id]) => id);
}
