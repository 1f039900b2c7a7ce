/**
 * The reference model of the simulation: what the catalogue must look like after the operations so
 * far, kept from the operations alone and docs/domain.md's rules, never from the code under test
 * (apart from the baseline it starts from, and the ids the service allocates, taken from its answers).
 *
 * It owns: each family's expected members and whether the storefront shows it; every administrator
 * decision (a link placed in a family, a lock, a name, an override, tags taken over, a good's fields,
 * secondary origins) that organisation and synchronisation must leave as it is; and the ids of what
 * was deleted, which no read model may hold any more.
 */
import type { Pool } from '../../src/platform/db';

export type Dimension = 'size' | 'color' | 'printCount' | 'craft' | 'logistics';

export interface NameParts {
  country: string;
  logistics: string;
  productName: string;
  sku: string;
  descriptor?: string;
}

/** docs/domain.md, Families: country + productName + SKU, the SKU upper-cased. */
export function nameKey(p: Pick<NameParts, 'country' | 'productName' | 'sku'>): string {
  return JSON.stringify([p.country, p.productName, p.sku.toUpperCase()]);
}

export interface MLink {
  id: string;
  categoryId: string;
  /** on the supplier: its name's parts (null: a name outside the grammar), and its state */
  supplier: { name: string; parts: NameParts | null; state: 'listed' | 'offSale' | 'removed' };
  /** as the service mirrored it at the last listing pass (null: never synced) */
  synced: { name: string; parts: NameParts | null } | null;
  /** delisted in the service (after a listing pass) */
  delisted: boolean;
  /** the key organisation last parsed from its name (kept while the name cannot be read) */
  parsedKey: string | null;
  family: string | null;
  /** tag ids an administrator set (a takeover); null: derived */
  manualTagIds: string[] | null;
}

export interface MFamily {
  id: string;
  key: string | null;
  autoManaged: boolean;
  locked: boolean;
  name: string;
  gone: boolean;
  /** override key (JSON of the five parts) → price */
  overrides: Map<string, string>;
  /** 上架 / 下架 (docs/domain.md, Public catalog) */
  shelf: 'on' | 'off';
}

export interface MGood {
  id: string;
  link: string | null;
  /** a custom good's family (it is its custom member) */
  customOf: string | null;
  name: string;
  goodPriority: number;
  tagIds: string[];
  categoryId: string | null;
  countryId: string | null;
  secondary: string[];
  /** a custom member's explicit tags and price (docs/domain.md, Price matrix), set with its family */
  custom: { tags: Record<string, string[]>; price: string } | null;
  /** 上架 / 下架: only a good on the shelf counts for its family's publicity and representative */
  shelf: 'on' | 'off';
}

export interface MTag {
  id: string;
  name: string;
  /** null: the shop's own group (no dimension) */
  dimension: Dimension | null;
  groupId: string;
}

/** A family organisation creates: its id is known once the service answered. */
const NEW = 'new:';

export class Model {
  links = new Map<string, MLink>();
  families = new Map<string, MFamily>();
  goods = new Map<string, MGood>();
  tags = new Map<string, MTag>();
  categories = new Set<string>();
  /** categories an administrator made (never a supplier's) */
  ownCategories = new Set<string>();
  countries = new Map<string, string>(); // id → name
  ownCountries = new Set<string>();
  positions = new Map<string, string[]>();
  /**
   * The sort orders of what an administrator made and orders (own tags, tag groups of the shop's
   * own, own countries and categories, positions), keyed `tag:<id>`, `country:<id>`, `category:<id>`,
   * `position:<id>`; and each own category's parent. Synchronisation never touches them.
   */
  sortOrder = new Map<string, number>();
  ownGroups = new Set<string>();
  categoryParent = new Map<string, string | null>();
  deleted = { goods: new Set<string>(), tags: new Set<string>(), categories: new Set<string>(), countries: new Set<string>(), families: new Set<string>() };
  /** placeholders of families the last organisation created, by key, resolved from what the service shows */
  pendingNew = new Map<string, string[]>();
  /** how many families, links and goods each sequence ended with (soak figures) */
  notes: string[] = [];

