/**
 * What a category's mirror hash covers: the category as the supplier sends it, which synchronisation
 * compares and the catalog_tree projection stores (categories.mirror_hash).
 */
import { contentHash } from '../../platform/content-hash';

/** The sort order is the administrators' once the category is known: it is no part of the mirror. */
export const categoryMirrorHash = (data: { sortOrder?: unknown } & Record<string, unknown>): string => {
  const { sortOrder: _owned, ...fields } = data;
  return contentHash(fields);
};
