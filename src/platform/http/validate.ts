/**
 * Query-string validation. Express turns `?page=1&page=2` into an array (and the extended parser turns
 * `?a[b]=1` into an object); `z.coerce` would quietly make `['5']` into 5 and `['a','b']` into "a,b".
 * `parseQuery` therefore refuses an array or object value unless the schema's field is itself an
 * array, tuple, object, record (or any/unknown), then parses with the schema: a 400 either way.
 */
import type { RequestHandler } from 'express';
import { z } from 'zod';
import { AppError } from '../errors';
import { parseWith } from './errors';
import type { RouteDoc } from './openapi';
import { operationsOf } from './operations';

/**
 * A whole number in a query: plain decimal digits and nothing else, then bounded. `z.coerce.number()`
 * would read `0x14`, `2e1`, ` 20`, `+20` and `20.0` as numbers (Number() does); a client that sends
 * them has a bug worth a 400, and one spelling per value keeps one cache entry per answer.
 */
export function queryInt(min: number, max: number) {
  // A preprocess, not a string-to-number pipe: the OpenAPI description still says integer, min and max.
  return z.preprocess((v, ctx) => {
    if (v !== undefined && typeof v !== 'number' && (typeof v !== 'string' || !/^[0-9]{1,16}$/.test(v))) {
      ctx.addIssue({ code: 'custom', message: 'expected an integer in plain decimal digits' });
    }
    return v;
  }, z.coerce.number().int().min(min).max(max));
}

/** The query of a route that takes none: any key is unknown. */
export const NO_QUERY = z.object({}).strict();

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

/**
 * Docs/api.md, Conventions: an unknown query key is a 400, on every route. Routes with a query parse
 * it strictly themselves (`parseQuery`); this refuses any query key on a route whose documented
 * operation (its RouteDoc, the same list the OpenAPI description is made from) declares no query, so
 * a route added without one gets the rule without doing anything. Mounted in front of the API's routes
 * and of the root's (the health checks, `/metrics`, the home page).
 */
export function refuseUndeclaredQuery(docs: readonly RouteDoc[]): RequestHandler {
  const operationOf = operationsOf(docs);
  return (req, _res, next) => {
    const query = req.query as Record<string, unknown> | undefined;
    const keys = query && typeof query === 'object' ? Object.keys(query) : [];
    if (keys.length === 0) return next();
    const matching = operationOf(req.method, req.path);
    // Unknown routes are the 404's (or 405's); a route with a query of its own judges it with its schema.
    if (matching.length === 0 || matching.some((o) => o.query !== undefined)) return next();
    next(
      AppError.badRequest(
        'VALIDATION_FAILED',
        'query is invalid: this route takes no query parameters',
        keys.map((k) => ({ path: k, message: 'unknown query parameter', code: 'unrecognized_keys' })),
      ),
    );
  };
}