  clone(): Model {
    const m = new Model();
    for (const [k, v] of this.links)
      m.links.set(k, { ...v, supplier: { ...v.supplier }, synced: v.synced && { ...v.synced }, manualTagIds: v.manualTagIds && [...v.manualTagIds] });
    for (const [k, v] of this.families) m.families.set(k, { ...v, overrides: new Map(v.overrides) });
    for (const [k, v] of this.goods) m.goods.set(k, { ...v, tagIds: [...v.tagIds], secondary: [...v.secondary], custom: v.custom && { ...v.custom } });
    for (const [k, v] of this.tags) m.tags.set(k, { ...v });
    m.categories = new Set(this.categories);
    m.ownCategories = new Set(this.ownCategories);
    m.countries = new Map(this.countries);
    m.ownCountries = new Set(this.ownCountries);
    for (const [k, v] of this.positions) m.positions.set(k, [...v]);
    m.sortOrder = new Map(this.sortOrder);
    m.ownGroups = new Set(this.ownGroups);
    m.categoryParent = new Map(this.categoryParent);
    m.deleted = {
      goods: new Set(this.deleted.goods),
      tags: new Set(this.deleted.tags),
      categories: new Set(this.deleted.categories),
      countries: new Set(this.deleted.countries),
      families: new Set(this.deleted.families),
    };
    m.pendingNew = new Map([...this.pendingNew].map(([k, v]) => [k, [...v]]));
    return m;
  }

  /** The baseline as the prepared database holds it: where every sequence starts. */
  static async fromBaseline(pool: Pool, supplierLinks: { id: string; status: string }[]): Promise<Model> {
    const m = new Model();
    const links = await pool.query(
      `SELECT id::text, name, category_id::text, delisted, parsed_country, parsed_logistics, parsed_product_name, parsed_sku, family_name_key, family_id::text, tags_manual FROM origin_goods ORDER BY id`,
    );
    const status = new Map(supplierLinks.map((l) => [l.id, l.status]));
    for (const r of links.rows) {
      const parts: NameParts | null = r.parsed_country ? { country: r.parsed_country, logistics: r.parsed_logistics, productName: r.parsed_product_name, sku: r.parsed_sku } : null;
      m.links.set(r.id, {
        id: r.id,
        categoryId: r.category_id,
        supplier: { name: r.name, parts, state: status.get(r.id) === 'OFF_SALE' ? 'offSale' : 'listed' },
        synced: { name: r.name, parts },
        delisted: r.delisted,
        parsedKey: r.family_name_key,
        family: r.family_id,
        manualTagIds: r.tags_manual ? [] : null,
      });
    }
    for (const r of (await pool.query(`SELECT id::text, family_name_key, auto_managed, locked, name FROM families`)).rows) {
      m.families.set(r.id, { id: r.id, key: r.family_name_key, autoManaged: r.auto_managed, locked: r.locked, name: r.name, gone: false, overrides: new Map(), shelf: 'on' });
    }
    for (const r of (await pool.query(`SELECT id::text, name, good_priority::int, tag_ids::text[], category_id::text, country_id::text, origin_good_id::text FROM goods`)).rows) {
      m.goods.set(r.id, {
        id: r.id,
        link: r.origin_good_id,
        customOf: null,
        name: r.name,
        goodPriority: r.good_priority,
        tagIds: r.tag_ids,
        categoryId: r.category_id,
        countryId: r.country_id,
        secondary: [],
        custom: null,
        shelf: 'on',
      });
    }
    for (const r of (
      await pool.query(`SELECT t.id::text, t.name, g.dimension, g.id::text AS group, t.sort_order FROM tags t JOIN tag_groups g ON g.id = t.group_id WHERE NOT t.deleted`)
    ).rows) {
      m.tags.set(r.id, { id: r.id, name: r.name, dimension: r.dimension, groupId: r.group });
      if (r.dimension === null) {
        m.ownGroups.add(r.group);
        m.sortOrder.set(`tag:${r.id}`, r.sort_order);
      }
    }
    for (const r of (await pool.query(`SELECT id::text, (raw_name IS NULL) AS own, parent_id::text AS parent, sort_order FROM categories WHERE NOT removed`)).rows) {
      m.categories.add(r.id);
      if (r.own) {
        m.ownCategories.add(r.id);
        m.sortOrder.set(`category:${r.id}`, r.sort_order);
        m.categoryParent.set(r.id, r.parent);
      }
    }
    for (const r of (await pool.query(`SELECT id::text, name, (mirror_hash IS NULL) AS own, sort_order FROM countries WHERE NOT removed`)).rows) {
      m.countries.set(r.id, r.name);
      if (r.own) {
        m.ownCountries.add(r.id);
        m.sortOrder.set(`country:${r.id}`, r.sort_order);
      }
    }
    for (const r of (await pool.query(`SELECT id::text, sort_order FROM positions WHERE NOT deleted`)).rows) m.sortOrder.set(`position:${r.id}`, r.sort_order);
    for (const r of (
      await pool.query(
        `SELECT p.id::text, coalesce(array_agg(pg.good_id::text ORDER BY pg.sort_order) FILTER (WHERE pg.good_id IS NOT NULL), '{}') AS goods FROM positions p LEFT JOIN position_goods pg ON pg.position_id = p.id WHERE NOT p.deleted GROUP BY p.id`,
      )
    ).rows) {
      m.positions.set(r.id, r.goods);
    }
    return m;
  }

