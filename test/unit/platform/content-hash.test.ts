import fc from 'fast-check';
import { sameContent, stableJson, stableJsonByHand } from '../../../src/platform/content-hash';

/** The same value with every object's keys in reverse order (equal content, other text). */
const reordered = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.map(reordered);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.entries(v as Record<string, unknown>)
      .reverse()
      .map(([k, x]) => [k, reordered(x)]),
  );
};

describe('sameContent says what comparing stableJson texts says', () => {
  it('given any two JSON values, or a value and its reordered copy, then both comparisons agree', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        expect(sameContent(a, b)).toBe(stableJson(a) === stableJson(b));
        expect(sameContent(a, reordered(a))).toBe(true);
      }),
      { numRuns: 500, seed: 1616 },
    );
  });

  it('given values that differ in one place, then they are not the same content', () => {
    expect(sameContent({ size: ['M', 'L'], color: [] }, { color: [], size: ['M', 'L'] })).toBe(true);
    expect(sameContent({ size: ['M', 'L'] }, { size: ['L', 'M'] })).toBe(false);
    expect(sameContent({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameContent({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameContent({ a: null }, {})).toBe(false);
    expect(sameContent([1], { 0: 1 })).toBe(false);
    expect(sameContent('1', 1)).toBe(false);
  });
});

describe('stableJson writes what the reference writes by hand', () => {
  it('given any JSON value, or one with integer-like keys, a __proto__ key, undefined members or array holes, then both texts are equal', () => {
    const odd = fc.oneof(
      fc.jsonValue(),
      fc.dictionary(fc.oneof(fc.string(), fc.nat().map(String), fc.constant('__proto__')), fc.jsonValue()),
      fc.array(fc.option(fc.jsonValue(), { nil: undefined })),
      fc.record({ a: fc.option(fc.string(), { nil: undefined }), d: fc.date({ noInvalidDate: true }) }),
    );
    fc.assert(
      fc.property(odd, (v) => {
        expect(stableJson(v)).toBe(stableJsonByHand(v));
      }),
      { numRuns: 1000, seed: 1616 },
    );
    const holes = [1, , 3]; // eslint-disable-line no-sparse-arrays
    expect(stableJson(holes)).toBe(stableJsonByHand(holes));
    expect(stableJson({ b: 1, a: { '10': 1, '9': 2, x: [1, { z: 1, y: 2 }] } })).toBe('{"a":{"10":1,"9":2,"x":[1,{"y":2,"z":1}]},"b":1}');
  });
});
