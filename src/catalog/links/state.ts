/**
 * A link's state folded from its stream (`link-<id>`): what commands decide on when the read model
 * cannot be trusted (a conflict, an audit).
 */
import type { StreamSpec } from '../../platform/commands';
import { linkStreamId, type DimensionValues, type LinkDetail, type LinkEvent } from './events';

export interface LinkState {
  exists: boolean;
  name: string;
  categoryId: string | null;
  price: string;
  delisted: boolean;
  detail: LinkDetail | null;
  parsed: { country: string; logistics: string; productName: string; sku: string; familyNameKey: string } | null;
  tags: DimensionValues | null;
  tagsManual: boolean;
  familyId: string | null;
  /** the good this link is the primary origin of */
  goodId: string | null;
}

export const initialLinkState = (): LinkState => ({
  exists: false,
  name: '',
  categoryId: null,
  price: '0',
  delisted: false,
  detail: null,
  parsed: null,
  tags: null,
  tagsManual: false,
  familyId: null,
  goodId: null,
});

export function evolveLink(s: LinkState, e: LinkEvent): LinkState {
  switch (e.type) {
    case 'LinkMirrored': {
      const m = e.data;
      return { ...s, exists: true, name: m.name, categoryId: m.categoryId, price: m.price };
    }
    case 'LinkDelisted':
      return { ...s, delisted: true };
    case 'LinkRelisted':
      return { ...s, delisted: false };
    case 'LinkDetailSynced':
      return { ...s, detail: e.data.detail };
    case 'LinkParsed': {
      const { linkId: _id, ...parsed } = e.data;
      return { ...s, parsed };
    }
    case 'LinkTagsDerived':
    case 'LinkTagsRestored':
      return { ...s, tags: e.data.tags, tagsManual: false };
    case 'LinkTagsTakenOver':
      return { ...s, tags: e.data.tags, tagsManual: true };
    case 'LinkJoinedFamily':
      return { ...s, familyId: e.data.familyId };
    case 'LinkLeftFamily':
      return { ...s, familyId: null };
    case 'LinkOrganised': {
      const d = e.data;
      return {
        ...s,
        ...(d.parsed ? { parsed: d.parsed } : {}),
        ...(d.tags ? { tags: d.tags, tagsManual: false } : {}),
        ...(d.familyId ? { familyId: d.familyId } : {}),
      };
    }
    case 'LinkGoodAssigned':
      return { ...s, goodId: e.data.goodId };
    case 'LinkGoodUnassigned':
      return { ...s, goodId: null };
    default: {
      const _exhaustive: never = e;
      return s;
    }
  }
}

export const linkStream = (linkId: string): StreamSpec<LinkState, LinkEvent> => ({
  streamId: linkStreamId(linkId),
  initial: initialLinkState,
  evolve: evolveLink,
});
