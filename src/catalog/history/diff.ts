/**
 * What changed between two views of one family, link or good (docs/api.md, History): the questions
 * an auditor asks — who joined or left, which matrix cells appeared, went or changed price, the
 * lowest price, the representative — and, by name, any other part that moved. Pure. Null when
 * nothing the view holds changed.
 */
import { sameContent } from '../../platform/content-hash';
import { cellKey, type CellKey } from '../domain/matrix';
import type { FamilyView, GoodView, LinkView } from './world';

type Cell = CellKey & { price: string };
export interface Change<T> {
  from: T;
  to: T;
}

const same = (a: unknown, b: unknown) => sameContent(a ?? null, b ?? null);
const change = <T>(from: T, to: T): Change<T> | undefined => (same(from, to) ? undefined : { from, to });

function setDiff(from: readonly string[], to: readonly string[]) {
  const a = new Set(from);
  const b = new Set(to);
  return { added: to.filter((x) => !a.has(x)), removed: from.filter((x) => !b.has(x)) };
}

/** Drops undefined and empty parts; null when nothing is left. */
function compact<T extends Record<string, unknown>>(d: T): Partial<T> | null {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(d)) {
    if (v === undefined) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (v && typeof v === 'object' && !Array.isArray(v) && !('from' in v) && Object.values(v).every((x) => Array.isArray(x) && x.length === 0)) continue;
    out[k] = v;
  }
  return Object.keys(out).length ? (out as Partial<T>) : null;
}

export function diffCells(from: readonly Cell[], to: readonly Cell[]) {
  const a = new Map(from.map((c) => [cellKey(c), c]));
  const b = new Map(to.map((c) => [cellKey(c), c]));
  const key = (c: Cell): CellKey => ({ size: c.size, color: c.color, printCount: c.printCount, craft: c.craft, logistics: c.logistics });
  return {
    added: to.filter((c) => !a.has(cellKey(c))),
    removed: from.filter((c) => !b.has(cellKey(c))),
    changed: to.flatMap((c) => {
      const before = a.get(cellKey(c));
      return before && before.price !== c.price ? [{ ...key(c), from: before.price, to: c.price }] : [];
    }),
  };
}

type Representative = FamilyView['representative'];

/**
 * The representative as the storefront shows it: another good whose name, image, description,
 * country, category, tags and tag colour are all the same (goods of one family often share their
 * name) is no change the public saw, and is not reported; any of those that differ is, with both
 * goods (ids included).
 */
function representativeChange(from: Representative, to: Representative): Change<Representative> | undefined {
  const shown = (r: Representative) => (r ? { ...r, goodId: undefined } : null);
  return same(shown(from), shown(to)) ? undefined : { from, to };
}

/** Parts of the family view reported by name only when they change (their content is in `?at=`). */
const FAMILY_OTHER = ['name', 'locked', 'autoManaged', 'gone', 'customMembers', 'overrides', 'variants', 'sizeChart', 'packagingSpecs', 'options', 'mediaByColor'] as const;

export function diffFamily(a: FamilyView | null, b: FamilyView | null) {
  const members = setDiff(a?.members.map((m) => m.id) ?? [], b?.members.map((m) => m.id) ?? []);
  const goods = setDiff(a?.goods.map((g) => g.id) ?? [], b?.goods.map((g) => g.id) ?? []);
  return compact({
    existed: change(a !== null, b !== null),
    public: change(a?.public ?? false, b?.public ?? false),
    shelf: change(a?.shelf ?? null, b?.shelf ?? null),
    members,
    goods,
    cells: diffCells(a?.priceMatrix.cells ?? [], b?.priceMatrix.cells ?? []),
    lowestPrice: change(a?.lowestPrice ?? null, b?.lowestPrice ?? null),
    representative: representativeChange(a?.representative ?? null, b?.representative ?? null),
    other: FAMILY_OTHER.filter((k) => !same(a?.[k], b?.[k])),
  });
}

type Variant = { size: string; color: string; price: string };

export function diffVariants(from: readonly Variant[], to: readonly Variant[]) {
  const k = (v: Variant) => JSON.stringify([v.size, v.color]);
  const a = new Map(from.map((v) => [k(v), v]));
  const b = new Map(to.map((v) => [k(v), v]));
  const key = (v: Variant) => ({ size: v.size, color: v.color });
  return {
    added: to.filter((v) => !a.has(k(v))).map((v) => ({ ...key(v), price: v.price })),
    removed: from.filter((v) => !b.has(k(v))).map((v) => ({ ...key(v), price: v.price })),
    priceChanged: to.flatMap((v) => {
      const before = a.get(k(v));
      return before && Number(before.price) !== Number(v.price) ? [{ ...key(v), from: before.price, to: v.price }] : [];
    }),
  };
}

export function diffLink(a: LinkView | null, b: LinkView | null) {
  const detailA = a?.detail ?? null;
  const detailB = b?.detail ?? null;
  return compact({
    existed: change(a !== null, b !== null),
    name: change(a?.name ?? null, b?.name ?? null),
    price: change(a?.price ?? null, b?.price ?? null),
    delisted: change(a?.delisted ?? false, b?.delisted ?? false),
    parsed: change(a?.parsed ?? null, b?.parsed ?? null),
    tags: change(a?.tagValues ?? null, b?.tagValues ?? null),
    tagsManual: change(a?.tagsManual ?? false, b?.tagsManual ?? false),
    familyId: change(a?.familyId ?? null, b?.familyId ?? null),
    goodId: change(a?.goodId ?? null, b?.goodId ?? null),
    variants: diffVariants(detailA?.variants ?? [], detailB?.variants ?? []),
    detail: (['sizeChart', 'packagingSpecs', 'options', 'media'] as const).filter((k) => !same(detailA?.[k], detailB?.[k])),
  });
}

const GOOD_FIELDS = [
  'deleted',
  'name',
  'description',
  'image',
  'goodPriority',
  'tagIds',
  'tagFontColor',
  'categoryId',
  'countryId',
  'secondaryOriginGoodIds',
  'shelf',
  'familyId',
  'representative',
  'public',
  'familyLowestPrice',
] as const;

export function diffGood(a: GoodView | null, b: GoodView | null) {
  const fields = Object.fromEntries(GOOD_FIELDS.map((k) => [k, change(a?.[k] ?? null, b?.[k] ?? null)]));
  return compact({
    existed: change(a !== null, b !== null),
    ...fields,
    originPrice: change(a?.originGood?.price ?? null, b?.originGood?.price ?? null),
    originVariants: diffVariants(a?.originGood?.variants ?? [], b?.originGood?.variants ?? []),
  });
}
