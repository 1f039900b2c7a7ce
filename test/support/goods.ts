import { GoodCreated } from '../../src/catalog/goods/events';
import { initialGoodState } from '../../src/catalog/goods/state';

/**
 * A `GoodCreated` event's data: its id, its link (null: a custom good), its name and whatever
 * `extra` a test cares about; every other field as a good with nothing set holds it (the good's state
 * before any event, src/catalog/goods/state.ts). Checked against the event's schema, so a test
 * cannot append data the service would refuse.
 */
export function goodCreatedData(goodId: string, originGoodId: string | null, name: string, extra: Record<string, unknown> = {}) {
  const { id: _id, exists: _exists, deleted: _deleted, secondaryOriginGoodIds: _secondary, ...unset } = initialGoodState(goodId)();
  return GoodCreated.schema.parse({ ...unset, goodId, originGoodId, name, ...extra });
}
