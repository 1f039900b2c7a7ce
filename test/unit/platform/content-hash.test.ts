import fc from 'fast-check';
import { sameContent, stableJson } from '../../../src/platform/content-hash';

/** The same value with every object's keys in reverse order (equal content, other text). */
const reordered = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.map(reordered);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v as Record<string, unknown>).reverse().map(([k, x]) => [k, reordered(x)]));
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
