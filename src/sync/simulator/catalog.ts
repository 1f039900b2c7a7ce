/**
 * The simulated supplier's catalog: generated deterministically from a seed, then mutable through
 * methods so tests and demos can play supplier changes (a link removed, relisted, repriced …).
 *
 * Only links are stored; a detail is generated on request from the seed, the link id and the link's
 * current state, so 200 000 links do not hold 200 000 detail objects.
 */
import { AppError } from '../../platform/errors';
import type { Category, Country, Detail, Link, LinkStatus, Media, SizeChartRow, Variant } from '../supplier/schemas';
import { PictureAddresses, DEFAULT_PICTURES_BASE, iconShapeOf, shapeOf, type Shape } from './pictures';
import { createRng, mixSeed } from './prng';
import {
  APPAREL_SIZES,
  BRACKETS,
  CATALOG_EPOCH,
  COLORS,
  COUNTRIES,
  DESCRIPTORS,
  KINDS,
  LOGISTICS,
  MIDDLE_CATEGORIES,
  NAME_PREFIXES,
  SIZE_SURCHARGE_CENTS,
  SKU_LETTERS,
  STYLE_CATEGORIES,
  TOP_CATEGORIES,
  type CategoryDef,
  type ProductKind,
  type StyleDef,
} from './vocabulary';

export const FIRST_LINK_ID = 100001;
/** Far beyond any demo or benchmark; a guard against a typo asking for billions. */
export const MAX_LINKS = 2_000_000;

/** Share of generated links whose name does not follow the link grammar. */
const UNPARSEABLE_RATE = 0.03;
const OFF_SALE_RATE = 0.02;
const LOWER_CASE_SKU_RATE = 0.02;
const DOUBLE_SPACE_RATE = 0.01;
/** Links per product family (1 to 6), weighted so most families have two or three. */
const LINKS_PER_FAMILY = [1, 2, 3, 4, 5, 6] as const;
const LINKS_PER_FAMILY_WEIGHTS = [15, 30, 25, 15, 10, 5] as const;
const GENERATED_SKUS_PER_STYLE = 20;
const UPDATED_WITHIN_MINUTES = 180 * 24 * 60;
/** A mutation moves the catalog clock by this much, so changed links have a newer `updatedAt`. */
const MUTATION_TICK_MS = 60_000;

/** Sub-streams of the seed, so adding draws to one never shifts another. */
const STREAM_CATALOG = 1;
const STREAM_FAMILY = 2;
const STREAM_DETAIL = 3;

export interface CatalogOptions {
  links: number;
  seed: number;
  /** the absolute base of the pictures' addresses (src/sync/simulator/pictures.ts); a default for tests */
  pictures?: string;
}

export type LinkPatch = Partial<Omit<Link, 'id'>>;
export type CategoryPatch = Partial<Omit<Category, 'id'>>;

export interface NewLink {
  name: string;
  categoryId: string;
  price: string;
  craftLabel?: string;
  image?: string;
  status?: LinkStatus;
  /** Id of an existing link whose product the new link is another offer of (shares its detail colours, sizes and media). */
  sameProductAs?: string;
}

/** What a detail needs to know about the product behind a link. */
interface Family {
  kind: ProductKind;
  /** what its pictures show */
  shape: Shape;
  sku: string;
  image: string;
}

interface LinkEntry {
  link: Link;
  idNum: number;
  family: number;
  removed: boolean;
}

interface CategoryEntry {
  category: Category;
  removed: boolean;
}

interface FamilyTraits {
  colors: { name: string; code: string }[];
  sizes: readonly string[];
  mediaPerColor: number[];
  weightGrams: number;
}

const centsStrings = new Map<number, string>();
/** Cents as a decimal string ("39.90"); interned, since a large catalog repeats a few hundred prices. */
export function formatCents(cents: number): string {
  let s = centsStrings.get(cents);
  if (s === undefined) {
    s = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
    centsStrings.set(cents, s);
  }
  return s;
}

function parseCents(price: string): number | undefined {
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(price);
  return m ? Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0')) : undefined;
}

