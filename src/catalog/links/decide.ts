/**
 * Links, pure: the decisions on a link's stream (`link-<id>`) that administrators and the goods and
 * families slices take: its tags by hand or derived again, its family, the good made from it.
 * Looked-up facts (the values of the tags an administrator chose) come in with the command.
 */
import { AppError } from '../../platform/errors';
import { familyNameKey, parseLinkName } from '../domain/names';
import { deriveLinkTags, emptyDimensionValues, fillMissingDimensions, type DimensionValuesInput } from '../domain/tags';
import type { LinkEvent } from './events';
import type { LinkState } from './state';

export type LinkCommand =
  /** `manual`: the values of the tags the administrator chose; dimensions left empty are filled from the name */
  | { type: 'UpdateLinkTags'; linkId: string; manual: DimensionValuesInput }
  | { type: 'RestoreAutoLinkTags'; linkId: string }
  /** into `familyId`, or out of any family when null */
  | { type: 'MoveLinkToFamily'; linkId: string; familyId: string | null }
  /** the link becomes the primary origin of a new good: at most one good per link */
  | { type: 'AssignGood'; linkId: string; goodId: string }
  /** the good is gone: its link may make a new one */
  | { type: 'UnassignGood'; linkId: string; goodId: string };

export const linkNotFound = (id: string) => AppError.notFound('ORIGIN_GOOD.NOT_FOUND', `no origin good ${id}`);

/** A link never organised is parsed first (single-link organisation), so it can be matched to a family. */
function parseFirst(link: LinkState, linkId: string): { events: LinkEvent[]; parsed: ReturnType<typeof parseLinkName> } {
  const parsed = parseLinkName(link.name);
  if (!parsed || link.parsed) return { events: [], parsed };
  const columns = { country: parsed.country, logistics: parsed.logistics, productName: parsed.productName, sku: parsed.sku, familyNameKey: familyNameKey(parsed) };
  return { events: [{ type: 'LinkParsed', data: { linkId, ...columns } }], parsed };
}

export function decideLink(link: LinkState, command: LinkCommand): LinkEvent[] {
  const { linkId } = command;
  switch (command.type) {
    case 'UpdateLinkTags': {
      if (!link.exists) throw linkNotFound(linkId);
      const { events, parsed } = parseFirst(link, linkId);
      const derived = parsed ? deriveLinkTags(parsed, link.detail).values : emptyDimensionValues();
      const merged = fillMissingDimensions(command.manual, derived);
      return [...events, { type: 'LinkTagsTakenOver', data: { linkId, tags: merged.values, filled: merged.filled } }];
    }
    case 'RestoreAutoLinkTags': {
      if (!link.exists) throw linkNotFound(linkId);
      const { events, parsed } = parseFirst(link, linkId);
      if (!parsed) throw AppError.badRequest('ORIGIN_GOOD.UNPARSEABLE', 'the link name does not follow the grammar; its tags cannot be derived');
      const derived = deriveLinkTags(parsed, link.detail);
      if (!link.tagsManual && JSON.stringify(link.tags) === JSON.stringify(derived.values)) return events;
      return [...events, { type: 'LinkTagsRestored', data: { linkId, tags: derived.values, missing: derived.missing } }];
    }
    case 'MoveLinkToFamily': {
      if (!link.exists) throw linkNotFound(linkId);
      if (link.familyId === command.familyId) return [];
      const events: LinkEvent[] = [];
      if (link.familyId) events.push({ type: 'LinkLeftFamily', data: { linkId, familyId: link.familyId } });
      if (command.familyId) events.push({ type: 'LinkJoinedFamily', data: { linkId, familyId: command.familyId } });
      return events;
    }
    case 'AssignGood':
      if (link.goodId) throw AppError.conflict('GOOD.EXISTS_FOR_LINK', `link ${linkId} already has good ${link.goodId}`, { goodId: link.goodId });
      return [{ type: 'LinkGoodAssigned', data: { linkId, goodId: command.goodId } }];
    case 'UnassignGood':
      // Only the claim of this good: a link the good no longer holds keeps its claim.
      return link.goodId === command.goodId ? [{ type: 'LinkGoodUnassigned', data: { linkId, goodId: command.goodId } }] : [];
    default: {
      const _exhaustive: never = command;
      throw new Error('unknown command');
    }
  }
}
