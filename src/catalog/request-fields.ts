/**
 * Request fields the catalog's admin slices share (docs/http-contract.md, Values the storefront shows; Money and numbers).
 */
import { z } from 'zod';
import { VISIBLE_PATTERN, hasVisibleText, int32Field } from '../platform/http/fields';
import { foldWhitespace } from './domain/names';
import { MAX_SEARCH_WORDS, searchWords } from './domain/search';

/**
 * A display name in a request: at most `max` characters as sent, white space then folded, and
 * something of it visible. The length is checked as sent, so it is the `maxLength` the API
 * description states (folding only shortens it).
 */
export const nameField = (max = 100) =>
  z
    .string()
    .max(max)
    .transform(foldWhitespace)
    .pipe(z.string().min(1).refine(hasVisibleText, { message: 'must contain a visible character' }))
    .meta({ minLength: 1, maxLength: max, pattern: VISIBLE_PATTERN, description: `at most ${max} characters, something of them visible; white space is folded` });

/** A display order value in a request: a 32-bit integer. */
export const sortOrderField = int32Field();

/**
 * A search keyword (docs/domain.md, Search): at most 100 characters as sent, trimmed, inner white
 * space folded; blank is no filter; at most MAX_SEARCH_WORDS words. The storefront's list and the
 * administrators' lists take the same field.
 */
export const keywordField = z
  .string()
  .max(100)
  .transform((v) => v.trim().replace(/\s+/g, ' '))
  .refine((v) => searchWords(v).length <= MAX_SEARCH_WORDS, { message: `at most ${MAX_SEARCH_WORDS} words` })
  .transform((v) => (v === '' ? undefined : v))
  .meta({ maxLength: 100, description: `words separated by white space (at most ${MAX_SEARCH_WORDS}), each found in the name or a tag name` });
