/**
 * The admin's Chinese texts against the server's registry of error codes: every code the server can
 * answer has a text, no text shows the server's English or a raw id, and validation issues become
 * messages per field.
 */
import { ApiError } from '../../../web/shared/http';
import { CODE_TEXT, NETWORK_TEXT, errorText, fieldErrors } from '../../../web/admin/src/common/error-text';
import { ERROR_CODES, errorCodes } from '../../../src/platform/error-codes';

const CJK = /[\u4e00-\u9fff]/;

describe('the admin’s error texts', () => {
  it('has a Chinese text for every code of the server’s registry', () => {
    const missing = errorCodes().filter((c) => !CODE_TEXT[c]);
    expect(missing).toEqual([]);
    for (const c of errorCodes()) {
      expect(CODE_TEXT[c]).toMatch(CJK);
      // No code and no English sentence (the server's message) in the text itself.
      expect(CODE_TEXT[c]).not.toMatch(/[A-Z_]{3,}|[a-z]+ [a-z]+/);
    }
    // And no text for a code the server cannot answer (a code renamed or gone).
    expect(Object.keys(CODE_TEXT).filter((c) => !(c in ERROR_CODES))).toEqual([]);
    // Not vacuous: the registry is the real one.
    expect(errorCodes().length).toBeGreaterThan(80);
    expect(ERROR_CODES['COUNTRY.CODE_TAKEN'].status).toBe(409);
  });

  it('shows the text for the code, never the server’s message or the ids in it', () => {
    const e = new ApiError(409, 'COUNTRY.CODE_TAKEN', 'country 1 already has code US', { countryId: '1' });
    expect(errorText(e)).toBe('已有其他国家使用这个代码');
    const group = new ApiError(409, 'TAG_GROUP.HAS_TAGS', 'tag group 385447107957358854 still has 3 tag(s)', { tagCount: 3 });
    expect(errorText(group)).toBe('标签组里还有 3 个标签，请先删除或移走它们');
    expect(errorText(group)).not.toMatch(/385447107957358854/);
  });

  it('says the network failed when the request never got an answer, and a status’s meaning for an unknown code', () => {
    expect(errorText(new TypeError('Failed to fetch'))).toBe(NETWORK_TEXT);
    expect(errorText(new ApiError(502, 'HTTP_502', 'Bad Gateway'))).toBe('服务器暂时无法处理，请稍后重试');
    expect(errorText(new ApiError(418, 'SOMETHING.NEW', 'teapot'))).not.toMatch(/teapot|SOMETHING/);
  });

  it('turns validation issues into a message per field, the price’s saying why', () => {
    const e = new ApiError(400, 'VALIDATION_FAILED', 'body is invalid', [
      { path: 'price', message: 'must be a positive amount with at most two decimals, e.g. "12.50"', code: 'invalid_format' },
      { path: 'tags.size.0', message: 'Too small: expected string to have >=1 characters', code: 'too_small' },
    ]);
    expect(fieldErrors(e)).toEqual({ price: '价格须为大于 0 的金额，最多两位小数，如 59.90', tags: '尺码不能为空' });
    const zero = new ApiError(400, 'VALIDATION_FAILED', 'body is invalid', [{ path: 'price', message: 'must be greater than zero', code: 'custom' }]);
    expect(fieldErrors(zero)).toEqual({ price: '价格须大于 0' });
    // One field wrong: the page's message is that field's.
    expect(errorText(zero)).toBe('价格须大于 0');
    expect(fieldErrors(new ApiError(409, 'COUNTRY.CODE_TAKEN', 'x'))).toEqual({});
  });
});