  // ------------------------------------------------------------------ derived facts

  /** docs/domain.md, Public catalog: by sortOrder, then id. */
  ordered(kind: 'tag' | 'country' | 'category' | 'position', ids: Iterable<string>): string[] {
    return [...ids].sort((a, b) => (this.sortOrder.get(`${kind}:${a}`) ?? 0) - (this.sortOrder.get(`${kind}:${b}`) ?? 0) || compareIds(a, b));
  }

  liveFamily(id: string | null): MFamily | null {
    if (!id) return null;
    const f = this.families.get(id);
    return f && !f.gone ? f : null;
  }

  /** A good's family: its primary link's (while that family exists), or the family it is a custom member of. */
  familyOfGood(g: MGood): string | null {
    if (g.link) return this.liveFamily(this.links.get(g.link)?.family ?? null)?.id ?? null;
    return this.liveFamily(g.customOf)?.id ?? null;
  }

  goodsOf(familyId: string): MGood[] {
    return [...this.goods.values()].filter((g) => this.familyOfGood(g) === familyId);
  }

  membersOf(familyId: string): string[] {
    return [...this.links.values()]
      .filter((l) => l.family === familyId)
      .map((l) => l.id)
      .sort(compareIds);
  }

  /** docs/domain.md, Public catalog: a family appears when it has at least one good. */
  publicFamilies(): string[] {
    return (
      [...this.families.values()]
        // docs/domain.md, Public catalog: on the shelf, with a good on the shelf
        .filter((f) => !f.gone && f.shelf === 'on' && this.goodsOf(f.id).some((g) => g.shelf === 'on'))
        .map((f) => f.id)
        .sort(compareIds)
    );
  }

  goodOfLink(linkId: string): MGood | undefined {
    return [...this.goods.values()].find((g) => g.link === linkId);
  }

  /** Tags no good carries and (for a dimension tag) no administrator's takeover names: a delete of it is allowed. */
  tagUsedByGoods(tagId: string): boolean {
    return [...this.goods.values()].some((g) => g.tagIds.includes(tagId));
  }

  // ------------------------------------------------------------------ organisation (docs/domain.md, Families)

  private takesLinks(f: MFamily): boolean {
    return f.autoManaged && !f.locked;
  }

  private preferred(families: MFamily[]): MFamily | undefined {
    return [...families].sort((a, b) => Number(this.goodsOf(b.id).length > 0) - Number(this.goodsOf(a.id).length > 0) || compareIds(a.id, b.id))[0];
  }

  familiesWithKey(key: string): MFamily[] {
    return [...this.families.values()].filter((f) => !f.gone && f.key === key);
  }

  /** Parse, then auto-group; the families it creates are placeholders until `resolveNew`. */
  group(): void {
    for (const l of this.links.values()) {
      if (l.synced?.parts) l.parsedKey = nameKey(l.synced.parts);
    }
    for (const l of [...this.links.values()].sort((a, b) => compareIds(a.id, b.id))) {
      if (!l.synced?.parts) continue;
      if (this.liveFamily(l.family)) continue;
      l.family = null;
      const key = nameKey(l.synced.parts);
      const candidates = this.familiesWithKey(key);
      const target = this.preferred(candidates.filter((f) => this.takesLinks(f)));
      if (target) l.family = target.id;
      else if (candidates.length === 0) {
        const placeholder = NEW + key;
        if (!this.families.has(placeholder)) {
          this.families.set(placeholder, {
            id: placeholder,
            key,
            autoManaged: true,
            locked: false,
            name: `${l.synced.parts.productName} ${l.synced.parts.sku.toUpperCase()}`,
            gone: false,
            overrides: new Map(),
            shelf: 'on',
          });
        }
        l.family = placeholder;
      }
    }
  }

  /** Consolidation: every pure fragment of a key merges into the lowest-id family of the key with goods. */
  consolidate(skipKeys: ReadonlySet<string> = new Set()): void {
    const byKey = new Map<string, MFamily[]>();
    for (const f of this.families.values()) {
      if (f.gone || !f.key || skipKeys.has(f.key)) continue;
      byKey.set(f.key, [...(byKey.get(f.key) ?? []), f]);
    }
    for (const group of byKey.values()) {
      if (group.length < 2) continue;
      const target = group.filter((f) => this.goodsOf(f.id).length > 0).sort((a, b) => compareIds(a.id, b.id))[0];
      if (!target) continue;
      for (const f of group) {
        if (f.id === target.id || f.locked || this.goodsOf(f.id).length > 0 || f.overrides.size > 0 || !f.autoManaged) continue;
        for (const l of this.links.values()) if (l.family === f.id) l.family = target.id;
        f.gone = true;
        this.deleted.families.add(f.id);
      }
    }
  }

