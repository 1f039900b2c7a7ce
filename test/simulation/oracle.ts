/**
 * The simulation's own computation of what a family shows (docs/domain.md, Price matrix, Unions and
 * media, Public catalog; Good names), written from the rules in docs/ and never from the code under
 * test: nothing here imports src/. The model (model.ts) supplies who is a member, who contributes
 * (organised, not delisted), the goods with their priorities, the custom members with their tags and
 * prices, the overrides and the secondary origins; a link's own inputs (its mirrored detail, its list
 * price and its tags) come from its read-model row, so a family's aggregates are checked against
 * rules applied here to the same inputs the service had.
 */
import { createHash } from 'node:crypto';

export const DIMENSIONS = ['size', 'color', 'printCount', 'craft', 'logistics'] as const;
export type Dim = (typeof DIMENSIONS)[number];
export type DimValues = Partial<Record<Dim, string[]>>;

/** docs/domain.md, Tags and dimensions: the closed vocabularies in display order. */
const DISPLAY: Record<'printCount' | 'craft' | 'logistics', string[]> = {
  printCount: ['单面印花', '双面印花'],
  craft: ['烫画', '直喷', '不打印', '热转印'],
  logistics: ['不包邮', '包邮'],
};
const SINGLE = '单面印花';
const NO_PRINT = '不打印';

export interface LinkDetailIn {
  variants: { sku: string; size: string; color: string; price: string }[];
  sizeChart: Record<string, string>[];
  packagingSpecs: { name: string }[];
  options: { name: string; values: string[] }[];
  media: { color: string; url: string; sort: number }[];
}

export interface OracleLink {
  id: string;
  organised: boolean;
  delisted: boolean;
  tags: DimValues | null;
  listPrice: string;
  detail: LinkDetailIn | null;
}

export interface OracleGood {
  id: string;
  goodPriority: number;
  createdAt: number;
  /** secondary origins, in the good's order */
  secondary: string[];
  /** 上架: docs/domain.md, Public catalog: only a good on the shelf can represent its family */
  onShelf: boolean;
}

export interface OracleInput {
  /** every member link, any order */
  members: OracleLink[];
  customMembers: { goodId: string; tags: DimValues; price: string }[];
  /** override key (five parts) → price */
  overrides: { size: string; color: string; printCount: string; craft: string; logistics: string; price: string }[];
  goods: OracleGood[];
  /** every link a secondary origin may name */
  links: ReadonlyMap<string, OracleLink>;
}

export interface Cell {
  size: string;
  color: string;
  printCount: string;
  craft: string;
  logistics: string;
  price: string;
}

export interface Expected {
  memberCount: number;
  goodCount: number;
  representativeGoodId: string | null;
  sizes: string[];
  colors: string[];
  printCounts: string[];
  crafts: string[];
  logistics: string[];
  cells: Cell[];
  /** each later producer of a cell, with the first producer kept */
  conflicts: { source: string; key: string; keptFrom: string }[];
  invalidOverrides: string[];
  lowestPrice: string | null;
  variants: { size: string; color: string; price: string; sku: string }[];
  sizeChart: Record<string, string>[];
  packagingSpecs: { name: string }[];
  options: { name: string; values: string[] }[];
  mediaByColor: Record<string, { id: string; url: string; sortOrder: number }[]>;
}

export function big(id: string): bigint {
  return BigInt(id);
}
const byId = (a: string, b: string) => (big(a) < big(b) ? -1 : big(a) > big(b) ? 1 : 0);

/** docs/domain.md, Identifiers and money: at least two, at most four decimals, trailing zeros beyond two dropped. */
export function money(value: string): string {
  const m = /^(-?)(\d*)(?:\.(\d*))?$/.exec(value.trim());
  if (!m) throw new Error(`not money: ${value}`);
  const int = (m[2] || '0').replace(/^0+(?=\d)/, '');
  let frac = (m[3] ?? '').replace(/0+$/, '');
  if (frac.length < 2) frac = frac.padEnd(2, '0');
  return `${m[1]}${int}.${frac}`;
}

/** Money compared by value (scaled to four decimals). */
export function cents4(value: string): bigint {
  const [i, f = ''] = money(value).replace('-', '').split('.');
  const v = BigInt(i!) * 10000n + BigInt(f.padEnd(4, '0').slice(0, 4));
  return value.trim().startsWith('-') ? -v : v;
}

const uniq = (xs: readonly string[] | undefined) => [...new Set(xs ?? [])];

