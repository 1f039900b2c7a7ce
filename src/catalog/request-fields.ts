/**
 * Request fields the catalog's admin slices share (docs/http-contract.md, Values the storefront shows; Money and numbers).
 */
import { z } from 'zod';
import { VISIBLE_PATTERN, hasVisibleText, int32Field } from '../platform/http/fields';
import { foldWhitespace } from './domain/names';

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
