/**
 * Pages cut from a cached list (docs/api.md, Public read caching, rule 5: the list cache holds the full
 * materialised list; the page slice is computed per request outside the cache).
 *
 * The public cache keeps every response serialised (a Buffer and its ETag), so the list is cached
 * as the JSON text of the whole array. A page is then a byte range of that text: the elements'
 * offsets are found once per cached Buffer (one linear scan, remembered in a WeakMap that lets go
 * with the Buffer) and each request copies only its own elements. A cache hit therefore costs no
 * JSON parsing, no serialising and no hashing, whatever the size of the list.
 */
import type { CachedResponse } from '../platform/cache/public-cache';
import { contentHash } from '../platform/content-hash';
import type { CategorySuggestion } from '../contract/page';

/** Element `i` of the array is `body.subarray(starts[i], ends[i])`. */
export interface ArrayIndex {
  readonly starts: Uint32Array;
  readonly ends: Uint32Array;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/**
 * Offsets of the top-level elements of a JSON array. UTF-8 continuation bytes are all ≥ 0x80, so
 * comparing bytes with ASCII structural characters is safe; string contents (brackets, commas,
 * escaped quotes) are skipped. Throws when the text is not a JSON array.
 */
export function indexJsonArray(body: Uint8Array): ArrayIndex {
  let i = 0;
  while (i < body.length && isSpace(body[i]!)) i++;
  if (body[i] !== OPEN_BRACKET) throw new TypeError('indexJsonArray: not a JSON array');
  const starts: number[] = [];
  const ends: number[] = [];
  let depth = 1;
  let inString = false;
  let escaped = false;
  let start = -1;
  const close = (at: number) => {
    if (start < 0) return;
    let end = at;
    while (end > start && isSpace(body[end - 1]!)) end--;
    starts.push(start);
    ends.push(end);
    start = -1;
  };
  for (i++; i < body.length; i++) {
    const c = body[i]!;
    if (inString) {
      if (escaped) escaped = false;
      else if (c === BACKSLASH) escaped = true;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (isSpace(c)) continue;
    if (depth === 1 && start < 0 && c !== COMMA && c !== CLOSE_BRACKET) start = i;
    switch (c) {
      case QUOTE:
        inString = true;
        break;
      case OPEN_BRACE:
      case OPEN_BRACKET:
        depth++;
        break;
      case CLOSE_BRACE:
      case CLOSE_BRACKET:
        depth--;
        if (depth === 0) {
          close(i);
          return { starts: Uint32Array.from(starts), ends: Uint32Array.from(ends) };
        }
        break;
      case COMMA:
        if (depth === 1) close(i);
        break;
    }
  }
  throw new TypeError('indexJsonArray: unterminated JSON array');
}

const indexes = new WeakMap<Buffer, ArrayIndex>();

/** The index of a list body its writer already knows (./list-bytes.ts): then it is never scanned. */
export function rememberArrayIndex(body: Buffer, index: ArrayIndex): void {
  indexes.set(body, index);
}

/** The index of a cached list body, computed on first use of that Buffer. */
export function arrayIndexOf(body: Buffer): ArrayIndex {
  let index = indexes.get(body);
  if (!index) indexes.set(body, (index = indexJsonArray(body)));
  return index;
}

const ITEMS_OPEN = Buffer.from('{"items":[');

/**
 * `{items, total, page, pageSize}` for one page of a cached list (docs/api.md, Paging). The ETag derives from the
 * list's: the page's bytes are a function of the list's bytes and the window, so equal tags mean
 * equal bytes (a strong validator) without hashing the page.
 */
export function pageOf(list: CachedResponse, page: number, pageSize: number, suggestions?: readonly CategorySuggestion[]): CachedResponse {
  const { starts, ends } = arrayIndexOf(list.body);
  const total = starts.length;
  const first = Math.min((page - 1) * pageSize, total);
  const last = Math.min(first + pageSize, total); // exclusive
  const items = last > first ? list.body.subarray(starts[first]!, ends[last - 1]!) : Buffer.alloc(0);
  const extra = suggestions ? `,"suggestions":${JSON.stringify(suggestions)}` : '';
  const tail = Buffer.from(`],"total":${total},"page":${page},"pageSize":${pageSize}${extra}}`);
  const opaque = list.etag.replace(/^W\//, '').replace(/^"|"$/g, '');
  // Every empty list has the same bytes: the suggestions' own hash tells their answers apart.
  const marked = suggestions ? `.s${contentHash(extra)}` : '';
  return { body: Buffer.concat([ITEMS_OPEN, items, tail]), etag: `"${opaque}.${page}.${pageSize}${marked}"` };
}
