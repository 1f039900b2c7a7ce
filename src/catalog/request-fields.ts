/**
 * Request fields the catalog's admin slices share (docs/http-contract.md, Values the storefront shows; Money and numbers).
 */
import { z } from 'zod';
import { VISIBLE_PATTERN, hasVisibleText, int32Field } from '../platform/http/fields';
import { foldWhitespace } from './domain/names';

/** A display name in a request: white space folded, then 1..max characters, something of it visible. */
export const nameField = (max = 100) =>
  z
    .string()
    .transform(foldWhitespace)
    .pipe(z.string().min(1).max(max).refine(hasVisibleText, { message: 'must contain a visible character' }))
    .meta({ minLength: 1, pattern: VISIBLE_PATTERN, description: `${max} characters at most once white space is folded, something of it visible` });

/** A display order value in a request: a 32-bit integer. */
export const sortOrderField = int32Field();
