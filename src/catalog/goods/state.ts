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
  /** 上架 (on) / 下架 (off); a good is created on the shelf */
  shelf: 'on' | 'off';
}

export const initialGoodState = (id: string) => (): GoodState => ({
  id,
  exists: false,
  deleted: false,
  originGoodId: null,
  secondaryOriginGoodIds: [],
  shelf: 'on',
  name: '',
  description: null,
  image: null,
  goodPriority: 0,
  tagIds: [],
  tagFontColor: null,
  categoryId: null,
  countryId: null,
});

export function evolveGood(s: GoodState, e: GoodEvent): GoodState {
  switch (e.type) {
    case 'GoodCreated': {
      const { goodId: _id, ...fields } = e.data;
      return { ...s, ...fields, exists: true };
    }
    case 'GoodUpdated': {
      const { goodId: _id, ...fields } = e.data;
      const defined = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<GoodFields>;
      return { ...s, ...defined };
    }
    case 'GoodOriginsSet':
      return { ...s, secondaryOriginGoodIds: e.data.secondaryOriginGoodIds };
    case 'GoodShelfSet':
      return { ...s, shelf: e.data.state };
    case 'GoodDeleted':
      return { ...s, deleted: true };
    default: {
      const _exhaustive: never = e;
      return s;
    }
  }
}

export const goodStream = (id: string): StreamSpec<GoodState, GoodEvent> => ({ streamId: goodStreamId(id), initial: initialGoodState(id), evolve: evolveGood });
