/**
 * Text no query and no event may carry (docs/http-contract.md, Text): NUL, which PostgreSQL's text
 * refuses, and a lone UTF-16 surrogate, which jsonb refuses and which is not a character at all.
 *
 * Pure and without express, so the storefront's fast lane and the express edge call the same
 * function. The walk is iterative: a deeply nested body cannot overflow the stack here.
 */

/** NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
const INVALID = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isInvalidText(value: string): boolean {
  return INVALID.test(value);
}

/**
 * The first place in `value` (strings, array items, object keys and values) holding invalid text,
 * named from `where` (`query.keyword`, `body.goods.3.name`), or null when there is none.
 */
export function findInvalidText(value: unknown, where: string): string | null {
  const stack: [unknown, string][] = [[value, where]];
  while (stack.length) {
    const [v, at] = stack.pop()!;
    if (typeof v === 'string') {
      if (INVALID.test(v)) return at;
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${at}.${i}`]);
    } else if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i]!;
        if (INVALID.test(k)) return `${at}.${k.replace(INVALID, '?')}`;
        stack.push([(v as Record<string, unknown>)[k], `${at}.${k}`]);
      }
    }
  }
  return null;
}
