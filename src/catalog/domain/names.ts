/**
 * Names of links, goods and families (docs/domain.md,
 * Names and Families). Pure string functions: no I/O, no clock.
 */

/** Runs of white space as one space, none at either end: how every name is stored and compared. */
export function foldWhitespace(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** Names compare without case and with white space folded, so `Red` and ` red ` are one name. */
export const nameKey = (name: string) => foldWhitespace(name).toLowerCase();

const SEGMENT = /[（(][^（()）]*[)）]/g;

/**
 * Category name cleaning (docs/domain.md, Category names): every parenthesised segment goes,
 * whatever its content, with half- and full-width brackets pairing freely (`（男款)` is one
 * segment); a bare style-code token outside brackets stays; white space is folded; a name that would
 * become empty keeps its original form.
 */
export function cleanCategoryName(raw: string): string {
  let s = raw;
  // Repeat so nested brackets go from the inside out.
  for (let prev = ''; prev !== s;) {
    prev = s;
    s = s.replace(SEGMENT, ' ');
  }
  const cleaned = foldWhitespace(s);
  return cleaned === '' ? raw : cleaned;
}

/**
 * A style code (SKU): 0–4 ASCII letters, 2+ digits, then optional letters, digits or `-`
 * (`G5000`, `18500`, `TB01`, `DT6000-2`). `\d` without the `u` flag is ASCII-only, so full-width
 * digits never make a style code.
 */
const STYLE_CODE = /^[A-Za-z]{0,4}[0-9]{2,}[A-Za-z0-9-]*$/;

const OPENERS = new Set(['(', '（']);
const CLOSERS = new Set([')', '）']);

export function isStyleCode(token: string): boolean {
  return STYLE_CODE.test(token);
}

/** The style code in its stored form (upper case), or null when the token is not a style code. */
export function normaliseSku(token: string): string | null {
  const t = token.trim();
  return isStyleCode(t) ? t.toUpperCase() : null;
}

export interface ParsedLinkName {
  country: string;
  logistics: string;
  productName: string;
  sku: string;
  /** Tokens after the SKU, as written (`直喷双面`, `热转印单面`, `光板`). */
  descriptors: string[];
}

/**
 * The outermost matched bracket pairs of a text, as [open, close] positions in text order; brackets
 * of either width pair freely (`（男款)`). A bracket without a partner is an ordinary character, so
 * a stray `(` never hides the rest of a name.
 */
function outermostSegments(s: string): [number, number][] {
  const open: number[] = [];
  const pairs: [number, number][] = [];
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (OPENERS.has(ch)) open.push(i);
    else if (CLOSERS.has(ch) && open.length > 0) pairs.push([open.pop()!, i]);
  }
  // Pairs close inner-first; keep those no other pair encloses.
  const outer = pairs.filter(([a, b]) => !pairs.some(([c, d]) => c < a && b < d));
  return outer.sort(([a], [b]) => a - b);
}

/**
 * Splits folded text into space-separated tokens and tells, for each, whether it stands outside every
 * bracket pair. A style-code token inside a parenthetical (`（加厚 2024 款）`) belongs to that
 * parenthetical, not to the name's SKU, so only top-level tokens may be the SKU.
 */
function tokenise(folded: string): { text: string; topLevel: boolean }[] {
  const segments = outermostSegments(folded);
  const out: { text: string; topLevel: boolean }[] = [];
  let at = 0;
  for (const text of folded.split(' ')) {
    const start = at;
    at += text.length + 1;
    if (text === '') continue;
    out.push({ text, topLevel: !segments.some(([a, b]) => a <= start && start <= b) });
  }
  return out;
}

/**
 * Which part of a link's name could not be read, and why: what the organisation report tells an
 * administrator about an unparseable link (docs/domain.md, Names).
 * - `country`: nothing before the logistics bracket (`（包邮）T恤 G5000`);
 * - `logistics`: no `（…）` after the country at all, an empty one, or a bracket of the first segment
 *   that does not pair (`美国（（包邮）`); `text` is what was read there;
 * - `sku`: no style code after the product name (`美国（包邮）纯棉T恤`); `text` is the rest of the name;
 * - `productName`: a style code, but no product name before it (`美国（包邮）G5000`).
 */
