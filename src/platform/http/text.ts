/**
 * Text no query and no event may carry (docs/http-contract.md, Text): NUL, which PostgreSQL's text
 * refuses, and a lone UTF-16 surrogate, which jsonb refuses and which is not a character at all.
 *
 * Pure and without express, so the storefront's fast lane and the express edge call the same
 * function. The walk is iterative: a deeply nested body cannot overflow the stack here.
 *
 * Bytes that are not UTF-8 are the same fault one layer down: a JSON body's decoder and the query
 * parser would turn them into U+FFFD and store that, where the same character sent as `\ud800` is
 * refused. So the raw bytes are checked too (`isUtf8`), before anything decodes them.
 */
import { isUtf8 } from 'node:buffer';

/** NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
// eslint-disable-next-line no-control-regex -- NUL is what it looks for
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

/**
 * The first parameter of a raw query string (what follows `?`) whose percent-escapes decode to bytes
 * that are not UTF-8, named `query.<key>`, or null. A `%` that starts no escape stays literal, as the
 * query parser keeps it (`100%` is a keyword).
 */
/** The bytes a query part stands for: `+` a space, each `%XX` its byte, anything else its UTF-8. */
function queryBytes(part: string): Buffer {
  const out: number[] = [];
  for (let i = 0; i < part.length; i++) {
    const c = part.charCodeAt(i);
    if (c === 0x25 && /^[0-9a-fA-F]{2}$/.test(part.slice(i + 1, i + 3))) {
      out.push(parseInt(part.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (c === 0x2b) out.push(0x20);
    else if (c < 0x80) out.push(c);
    else {
      // A character typed unescaped (a browser escapes them; curl need not): its own UTF-8, pairs kept whole.
      const ch = String.fromCodePoint(part.codePointAt(i)!);
      for (const b of Buffer.from(ch, 'utf8')) out.push(b);
      i += ch.length - 1;
    }
  }
  return Buffer.from(out);
}

export function findNonUtf8Query(rawQuery: string): string | null {
  if (!rawQuery.includes('%')) return null;
  for (const pair of rawQuery.split('&')) {
    if (!pair.includes('%')) continue;
    const eq = pair.indexOf('=');
    const key = queryBytes(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? null : queryBytes(pair.slice(eq + 1));
    if (!isUtf8(key)) return 'query.?';
    if (value && !isUtf8(value)) return `query.${key.toString('utf8')}`;
  }
  return null;
}

/** Whether raw body bytes are UTF-8 (JSON bodies must be: RFC 8259 §8.1). */
export function isUtf8Bytes(bytes: Uint8Array): boolean {
  return isUtf8(bytes);
}
