/**
 * A `GoodCreated` event's data with nothing set but its id, its link (null: a custom good) and its
 * name, and whatever `extra` a test cares about: the fields as the good's events define them
 * (src/catalog/goods/events.ts).
 */
export const goodCreatedData = (goodId: string, originGoodId: string | null, name: string, extra: Record<string, unknown> = {}) => ({
  goodId,
  originGoodId,
  name,
  description: null,
  image: null,
  goodPriority: 0,
  tagIds: [],
  tagFontColor: null,
  categoryId: null,
  countryId: null,
  ...extra,
});