  organise(): void {
    this.group();
    this.consolidate();
  }

  /**
   * Placeholder → the id the service gave the family: from each placeholder member's observed family,
   * or, for one left without members (an administrator moved its only link out meanwhile), the family
   * of its key the model does not know yet. Answers what does not fit, or null.
   */
  resolveNew(observed: Map<string, string | null>, observedFamilies: { id: string; key: string | null }[] = []): string | null {
    const mapping = new Map<string, string>();
    for (const l of this.links.values()) {
      if (!l.family?.startsWith(NEW)) continue;
      const seen = observed.get(l.id) ?? null;
      if (!seen || this.families.has(seen)) return `link ${l.id}: expected in a new family (${l.family.slice(NEW.length)}), service has ${seen}`;
      const had = mapping.get(l.family);
      if (had && had !== seen) return `links of one new family ${l.family.slice(NEW.length)} landed in ${had} and ${seen}`;
      mapping.set(l.family, seen);
    }
    const taken = new Set(mapping.values());
    for (const [id, f] of this.families) {
      if (!id.startsWith(NEW) || mapping.has(id)) continue;
      const found = observedFamilies.find((o) => o.key === f.key && !this.families.has(o.id) && !taken.has(o.id));
      if (found) {
        mapping.set(id, found.id);
        taken.add(found.id);
      }
    }
    for (const [placeholder, id] of mapping) {
      const f = this.families.get(placeholder)!;
      this.families.set(id, { ...f, id });
      for (const l of this.links.values()) if (l.family === placeholder) l.family = id;
    }
    for (const id of [...this.families.keys()]) if (id.startsWith(NEW)) this.families.delete(id);
    return null;
  }

  /** Families the service has and the model does not, and the other way round. */
  familyDiff(observedFamilies: { id: string }[]): string[] {
    const expected = new Set([...this.families.values()].filter((f) => !f.gone).map((f) => f.id));
    const seen = new Set(observedFamilies.map((f) => f.id));
    return [
      ...[...seen].filter((id) => !expected.has(id)).map((id) => `family ${id} exists; the model has none such`),
      ...[...expected].filter((id) => !seen.has(id)).map((id) => `family ${id} is missing`),
    ];
  }

  /** Where the model says each synced link is; null where no family. */
  membership(): Map<string, string | null> {
    return new Map([...this.links.values()].filter((l) => l.synced).map((l) => [l.id, this.liveFamily(l.family)?.id ?? (l.family?.startsWith(NEW) ? l.family : null)]));
  }

  /** Differences between the model's membership and what the service shows (placeholders resolved first). */
  membershipDiff(observed: Map<string, string | null>): string[] {
    const out: string[] = [];
    for (const [id, expected] of this.membership()) {
      const seen = observed.get(id) ?? null;
      if (seen !== expected) out.push(`link ${id}: model family ${expected}, service ${seen}`);
    }
    return out;
  }

  // ------------------------------------------------------------------ synchronisation

  /** A complete listing pass: what it mirrors, and whether it holds its delisting back (SYNC_DELIST_MAX_SHARE). */
  listingSync(maxShare: number): 'succeeded' | 'held' {
    const known = [...this.links.values()].filter((l) => l.synced);
    const listed = known.filter((l) => !l.delisted).length;
    const gone = known.filter((l) => !l.delisted && l.supplier.state === 'removed').length;
    const held = gone > 0 && gone > maxShare * listed;
    for (const l of this.links.values()) {
      if (l.supplier.state === 'removed') {
        if (!held && l.synced) l.delisted = true;
        continue;
      }
      l.synced = { name: l.supplier.name, parts: l.supplier.parts };
      l.delisted = l.supplier.state === 'offSale';
    }
    return held ? 'held' : 'succeeded';
  }
}

export function compareIds(a: string, b: string): number {
  // A family organisation is creating gets an id after every existing one (src/platform/ids.ts).
  const x = a.startsWith(NEW) ? 1n << 63n : BigInt(a);
  const y = b.startsWith(NEW) ? 1n << 63n : BigInt(b);
  return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
}

export const isPlaceholder = (id: string | null) => !!id && id.startsWith(NEW);