/** docs/domain.md, Price matrix, Order: display order for the closed vocabularies, unknown values after in first-encounter order. */
function axisOrder(d: Dim, encountered: string[]): string[] {
  const values = uniq(encountered);
  if (d === 'size' || d === 'color') return values; // stored in first-encounter order; the public detail applies tag order
  const display = DISPLAY[d];
  return [...display.filter((v) => values.includes(v)), ...values.filter((v) => !display.includes(v))];
}

export const cellId = (c: Omit<Cell, 'price'>) => JSON.stringify([c.size, c.color, c.printCount, c.craft, c.logistics]);

/** docs/domain.md, Unions and media: 2^62 + the first 60 bits of the URL's SHA-256. */
export function mediaId(url: string): string {
  return ((1n << 62n) + BigInt(`0x${createHash('sha256').update(url, 'utf8').digest('hex').slice(0, 15)}`)).toString();
}

export function computeFamily(input: OracleInput): Expected {
  // Who contributes: organised links that are not delisted, by id as integers; then custom members by good id.
  const contributing = input.members.filter((l) => l.organised && !l.delisted).sort((a, b) => byId(a.id, b.id));
  const producers: { source: string; tags: DimValues; priceOf: (size: string, color: string) => string }[] = [];
  for (const l of contributing) {
    producers.push({
      source: `link:${l.id}`,
      tags: l.tags ?? {},
      priceOf: (size, color) => l.detail?.variants.find((v) => v.size === size && v.color === color)?.price ?? l.listPrice,
    });
  }
  for (const c of [...input.customMembers].sort((a, b) => byId(a.goodId, b.goodId))) producers.push({ source: `good:${c.goodId}`, tags: c.tags, priceOf: () => c.price });

  const cells = new Map<string, { key: Omit<Cell, 'price'>; base: string; source: string }>();
  const conflicts: Expected['conflicts'] = [];
  for (const p of producers) {
    const t = p.tags;
    const printCounts = uniq(t.printCount);
    for (const size of uniq(t.size))
      for (const color of uniq(t.color))
        for (const craft of uniq(t.craft)) {
          // A craft 不打印 without a printCount tag uses 单面印花 as placeholder; another craft without one gives nothing.
          const pcs = printCounts.length ? printCounts : craft === NO_PRINT ? [SINGLE] : [];
          for (const printCount of pcs)
            for (const logistics of uniq(t.logistics)) {
              const key = { size, color, printCount, craft, logistics };
              const id = cellId(key);
              const first = cells.get(id);
              if (first) conflicts.push({ source: p.source, key: id, keptFrom: first.source });
              else cells.set(id, { key, base: money(p.priceOf(size, color)), source: p.source });
            }
        }
  }
  const overrides = new Map<string, string>();
  const invalidOverrides: string[] = [];
  for (const o of input.overrides) {
    const id = cellId(o);
    if (cells.has(id)) overrides.set(id, money(o.price));
    else invalidOverrides.push(id);
  }
  const list = [...cells.values()];
  const axes = Object.fromEntries(
    DIMENSIONS.map((d) => [
      d,
      axisOrder(
        d,
        list.map((c) => c.key[d]),
      ),
    ]),
  ) as Record<Dim, string[]>;
  const out: Cell[] = list.map((c) => ({ ...c.key, price: overrides.get(cellId(c.key)) ?? c.base }));
  out.sort((a, b) => {
    for (const d of DIMENSIONS) {
      const x = axes[d].indexOf(a[d]) - axes[d].indexOf(b[d]);
      if (x) return x;
    }
    return 0;
  });
  let lowest: string | null = null;
  for (const c of out) if (lowest === null || cents4(c.price) < cents4(lowest)) lowest = c.price;

  // The representative, among the goods on the shelf: highest goodPriority, then newest createdAt, then lowest id.
  const rep = input.goods.filter((g) => g.onShelf).sort((a, b) => b.goodPriority - a.goodPriority || b.createdAt - a.createdAt || byId(a.id, b.id))[0];

  // Unions: contributing links by id, then the secondary origins (not delisted) of the goods by good id, each in its order.
  const sources: LinkDetailIn[] = contributing.map((l) => l.detail).filter((d): d is LinkDetailIn => !!d);
  for (const g of [...input.goods].sort((a, b) => byId(a.id, b.id))) {
    for (const s of g.secondary) {
      const l = input.links.get(s);
      if (l && !l.delisted && l.detail) sources.push(l.detail);
    }
  }
  const variants = new Map<string, Expected['variants'][number]>();
  const sizeChart = new Map<string, Record<string, string>>();
  const packaging = new Map<string, { name: string }>();
  const options = new Map<string, string[]>();
  const seenUrls = new Set<string>();
  const media = new Map<string, { url: string; sort: number; n: number }[]>();
  let n = 0;
  for (const d of sources) {
    for (const v of d.variants) {
      const k = JSON.stringify([v.size, v.color]);
      if (!variants.has(k)) variants.set(k, { size: v.size, color: v.color, price: money(v.price), sku: v.sku });
    }
    for (const row of d.sizeChart) {
      const k = typeof row.size === 'string' ? `size:${row.size}` : `row:${JSON.stringify(Object.entries(row).sort())}`;
      if (!sizeChart.has(k)) sizeChart.set(k, row);
    }
    for (const s of d.packagingSpecs) if (!packaging.has(s.name)) packaging.set(s.name, s);
    for (const o of d.options) {
      const values = options.get(o.name) ?? [];
      for (const v of o.values) if (!values.includes(v)) values.push(v);
      options.set(o.name, values);
    }
    for (const m of d.media) {
      if (seenUrls.has(m.url)) continue;
      seenUrls.add(m.url);
      media.set(m.color, [...(media.get(m.color) ?? []), { url: m.url, sort: m.sort, n: n++ }]);
    }
  }
  return {
    memberCount: input.members.length,
    goodCount: input.goods.length,
    representativeGoodId: rep?.id ?? null,
    ...{ sizes: axes.size, colors: axes.color, printCounts: axes.printCount, crafts: axes.craft, logistics: axes.logistics },
    cells: out,
    conflicts,
    invalidOverrides,
    lowestPrice: lowest,
    variants: [...variants.values()],
    sizeChart: [...sizeChart.values()],
    packagingSpecs: [...packaging.values()],
    options: [...options.entries()].map(([name, values]) => ({ name, values })),
    mediaByColor: Object.fromEntries(
      [...media.entries()].map(([color, list]) => [
        color,
        [...list].sort((a, b) => a.sort - b.sort || a.n - b.n).map((m, i) => ({ id: mediaId(m.url), url: m.url, sortOrder: i })),
      ]),
    ),
  };
}