export interface LinkNameProblem {
  part: 'country' | 'logistics' | 'productName' | 'sku';
  reason: 'NO_LOGISTICS_BRACKET' | 'MALFORMED_FIRST_SEGMENT' | 'EMPTY_COUNTRY' | 'EMPTY_LOGISTICS' | 'NO_STYLE_CODE' | 'NO_PRODUCT_NAME';
  /** the text of the name where reading stopped, when there is one */
  text?: string;
}

/**
 * Reads `<country>（<logistics>）<productName> <SKU> [descriptors]`: the parsed parts, or which part
 * could not be read.
 *
 * The first segment runs up to and including the first closing bracket of either width; its
 * half-width brackets become full-width before pairing, so `美国(不包邮）` pairs. The segment must be
 * `<country>（<logistics>）` with exactly one opening bracket; country and logistics must be
 * non-empty. The SKU is the last top-level style-code token that has at least one product-name
 * token before it (product names may hold numbers such as `45x45`; descriptors are print words).
 * Anything else is unparseable (organisation reports it, with the problem, and never groups it).
 */
export function readLinkName(name: string): { parsed: ParsedLinkName } | { problem: LinkNameProblem } {
  const folded = foldWhitespace(name);
  const close = folded.search(/[)）]/);
  if (close < 0) return { problem: { part: 'logistics', reason: 'NO_LOGISTICS_BRACKET' } };
  const segment = folded
    .slice(0, close + 1)
    .replace(/\(/g, '（')
    .replace(/\)/g, '）');
  const m = /^([^（）]*)（([^（）]*)）$/.exec(segment);
  if (!m) return { problem: { part: 'logistics', reason: 'MALFORMED_FIRST_SEGMENT', text: folded.slice(0, close + 1) } };
  const country = foldWhitespace(m[1] ?? '');
  const logistics = foldWhitespace(m[2] ?? '');
  if (country === '') return { problem: { part: 'country', reason: 'EMPTY_COUNTRY' } };
  if (logistics === '') return { problem: { part: 'logistics', reason: 'EMPTY_LOGISTICS', text: folded.slice(0, close + 1) } };

  const rest = foldWhitespace(folded.slice(close + 1));
  const tokens = tokenise(rest);
  let skuAt = -1;
  for (let i = tokens.length - 1; i >= 1; i--) {
    const t = tokens[i]!;
    if (t.topLevel && isStyleCode(t.text)) {
      skuAt = i;
      break;
    }
  }
  if (skuAt < 0) {
    // A style code standing first has no product name before it.
    const first = tokens[0];
    if (first && first.topLevel && isStyleCode(first.text)) return { problem: { part: 'productName', reason: 'NO_PRODUCT_NAME', text: first.text } };
    return { problem: { part: 'sku', reason: 'NO_STYLE_CODE', ...(rest ? { text: rest } : {}) } };
  }
  return {
    parsed: {
      country,
      logistics,
      productName: tokens
        .slice(0, skuAt)
        .map((t) => t.text)
        .join(' '),
      sku: tokens[skuAt]!.text.toUpperCase(),
      descriptors: tokens.slice(skuAt + 1).map((t) => t.text),
    },
  };
}

/** The parsed parts of a link's name, or null when it is unparseable (`readLinkName` says why). */
export function parseLinkName(name: string): ParsedLinkName | null {
  const r = readLinkName(name);
  return 'parsed' in r ? r.parsed : null;
}

/** Why a link's name is unparseable; null when it parses. */
export function linkNameProblem(name: string): LinkNameProblem | null {
  const r = readLinkName(name);
  return 'problem' in r ? r.problem : null;
}

/** True when the text, ignoring white space, is ASCII only (a model qualifier such as `Gildan 5000`). */
function isAsciiOnly(s: string): boolean {
  // eslint-disable-next-line no-control-regex -- the range is all of ASCII, control characters included
  return /^[\x00-\x7F]*$/.test(s.replace(/\s/g, ''));
}