/** ISO 8601 without milliseconds, as the contract's example (`2026-11-01T08:00:00Z`). */
function isoSeconds(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

function toCategory(def: CategoryDef, pictures: PictureAddresses): Category {
  const category: Category = { id: String(def.id), parentId: def.parentId === null ? null : String(def.parentId), name: def.name, sort: def.sort };
  if (def.icon === 'url') category.icon = pictures.icon(def.id, iconShapeOf(def));
  else if (def.icon === 'empty') category.icon = '';
  return category;
}

const STYLE_BY_ID = new Map(STYLE_CATEGORIES.map((s) => [String(s.id), s]));
const SKU_TOKEN = /^[A-Za-z]{0,4}\d{2,}[A-Za-z0-9-]*$/;

function familyTraits(seed: number, family: number, kind: ProductKind): FamilyTraits {
  const rng = createRng(mixSeed(seed, STREAM_FAMILY, family));
  const def = KINDS[kind];
  const colors = rng.sample(def.colors, rng.int(2, Math.min(6, def.colors.length))).map((code) => COLORS.find((c) => c.code === code)!);
  let sizes: readonly string[];
  if (def.sizes === APPAREL_SIZES) {
    // A contiguous run: most start at S, some at XS; they end at XL, 2XL or 3XL.
    sizes = APPAREL_SIZES.slice(rng.chance(0.2) ? 0 : 1, rng.int(4, 6) + 1);
  } else {
    sizes = rng.sample(def.sizes, rng.int(1, def.sizes.length));
  }
  return {
    colors,
    sizes,
    mediaPerColor: colors.map(() => rng.int(1, 3)),
    weightGrams: def.weightGrams + rng.int(-2, 2) * 10,
  };
}

/**
 * A product family's picture traits: what it looks like, and its main picture in one of its colours.
 * Not always the first: colours keep the vocabulary's order, which starts with black and white, and a
 * catalogue of black and white shirts would not look like one.
 */
function newFamily(seed: number, pictures: PictureAddresses, index: number, categoryId: number | string, kind: ProductKind, sku: string): Family {
  const shape = shapeOf(categoryId, kind);
  const colors = familyTraits(seed, index, kind).colors;
  return { kind, shape, sku, image: pictures.main(index + 1, shape, colors[index % colors.length]!.code) };
}

export class SimulatorCatalog {
  private readonly countryList: Country[];
  private readonly categoryList: CategoryEntry[];
  private readonly categoryById: Map<string, CategoryEntry>;
  /** In id order, removed ones included, so a keyset cursor stays valid while links come and go. */
  private readonly entries: LinkEntry[];
  private readonly entryById: Map<string, LinkEntry>;
  private readonly families: Family[];
  /** Changes played on links' details since generation (mutations.ts), applied in order on each request. */
  private readonly detailEdits = new Map<string, ((d: Detail) => Detail)[]>();
  private clock = CATALOG_EPOCH;

  constructor(
    readonly seed: number,
    readonly pictures: PictureAddresses,
    countries: Country[],
    categories: Category[],
    entries: LinkEntry[],
    families: Family[],
  ) {
    this.countryList = countries;
    this.categoryList = categories.map((category) => ({ category, removed: false }));
    this.categoryById = new Map(this.categoryList.map((e) => [e.category.id, e]));
    this.entries = entries;
    this.entryById = new Map(entries.map((e) => [e.link.id, e]));
    this.families = families;
  }

  countries(): Country[] {
    return [...this.countryList];
  }

  /** In the supplier's (shuffled) order; `sort` carries the intended order. */
  categories(): Category[] {
    return this.categoryList.filter((e) => !e.removed).map((e) => e.category);
  }

  /** Listed links (not removed) in id order. */
  links(): Link[] {
    return this.entries.filter((e) => !e.removed).map((e) => e.link);
  }

  link(id: string): Link | undefined {
    const entry = this.entryById.get(id);
    return entry && !entry.removed ? entry.link : undefined;
  }

  /**
   * The next `scan` id positions after `afterId` (null: from the start). Removed links in that window
   * are left out, so a page can be shorter than its limit, as real suppliers that filter after paging
   * do. `lastId` is the last position scanned: the keyset for the next page.
   */
  linksAfter(afterId: string | null, scan: number): { items: Link[]; lastId: string | null; more: boolean } {
    const start = afterId === null ? 0 : this.firstAfter(Number(afterId));
    const window = this.entries.slice(start, start + scan);
    return {
      items: window.filter((e) => !e.removed).map((e) => e.link),
      lastId: window.length ? window[window.length - 1]!.link.id : afterId,
      more: start + scan < this.entries.length,
    };
  }

  /** The detail of a listed link, generated from the seed and the link's current state; null when gone. */
  detail(id: string): Detail | null {
    const entry = this.entryById.get(id);
    if (!entry || entry.removed) return null;
    const family = this.families[entry.family]!;
    const kind = KINDS[family.kind];
    const traits = familyTraits(this.seed, entry.family, family.kind);
    const rng = createRng(mixSeed(this.seed, STREAM_DETAIL, entry.idNum));
    const listCents = parseCents(entry.link.price) ?? kind.priceCents[0];

    // Some offers of a product come in one colour fewer than the product itself.
    const colorIndexes = traits.colors.map((_, i) => i);
    if (colorIndexes.length > 2 && rng.chance(0.2)) colorIndexes.splice(rng.int(0, colorIndexes.length - 1), 1);

    const variants: Variant[] = [];
    for (const size of traits.sizes) {
      for (const i of colorIndexes) {
        const color = traits.colors[i]!;
        if (rng.chance(0.05)) continue; // a size/colour the supplier does not make
        variants.push({
          sku: `${family.sku}-${color.code}-${size}`,
          size,
          color: color.name,
          price: formatCents(listCents + (SIZE_SURCHARGE_CENTS[size] ?? 0)),
          stock: rng.chance(0.1) ? 0 : rng.int(5, 500),
        });
      }
    }

    const sizeChart: SizeChartRow[] = traits.sizes.map((size) => {
      const step = Math.max(0, kind.sizes.indexOf(size));
      const row: SizeChartRow = { size };
      for (const m of kind.measurements) row[m.name] = String(m.first + m.step * step);
      return row;
    });

    const [length, width, height] = kind.parcel;
    const packagingSpecs = [{ name: '单件', weightGrams: traits.weightGrams, lengthCm: length, widthCm: width, heightCm: height }];
    if (rng.chance(0.3)) {
      packagingSpecs.push({ name: '整箱（50件）', weightGrams: traits.weightGrams * 50 + 800, lengthCm: 60, widthCm: 40, heightCm: 40 });
    }

    const options = kind.options.filter(() => rng.chance(0.6)).map((o) => ({ name: o.name, values: [...o.values] }));

    // Product photos are shared by every link of the family (the same URLs recur across links, so a
    // merged view must de-duplicate); some links add a photo of their own or repeat one.
    const media: Media[] = [];
    for (const i of colorIndexes) {
      const color = traits.colors[i]!;
      const urls: string[] = [];
      for (let n = 1; n <= traits.mediaPerColor[i]!; n++) urls.push(this.pictures.media(entry.family + 1, family.shape, color.code, n));
      if (rng.chance(0.25)) urls.push(this.pictures.media(entry.family + 1, family.shape, color.code, 1, id));
      if (rng.chance(0.1)) urls.push(urls[0]!);
      urls.forEach((url, k) => media.push({ color: color.name, url, sort: k + 1 }));
    }

    const generated: Detail = { id, variants, sizeChart, packagingSpecs, options, media };
    return (this.detailEdits.get(id) ?? []).reduce((d, edit) => edit(d), generated);
  }

  /**
   * Changes a link's detail from now on (its listing stays as it is, as when a supplier reprices a
   * variant without touching the list entry). Edits stack; each gets the detail as the ones before left it.
   */
  editDetail(id: string, edit: (d: Detail) => Detail): void {
    this.listedEntry(id);
    const edits = this.detailEdits.get(id) ?? [];
    edits.push(edit);
    this.detailEdits.set(id, edits);
  }

  removeLink(id: string): void {
    this.listedEntry(id).removed = true;
  }

  /** Brings a removed or off-sale link back, on sale. */
  relistLink(id: string): Link {
    const entry = this.existingEntry(id);
    entry.removed = false;
    if (entry.link.status !== 'ON_SALE') entry.link = { ...entry.link, status: 'ON_SALE', updatedAt: this.tick() };
    return entry.link;
  }

  /** Brings a removed link back as it was when removed (off sale stays off sale). */
  restoreLink(id: string): Link {
    const entry = this.existingEntry(id);
    entry.removed = false;
    return entry.link;
  }

  offSale(ids: readonly string[]): void {
    for (const id of ids) {
      const entry = this.listedEntry(id);
      entry.link = { ...entry.link, status: 'OFF_SALE', updatedAt: this.tick() };
    }
  }

  /** Replaces fields of a link (a new object: links handed out earlier keep their values). */
  changeLink(id: string, patch: LinkPatch): Link {
    const entry = this.listedEntry(id);
    entry.link = { ...entry.link, ...patch, id, updatedAt: patch.updatedAt ?? this.tick() };
    return entry.link;
  }

  /** A new link after every existing id. */
  addLink(fields: NewLink): Link {
    const last = this.entries[this.entries.length - 1];
    const idNum = last ? last.idNum + 1 : FIRST_LINK_ID;
    let family: number;
    if (fields.sameProductAs !== undefined) {
      family = this.existingEntry(fields.sameProductAs).family;
    } else {
      const sku =
        fields.name
          .split(/\s+/)
          .find((t) => SKU_TOKEN.test(t))
          ?.toUpperCase() ?? 'SKU';
      family = this.families.length;
      const kind = STYLE_BY_ID.get(fields.categoryId)?.kind ?? 'tee';
      this.families.push(newFamily(this.seed, this.pictures, family, fields.categoryId, kind, sku));
    }
    const link: Link = {
      id: String(idNum),
      name: fields.name,
      categoryId: fields.categoryId,
      craftLabel: fields.craftLabel ?? '',
      price: fields.price,
      image: fields.image ?? this.families[family]!.image,
      status: fields.status ?? 'ON_SALE',
      updatedAt: this.tick(),
    };
    const entry: LinkEntry = { link, idNum, family, removed: false };
    this.entries.push(entry);
    this.entryById.set(link.id, entry);
    return link;
  }

  /** A category the supplier starts listing, with the next free id. */
  addCategory(fields: Omit<Category, 'id'>): Category {
    const id = String(Math.max(...this.categoryList.map((e) => Number(e.category.id))) + 1);
    const entry: CategoryEntry = { category: { ...fields, id }, removed: false };
    this.categoryList.push(entry);
    this.categoryById.set(id, entry);
    return entry.category;
  }

  removeCategory(id: string): void {
    this.categoryEntry(id).removed = true;
  }

  restoreCategory(id: string): void {
    this.categoryEntry(id).removed = false;
  }

  changeCategory(id: string, patch: CategoryPatch): Category {
    const entry = this.categoryEntry(id);
    entry.category = { ...entry.category, ...patch, id };
    return entry.category;
  }

  private firstAfter(idNum: number): number {
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.entries[mid]!.idNum <= idNum) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private existingEntry(id: string): LinkEntry {
    const entry = this.entryById.get(id);
    if (!entry) throw AppError.notFound('SIMULATOR.UNKNOWN_LINK', `the simulator has no link ${id}`);
    return entry;
  }

  private listedEntry(id: string): LinkEntry {
    const entry = this.existingEntry(id);
    if (entry.removed) throw AppError.notFound('SIMULATOR.UNKNOWN_LINK', `link ${id} is removed; relist it first`);
    return entry;
  }

  private categoryEntry(id: string): CategoryEntry {
    const entry = this.categoryById.get(id);
    if (!entry) throw AppError.notFound('SIMULATOR.UNKNOWN_CATEGORY', `the simulator has no category ${id}`);
    return entry;
  }

  private tick(): string {
    this.clock += MUTATION_TICK_MS;
    return isoSeconds(this.clock);
  }
}

/** A product family while generating: what link names are made of and which offers it already has. */
interface Draft {
  index: number;
  country: string;
  productName: string;
  sku: string;
  style: StyleDef;
  baseCents: number;
  /** `logistics * DESCRIPTORS.length + descriptor` of the offers already made. */
  usedCombos: Set<number>;
}

interface Offer {
  logistics: number;
  descriptor: number;
  bracket: number;
  /** Which non-grammatical form the name takes; null for a well-formed name. */
  unparseable: number | null;
  lowerCaseSku: boolean;
  doubleSpace: boolean;
}

const UNPARSEABLE_FORMS = 4;
const COMBOS = LOGISTICS.length * DESCRIPTORS.length;
const LOGISTICS_WEIGHTS = LOGISTICS.map((l) => l.weight);
const DESCRIPTOR_WEIGHTS = DESCRIPTORS.map((d) => d.weight);
const BRACKET_WEIGHTS = BRACKETS.map((b) => b.weight);
const COUNTRY_WEIGHTS = COUNTRIES.map((c) => c.weight);

function linkName(draft: Draft, offer: Offer): string {
  const logistics = LOGISTICS[offer.logistics]!.name;
  const descriptor = DESCRIPTORS[offer.descriptor]!.text;
  const tail = descriptor ? ` ${descriptor}` : '';
  const sku = offer.lowerCaseSku ? draft.sku.toLowerCase() : draft.sku;
  if (offer.unparseable !== null) {
    // No round bracket anywhere, so the grammar's first segment cannot be found.
    const bare = draft.productName.replace(/[（(][^）)]*[）)]/g, '');
    switch (offer.unparseable) {
      case 0:
        return `${bare} ${sku}`;
      case 1:
        return `${draft.country} ${bare} ${sku}${tail}`;
      case 2:
        return `${draft.country}${logistics}${bare} ${sku}${tail}`;
      default:
        return `【${logistics}】${draft.country}${bare} ${sku}${tail}`;
    }
  }
  const b = BRACKETS[offer.bracket]!;
  return `${draft.country}${b.open}${logistics}${b.close}${draft.productName}${offer.doubleSpace ? '  ' : ' '}${sku}${tail}`;
}

