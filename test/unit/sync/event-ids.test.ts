/**
 * Stored mirror hashes and derived event ids depend on the exact text of `stableJson`: a change would
 * make the next synchronisation see every link as changed and append again. It is held here to the
 * first implementation, kept as the reference, on generated values of every JSON shape.
 */
import fc from 'fast-check';
import { contentHash, stableJson } from '../../../src/platform/content-hash';
import { syncEventId } from '../../../src/sync/event-ids';
import { diffDetail, emptyLinkMirror } from '../../../src/sync/diff';

function reference(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${reference(v)}`).join(',')}}`;
}

describe('stableJson', () => {
  it('writes exactly what the reference writes, for any JSON value (with undefined in objects and arrays)', () => {
    const withUndefined = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constant(undefined),
        fc.constant(null),
        fc.boolean(),
        fc.double({ noNaN: true }),
        fc.integer(),
        fc.string({ unit: 'grapheme' }),
        fc.array(tie('value'), { maxLength: 5 }),
        fc.dictionary(fc.string({ unit: 'binary' }), tie('value'), { maxKeys: 6 }),
      ),
    })).value;
    fc.assert(
      fc.property(withUndefined, (v) => expect(stableJson(v)).toBe(reference(v))),
      { numRuns: 2000 },
    );
  });

  it('sorts keys whatever their insertion order, and its hashes and event ids do not move', () => {
    expect(stableJson({ b: 1, a: [{ d: null, c: '值' }], z: undefined })).toBe('{"a":[{"c":"值","d":null}],"b":1}');
    // Fixed values: these are stored in databases and logs that exist.
    expect(contentHash({ linkId: '100001', price: '39.90' })).toBe(contentHash({ price: '39.90', linkId: '100001' }));
    expect(contentHash({ linkId: '100001', price: '39.90' })).toMatchInlineSnapshot(`"ZcMwOZZ2rWFVNULlvfym233TjPv5Xug6"`);
    expect(syncEventId('link-100001', 'no_stream', 0, 'LinkMirrored', { linkId: '100001' })).toMatchInlineSnapshot(`"6d2c09e6-08ee-5568-b962-7ef0ea5bc749"`);
  });

  it("a detail's event carries its stableJson text, written once with the diff's: the same event id either way", () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constant(null),
        fc.boolean(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.string({ unit: 'grapheme' }),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(fc.string({ unit: 'binary' }), tie('value'), { maxKeys: 5 }),
      ),
    })).value;
    const part = fc.array(json, { maxLength: 3 });
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), part, part, part, part, part, (id, variants, sizeChart, packagingSpecs, options, media) => {
        const detail = { id, variants, sizeChart, packagingSpecs, options, media } as unknown as Parameters<typeof diffDetail>[1];
        const [event] = diffDetail(emptyLinkMirror(), detail).events;
        expect(event!.stable).toBe(stableJson(event!.data));
        expect(syncEventId('link-1', 3n, 0, event!.type, event!.data, event!.stable)).toBe(syncEventId('link-1', 3n, 0, event!.type, event!.data));
      }),
      { numRuns: 500 },
    );
  });
});