/**
 * Removes every outermost parenthesised segment whose content is ASCII only (`(Gildan 5000)`,
 * `（Gildan 5000)`). A segment with any Chinese (or other non-ASCII) content is kept exactly as
 * written, nested brackets included; unpaired brackets stay. A stripped qualifier leaves a space so
 * the words around it do not run together.
 */
function stripAsciiQualifiers(s: string): string {
  let out = '';
  let from = 0;
  for (const [a, b] of outermostSegments(s)) {
    out += s.slice(from, a) + (isAsciiOnly(s.slice(a + 1, b)) ? ' ' : s.slice(a, b + 1));
    from = b + 1;
  }
  return out + s.slice(from);
}

/** The description a SKU-only name takes: the cleaned category name without its own style codes. */
function descriptionFromCategory(categoryName: string | null | undefined): string {
  if (!categoryName) return '';
  const cleaned = cleanCategoryName(categoryName);
  return tokenise(foldWhitespace(cleaned))
    .filter((t) => !(t.topLevel && isStyleCode(t.text)))
    .map((t) => t.text)
    .join(' ');
}

/**
 * A good's name in its stored form `<product name> <SKU>` (docs/domain.md, Good names):
 * - ASCII-only parentheticals are stripped, Chinese ones kept as written;
 * - the SKU token (the last top-level token when it is a style code, else the first, else the last
 *   top-level style code in between) is upper-cased and moved to the end;
 * - a name that is only a SKU takes its description from the cleaned category name (style codes in
 *   the category name are dropped, so `G5000 短袖T恤` does not put a second SKU into the name);
 * - white space is folded; a name without a SKU is just cleaned and folded.
 * If stripping would leave nothing, the folded input is kept (as category cleaning does).
 * Idempotent: a stored name normalises to itself.
 */
export function normaliseGoodName(input: string, opts: { categoryName?: string | null } = {}): string {
  const stripped = foldWhitespace(stripAsciiQualifiers(input));
  if (stripped === '') return foldWhitespace(input);

  const tokens = tokenise(stripped);
  const candidate = (i: number): boolean => {
    const t = tokens[i];
    return t !== undefined && t.topLevel && isStyleCode(t.text);
  };
  let skuAt = -1;
  if (candidate(tokens.length - 1)) skuAt = tokens.length - 1;
  else if (candidate(0)) skuAt = 0;
  else for (let i = tokens.length - 2; i > 0 && skuAt < 0; i--) if (candidate(i)) skuAt = i;
  if (skuAt < 0) return stripped;

  const sku = tokens[skuAt]!.text.toUpperCase();
  const rest = tokens
    .filter((_, i) => i !== skuAt)
    .map((t) => t.text)
    .join(' ');
  const description = rest !== '' ? rest : descriptionFromCategory(opts.categoryName);
  return description === '' ? sku : `${description} ${sku}`;
}

/**
 * The name of a good created from a link (docs/domain.md, Goods and delisting): from the parsed columns
 * when the link is organised, else from the raw link name (it is not parsed here: an unorganised
 * link has no parsed columns), then normalised with the link's supplier category name.
 */
export function goodNameFromLink(link: { name: string; parsed: Pick<ParsedLinkName, 'productName' | 'sku'> | null; categoryName: string | null }): string {
  const raw = link.parsed ? `${link.parsed.productName} ${link.parsed.sku}` : link.name;
  return normaliseGoodName(raw, { categoryName: link.categoryName });
}

/**
 * The name-based grouping key of a family: country + product name + SKU, white space folded and SKU
 * upper-cased; logistics and descriptors are left out so free-shipping and no-free-shipping links of
 * one product group together. Serialised as a JSON array so no separator can make two different
 * triples collide, and so the key is plain text a PostgreSQL column can hold.
 */
export function familyNameKey(parts: { country: string; productName: string; sku: string }): string {
  return JSON.stringify([foldWhitespace(parts.country), foldWhitespace(parts.productName), foldWhitespace(parts.sku).toUpperCase()]);
}
