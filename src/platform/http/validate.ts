/**
 * Query-string validation. Express turns `?page=1&page=2` into an array (and the extended parser turns
 * `?a[b]=1` into an object); `z.coerce` would quietly make `['5']` into 5 and `['a','b']` into "a,b".
 * `parseQuery` therefore refuses an array or object value unless the schema's field is itself an
 * array, tuple, object, record (or any/unknown), then parses with the schema: a 400 either way.
 */
import { z } from 'zod';
import { AppError } from '../errors';
import { parseWith } from './errors';

type Def = { type: string; innerType?: z.ZodType; in?: z.ZodType; out?: z.ZodType; options?: z.ZodType[]; left?: z.ZodType; right?: z.ZodType };

/** Whether a field schema accepts a non-string (array or object) value as it comes from the query parser. */
export function acceptsStructured(schema: z.ZodType | undefined): boolean {
  if (!schema) return false;
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  switch (def.type) {
    case 'array':
    case 'tuple':
    case 'object':
    case 'record':
    case 'map':
    case 'set':
    case 'any':
    case 'unknown':
      return true;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return acceptsStructured(def.innerType);
    case 'pipe':
      return acceptsStructured(def.in);
    case 'union':
      return (def.options ?? []).some(acceptsStructured);
    case 'intersection':
      return acceptsStructured(def.left) && acceptsStructured(def.right);
    default:
      return false;
  }
}

export function parseQuery<S extends z.ZodObject>(schema: S, query: unknown, what = 'query'): z.infer<S> {
  const q = query && typeof query === 'object' ? (query as Record<string, unknown>) : {};
  const shape = schema.shape as Record<string, z.ZodType>;
  const bad = Object.keys(q).filter((k) => {
    const v = q[k];
    if (typeof v === 'string') return false;
    return !(Object.prototype.hasOwnProperty.call(shape, k) && acceptsStructured(shape[k]));
  });
  if (bad.length) {
    throw AppError.badRequest(
      'VALIDATION_FAILED',
      `${what} is invalid`,
      bad.map((k) => ({ path: k, message: 'must be given once, as a plain value', code: 'invalid_type' })),
    );
  }
  // A null-prototype copy: keys such as `__proto__` stay plain data all the way into the schema.
  const copy = Object.assign(Object.create(null) as Record<string, unknown>, q);
  return parseWith(schema, copy, what);
}