/**
 * A deterministic catalog: the same options always give the same countries, categories, links and
 * details. Links 100001–100005 are docs/domain.md's link-name examples (when `links` ≥ 5); the rest are
 * product families of one to six offers each (same country, product name and style code; different
 * logistics or print), interleaved in id order as a supplier that adds offers over time lists them.
 */
export function generateCatalog(opts: CatalogOptions): SimulatorCatalog {
  if (!Number.isInteger(opts.links) || opts.links < 0 || opts.links > MAX_LINKS) {
    throw new RangeError(`links must be an integer from 0 to ${MAX_LINKS}`);
  }
  if (!Number.isSafeInteger(opts.seed)) throw new RangeError('seed must be an integer');
  const rng = createRng(mixSeed(opts.seed, STREAM_CATALOG));

  const countries: Country[] = COUNTRIES.map((c, i) => ({ id: String(i + 1), name: c.name, code: c.code }));
  const pictures = new PictureAddresses(opts.pictures ?? DEFAULT_PICTURES_BASE);
  const categories = rng.shuffle([...TOP_CATEGORIES, ...MIDDLE_CATEGORIES, ...STYLE_CATEGORIES].map((def) => toCategory(def, pictures)));

  const skuPools = STYLE_CATEGORIES.map((style) => {
    const pool = new Set<string>(style.skus);
    for (let i = 0; i < GENERATED_SKUS_PER_STYLE; i++) {
      pool.add(`${rng.pick(SKU_LETTERS)}${rng.int(10, 99999)}${rng.chance(0.15) ? `-${rng.int(2, 5)}` : ''}`);
    }
    return [...pool];
  });

  const drafts: Draft[] = [];
  const draftByKey = new Map<string, Draft>();
  const families: Family[] = [];
  const addDraft = (country: string, productName: string, sku: string, style: StyleDef, baseCents: number): Draft => {
    const key = `${country}|${productName}|${sku}`;
    const existing = draftByKey.get(key);
    if (existing) return existing;
    const draft: Draft = { index: drafts.length, country, productName, sku, style, baseCents, usedCombos: new Set() };
    drafts.push(draft);
    draftByKey.set(key, draft);
    families.push(newFamily(opts.seed, pictures, draft.index, style.id, style.kind, sku));
    return draft;
  };

  const entries: LinkEntry[] = [];
  const makeLink = (draft: Draft, offer: Offer, generated: boolean): void => {
    draft.usedCombos.add(offer.logistics * DESCRIPTORS.length + offer.descriptor);
    const logistics = LOGISTICS[offer.logistics]!;
    const descriptor = DESCRIPTORS[offer.descriptor]!;
    let craftLabel: string = descriptor.craft ?? '';
    let status: LinkStatus = 'ON_SALE';
    let updatedAt = CATALOG_EPOCH;
    if (generated) {
      // The raw label is the supplier's own field: sometimes worded differently, sometimes a guess.
      if (descriptor.craft === null) craftLabel = rng.pick(['直喷', '烫画', '']);
      else if (descriptor.craft === '直喷' && rng.chance(0.08)) craftLabel = '数码直喷';
      else if (descriptor.craft === '光板' && rng.chance(0.3)) craftLabel = '不打印';
      if (rng.chance(OFF_SALE_RATE)) status = 'OFF_SALE';
      updatedAt -= rng.int(0, UPDATED_WITHIN_MINUTES) * 60_000;
    }
    const link: Link = {
      id: '', // assigned once the generated links are interleaved
      name: linkName(draft, offer),
      categoryId: String(draft.style.id),
      craftLabel,
      price: formatCents(Math.max(990, draft.baseCents + logistics.priceDelta + descriptor.priceDelta)),
      image: families[draft.index]!.image,
      status,
      updatedAt: isoSeconds(updatedAt),
    };
    entries.push({ link, idNum: 0, family: draft.index, removed: false });
  };

  const style = (id: number): StyleDef => STYLE_CATEGORIES.find((s) => s.id === id)!;
  const logisticsIndex = (name: string): number => LOGISTICS.findIndex((l) => l.name === name);
  const descriptorIndex = (text: string): number => DESCRIPTORS.findIndex((d) => d.text === text);
  const fixedOffer = (logistics: string, descriptor: string, bracket = 0, unparseable: number | null = null): Offer => ({
    logistics: logisticsIndex(logistics),
    descriptor: descriptorIndex(descriptor),
    bracket,
    unparseable,
    lowerCaseSku: false,
    doubleSpace: false,
  });

  // docs/domain.md's link-name examples, verbatim, as links 100001–100005 (100001 is also docs/supplier.md's example).
  const tee = addDraft('美国', '纯棉短袖T恤', 'G5000', style(301), 2690);
  const hoodie = addDraft('英国', '连帽卫衣', 'G18500', style(308), 6990);
  const bag = addDraft('美国', '帆布袋', 'TB01', style(312), 1990);
  const mixedBracket = BRACKETS.findIndex((b) => b.open === '(' && b.close === '）');
  const fixed: [Draft, Offer][] = [
    [tee, fixedOffer('包邮', '直喷双面')],
    [tee, fixedOffer('不包邮', '烫画', mixedBracket)],
    [hoodie, fixedOffer('包邮', '光板')],
    [bag, fixedOffer('海运', '热转印单面')],
    [tee, fixedOffer('不包邮', '', 0, 0)],
  ];
  for (const [draft, offer] of fixed.slice(0, opts.links)) makeLink(draft, offer, false);
  const fixedCount = entries.length;

  const randomOffer = (draft: Draft): Offer | null => {
    let combo = -1;
    for (let tries = 0; tries < 8 && combo < 0; tries++) {
      const c = rng.weightedIndex(LOGISTICS_WEIGHTS) * DESCRIPTORS.length + rng.weightedIndex(DESCRIPTOR_WEIGHTS);
      if (!draft.usedCombos.has(c)) combo = c;
    }
    // Weighted draws keep hitting taken offers of a big family: take the first free one instead.
    for (let c = 0; combo < 0 && c < COMBOS; c++) if (!draft.usedCombos.has(c)) combo = c;
    if (combo < 0) return null;
    return {
      logistics: Math.floor(combo / DESCRIPTORS.length),
      descriptor: combo % DESCRIPTORS.length,
      bracket: rng.weightedIndex(BRACKET_WEIGHTS),
      unparseable: rng.chance(UNPARSEABLE_RATE) ? rng.int(0, UNPARSEABLE_FORMS - 1) : null,
      lowerCaseSku: rng.chance(LOWER_CASE_SKU_RATE),
      doubleSpace: rng.chance(DOUBLE_SPACE_RATE),
    };
  };
  const addOffers = (draft: Draft, count: number): void => {
    for (let k = 0; k < count && entries.length < opts.links; k++) {
      const offer = randomOffer(draft);
      if (!offer) return;
      makeLink(draft, offer, true);
    }
  };

  // The example families get more offers, so they are families with work to do, not singletons.
  for (const draft of [tee, hoodie, bag]) addOffers(draft, rng.int(1, 3));
  while (entries.length < opts.links) {
    const styleIndex = rng.int(0, STYLE_CATEGORIES.length - 1);
    const s = STYLE_CATEGORIES[styleIndex]!;
    const [low, high] = KINDS[s.kind].priceCents;
    const draft = addDraft(
      COUNTRIES[rng.weightedIndex(COUNTRY_WEIGHTS)]!.name,
      rng.pick(NAME_PREFIXES) + rng.pick(s.bases),
      rng.pick(skuPools[styleIndex]!),
      s,
      low + rng.int(0, Math.floor((high - low) / 100)) * 100,
    );
    addOffers(draft, LINKS_PER_FAMILY[rng.weightedIndex(LINKS_PER_FAMILY_WEIGHTS)]!);
  }

  // Offers of one family were added at different times: interleave them, then number in that order.
  const generated = rng.shuffle(entries.slice(fixedCount));
  const ordered = [...entries.slice(0, fixedCount), ...generated];
  ordered.forEach((entry, i) => {
    entry.idNum = FIRST_LINK_ID + i;
    entry.link.id = String(entry.idNum);
  });
  return new SimulatorCatalog(opts.seed, pictures, countries, categories, ordered, families);
}
