/** A good folded from its stream (`good-<id>`). */
import type { StreamSpec } from '../../platform/commands';
import { goodStreamId, type GoodEvent } from './events';

export interface GoodFields {
  name: string;
  description: string | null;
  image: string | null;
  goodPriority: number;
  tagIds: string[];
  tagFontColor: string | null;
  categoryId: string | null;
  countryId: string | null;
}

export interface GoodState extends GoodFields {
  id: string;
  exists: boolean;
  deleted: boolean;
  originGoodId: string | null;
  secondaryOriginGoodIds: string[];
}

export const initialGoodState = (id: string) => (): GoodState => ({
  id,
  exists: false,
  deleted: false,
  originGoodId: null,
  secondaryOriginGoodIds: [],
  name: '',
  description: null,
  image: null,
  goodPriority: 0,
  tagIds: [],
  tagFontColor: null,
  categoryId: null,
  countryId: null,
});

export function evolveGood(s: GoodState, e: { type: string; data: unknown }): GoodState {
  const d = e.data as Partial<GoodState> & Record<string, unknown>;
  switch (e.type) {
    case 'GoodCreated': {
      const { goodId: _id, ...fields } = d;
      return { ...s, ...(fields as Partial<GoodState>), exists: true };
    }
    case 'GoodUpdated': {
      const { goodId: _id, ...fields } = d;
      const defined = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
      return { ...s, ...(defined as Partial<GoodState>) };
    }
    case 'GoodOriginsSet':
      return { ...s, secondaryOriginGoodIds: d.secondaryOriginGoodIds as string[] };
    case 'GoodDeleted':
      return { ...s, deleted: true };
    default:
      return s;
  }
}

export const goodStream = (id: string): StreamSpec<GoodState, GoodEvent> => ({ streamId: goodStreamId(id), initial: initialGoodState(id), evolve: evolveGood });
