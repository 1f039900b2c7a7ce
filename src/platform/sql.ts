/** An ILIKE pattern matching `keyword` anywhere, with `%`, `_` and `\\` in it taken literally. */
export const likePattern = (keyword: string) => `%${keyword.replace(/[\\%_]/g, (ch) => '\\' + ch)}%`;