// ------------------------------------------------------------------------------------------ good names

/** docs/domain.md, Style codes: 0–4 ASCII letters, 2 or more digits, then letters, digits or `-`. */
export const isStyleCode = (t: string) => /^[A-Za-z]{0,4}[0-9]{2,}[A-Za-z0-9-]*$/.test(t);

const OPEN = '(（';
const CLOSE = ')）';

/**
 * Splits a name into top-level tokens (white space outside brackets), after removing every
 * parenthetical whose content is ASCII only (docs/domain.md, Good names). Answers the tokens and, for
 * each, whether it holds a bracket (a style code inside a parenthetical is not the SKU).
 */
function topLevelTokens(name: string): string[] {
  // Remove ASCII-only parentheticals (innermost first), brackets of either width pairing freely.
  let s = name;
  for (;;) {
    const next = s.replace(/[(（]([ -~\t]*?)[)）]/g, (all, inner: string) => (/[(（)）]/.test(inner) ? all : ' '));
    if (next === s) break;
    s = next;
  }
  const tokens: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (OPEN.includes(ch)) depth++;
    if (CLOSE.includes(ch)) depth = Math.max(0, depth - 1);
    if (/\s/.test(ch) && depth === 0) {
      if (cur) tokens.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (cur) tokens.push(cur);
  return tokens;
}

/** docs/domain.md, Good names: `<product name> <SKU>`; a name that is only a SKU takes the cleaned category name. */
export function goodName(raw: string, categoryName: string | null): string {
  const folded = raw.replace(/\s+/g, ' ').trim();
  const tokens = topLevelTokens(raw);
  if (!tokens.length) return folded;
  const skuAt = isStyleCode(tokens.at(-1)!)
    ? tokens.length - 1
    : isStyleCode(tokens[0]!)
      ? 0
      : tokens.reduce((found, t, i) => (i > 0 && i < tokens.length - 1 && isStyleCode(t) ? i : found), -1);
  if (skuAt < 0) return tokens.join(' ');
  const sku = tokens[skuAt]!.toUpperCase();
  let rest = tokens.filter((_, i) => i !== skuAt);
  if (!rest.length && categoryName) rest = topLevelTokens(cleanCategory(categoryName)).filter((t) => !isStyleCode(t));
  return [...rest, sku].join(' ');
}

/** docs/domain.md, Category names: every parenthetical removed, white space folded; nothing left keeps the original. */
function cleanCategory(name: string): string {
  let s = name;
  for (;;) {
    const next = s.replace(/[(（][^(（)）]*[)）]/g, ' ');
    if (next === s) break;
    s = next;
  }
  const folded = s.replace(/\s+/g, ' ').trim();
  return folded || name;
}
