import fc from 'fast-check';
import { serialise } from '../../../src/platform/cache/public-cache';
import { indexJsonArray, pageOf } from '../../../src/storefront/page-slice';

const elements = (json: string): unknown[] => {
  const body = Buffer.from(json, 'utf8');
  const { starts, ends } = indexJsonArray(body);
  return Array.from(starts, (s, i) => JSON.parse(body.subarray(s, ends[i]).toString('utf8')));
};

describe('indexing a cached JSON array', () => {
  it('finds every top-level element, whatever its strings hold', () => {
    const tricky = [
      { name: 'a,b]c}d', quote: 'say "hi"', backslash: 'C:\\', both: '\\"', emoji: '尺码 😀' },
      [1, [2, [3]], { x: [] }],
      'plain',
      '',
      '\\',
      0,
      -1.5e-7,
      null,
      true,
      {},
      [],
    ];
    expect(elements(JSON.stringify(tricky))).toEqual(tricky);
  });

  it('accepts white space anywhere JSON does, and the empty array', () => {
    expect(elements(' [ ]')).toEqual([]);
    expect(elements('[\n {"a": [1, 2]} ,\t"x" ,3 ]')).toEqual([{ a: [1, 2] }, 'x', 3]);
  });

  it('refuses what is not an array', () => {
    expect(() => indexJsonArray(Buffer.from('{"items":[]}'))).toThrow(TypeError);
    expect(() => indexJsonArray(Buffer.from('[1, "unterminated'))).toThrow(TypeError);
    expect(() => indexJsonArray(Buffer.from('[1, 2'))).toThrow(TypeError);
  });

  it('agrees with JSON.parse on any JSON array (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue()), (list) => {
        const json = JSON.stringify(list);
        expect(elements(json)).toEqual(JSON.parse(json));
      }),
      { numRuns: 300 },
    );
  });
});

describe('a page cut from a cached list', () => {
  const items = Array.from({ length: 45 }, (_, i) => ({ goodId: String(1000 + i), name: `名字 "${i}", [x]` }));
  const list = serialise(items);

  it('is {items, total, page, pageSize} with the window of the whole list', () => {
    for (const [page, pageSize] of [
      [1, 20],
      [2, 20],
      [3, 20],
      [4, 20],
      [1, 100],
      [45, 1],
    ] as const) {
      const p = pageOf(list, page, pageSize);
      const expected = { items: items.slice((page - 1) * pageSize, page * pageSize), total: 45, page, pageSize };
      expect(p.body.toString('utf8')).toBe(JSON.stringify(expected));
    }
  });

  it('has an ETag per list and window: equal bytes, equal tag; different pages, different tags', () => {
    const a = pageOf(list, 2, 20);
    expect(pageOf(list, 2, 20)).toEqual(a);
    expect(pageOf(list, 3, 20).etag).not.toBe(a.etag);
    expect(pageOf(list, 2, 10).etag).not.toBe(a.etag);
    const changed = serialise([{ ...items[0], name: 'changed' }, ...items.slice(1)]);
    expect(pageOf(changed, 2, 20).etag).not.toBe(a.etag);
    expect(a.etag).toMatch(/^"[^"]+"$/);
  });

  it('of an empty list is an empty page with total 0', () => {
    expect(JSON.parse(pageOf(serialise([]), 1, 20).body.toString())).toEqual({ items: [], total: 0, page: 1, pageSize: 20 });
  });
});
