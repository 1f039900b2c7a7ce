import { z } from 'zod';
import { AppError } from '../../../../src/platform/errors';
import { acceptsStructured, parseQuery } from '../../../../src/platform/http/validate';

describe('parseQuery', () => {
  const schema = z
    .object({
      page: z.coerce.number().int().min(1).default(1),
      keyword: z.string().optional(),
      ids: z.array(z.string()).optional(),
      filter: z.object({ min: z.coerce.number() }).optional(),
    })
    .strict();

  it('parses plain values', () => {
    expect(parseQuery(schema, { page: '3', keyword: 'tee' })).toEqual({ page: 3, keyword: 'tee' });
  });

  it.each([
    ['a repeated scalar', { page: ['1', '2'] }],
    ['a repeated scalar of one value (z.coerce would take it)', { page: ['5'] }],
    ['a repeated string (z.coerce.string would join it)', { keyword: ['a', 'b'] }],
    ['a nested object on a scalar', { keyword: { $ne: 'x' } }],
    ['an unknown nested key', { other: { a: '1' } }],
  ])('refuses %s with 400', (_what, query) => {
    let caught: unknown;
    try {
      parseQuery(schema, query);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect(caught).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
  });

  it('lets arrays and objects through where the schema asks for them', () => {
    expect(parseQuery(schema, { ids: ['1', '2'], filter: { min: '2' } })).toEqual({ page: 1, ids: ['1', '2'], filter: { min: 2 } });
  });

  it('a __proto__ key stays data and is refused by a strict schema, leaving Object.prototype alone', () => {
    const query = JSON.parse('{"__proto__": {"polluted": "yes"}}');
    expect(() => parseQuery(schema, query)).toThrow(AppError);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('sees through optional, default, nullable and pipes', () => {
    expect(acceptsStructured(z.array(z.string()).optional().default([]))).toBe(true);
    expect(acceptsStructured(z.array(z.string()).transform((a) => a.length))).toBe(true);
    expect(acceptsStructured(z.union([z.string(), z.array(z.string())]))).toBe(true);
    expect(acceptsStructured(z.coerce.number().optional())).toBe(false);
    expect(acceptsStructured(z.string().nullable())).toBe(false);
  });
});
