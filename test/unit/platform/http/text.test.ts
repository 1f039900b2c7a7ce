import { findInvalidText, isInvalidText } from '../../../../src/platform/http/text';

describe('findInvalidText', () => {
  it('finds NUL and unpaired surrogates, not paired ones', () => {
    expect(['a\u0000', '\ud800', 'x\udc00y', '\ud83d', '\udc00\ud800'].map(isInvalidText)).toEqual([true, true, true, true, true]);
    expect(['', 'plain', '😀', '中文', '\u200b'].map(isInvalidText)).toEqual([false, false, false, false, false]);
  });

  it('names where, in arrays, objects and keys', () => {
    expect(findInvalidText({ goods: [{ name: 'ok' }, { name: 'a\u0000' }] }, 'body')).toBe('body.goods.1.name');
    expect(findInvalidText({ ['k\ud800']: 1 }, 'body')).toBe('body.k?');
    expect(findInvalidText({ keyword: ['a', '\udfff'] }, 'query')).toBe('query.keyword.1');
    expect(findInvalidText({ a: 1, b: null, c: true, d: ['x'] }, 'body')).toBeNull();
  });

  it('walks a body nested far deeper than the call stack allows', () => {
    let deep: unknown = 'bad\u0000';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(findInvalidText(deep, 'body')).toMatch(/^body(\.0){200000}$/);
  });
});
