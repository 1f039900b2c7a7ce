/**
 * The public families' list keys, kept in memory between loads of the list (docs/api.md, Public read
 * caching, rule 5) and patched after a write.
 *
 * Every goods write voids the cached lists, and the next read materialises the list again. Reading
 * and ranking every public family for that (26 550 rows at 100 000 links) cost more than the rest of
 * the load, for a write that changed one family. So a process keeps each public family's sort keys
 * and item hash, and reads again only the families that changed: the catalog projection records them
 * with each commit's new version of the `goods` cache domain (table `family_changes`, migration 034,
 * written by src/platform/projections/runner.ts), and a sync reads the rows after the version it
 * holds, with the keys and items of the families they name, in one statement (the list's load
 * takes the changed items from there). A family whose sort keys did not change (a rename, a new
 * image) keeps its place in every kept order; a few moved families are placed by binary search,
 * more make the order sorted again. When the record of changes is incomplete (a version without its
 * row, a rebuild's swap, a reader more than the kept versions behind) the sync reads every family
 * again, as a process's first sync does.
 *
 * The ranks of countries and categories (RANKS, docs/domain.md Ordering) are a few hundred rows, read
 * at every sync: a reordered tree re-sorts the kept keys without reading any family.
 *
 * Syncs are coalesced and never overlap: a load waits for a sync that started after it did, so
 * it sees every commit made before it began. Arrays handed out are never changed afterwards (a load
 * still writing a list from one keeps its order); a change makes new ones.
 */
import { RANKS } from '../catalog/domain/ordering';
import type { Queryable } from '../platform/db';
import type { ListRow } from './list-bytes';
import { COMPARE, sortFamilies } from './ordering';
import { ITEM_HASH, ITEM_SHOWN, PUBLIC_FAMILIES } from './public-families';
import type { PublicSort } from './requests';
import type { FamilyItemRow as ItemRow } from './views';

/** A public family as the index keeps it: its list keys and what it is filtered and counted by. */
export interface FamilyKeys extends ListRow {
  country_id: string | null;
  category_id: string | null;
  created_us: number;
  price_key: number | null;
}

type Ranks = { countries: Map<string, number>; categories: Map<string, number>; key: string };

/** What a sync reads of a family: every sort's keys (the representative's, docs/domain.md Ordering). */
const KEY_COLUMNS = `f.id, ${ITEM_HASH} AS item_hash, g.country_id::text, g.category_id::text,
  g.good_priority::float8 AS priority, (extract(epoch FROM g.created_at) * 1000000)::float8 AS created_us, f.lowest_price::float8 AS price_key`;

/**
 * The families changed after version `heard`, from the recorded changes of the versions above it
 * (ascending) and the domain's version now (`head`); null when the record does not say (a version
 * without its row, a row that names no families, a head that went back).
 */
export function changedFamilies(heard: bigint, head: bigint, changes: readonly { version: bigint; families: readonly string[] | null }[]): Set<string> | null {
  if (head < heard) return null;
  const changed = new Set<string>();
  let expected = heard + 1n;
  for (const c of changes) {
    if (c.version !== expected || c.families === null) return null;
    for (const id of c.families) changed.add(id);
    expected++;
  }
  return expected - 1n === head ? changed : null;
}

export class FamilyIndex {
  private rows = new Map<string, FamilyKeys>();
  /** the `goods` version the rows reflect every change up to; null before the first sync */
  private heard: bigint | null = null;
  private ranks: Ranks | null = null;
  /** the items of the families the last sync read again (none after a full read) */
  private items = new Map<string, ItemRow & { item_hash: string }>();
  private readonly sorted = new Map<PublicSort, readonly FamilyKeys[]>();
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  private readonly counters = { syncs: 0, fullReads: 0, familiesRead: 0 };

  /** Resolves once a sync that started after this call has ended (rejects with its error). */
  sync(db: Queryable): Promise<void> {
    if (!this.running) return this.start(db);
    return (this.queued ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = null;
        return this.running ?? this.start(db);
      }));
  }

  /** The public families in this order (as of the last sync). */
  inOrder(sort: PublicSort): readonly FamilyKeys[] {
    let rows = this.sorted.get(sort);
    if (!rows) this.sorted.set(sort, (rows = sortFamilies([...this.rows.values()], sort)));
    return rows;
  }

  /** The item of a family the last sync read again, with its hash as of that read (else undefined). */
  changedItem(id: string): (ItemRow & { item_hash: string }) | undefined {
    return this.items.get(id);
  }

  /** Public families per country (a family is in its representative's country), as of the last sync. */
  familiesByCountry(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const r of this.rows.values()) if (r.country_id !== null) counts.set(r.country_id, (counts.get(r.country_id) ?? 0) + 1);
    return counts;
  }

  /** `fullReads`: syncs that read every family; `familiesRead`: rows read by all syncs. */
  stats(): { syncs: number; fullReads: number; familiesRead: number; families: number } {
    return { ...this.counters, families: this.rows.size };
  }

  private start(db: Queryable): Promise<void> {
    const run: Promise<void> = this.syncNow(db).finally(() => {
      if (this.running === run) this.running = null;
    });
    this.running = run;
    return run;
  }

  private async syncNow(db: Queryable): Promise<void> {
    this.counters.syncs++;
    const ranksRead = readRanks(db);
    ranksRead.catch(() => undefined); // awaited below; a failed read of the changes must not leave it unhandled
    let changed: Set<string> | null = null;
    let head: bigint;
    let read: (FamilyKeys & ItemRow)[] = [];
    if (this.heard === null) {
      head = await goodsVersion(db);
    } else {
      // One statement, one snapshot: the changes recorded since the version held, and the keys and
      // items of the families they name (the list's load takes its changed items from here instead
      // of reading them again). Each round trip costs most on a busy server.
      const r = await db.query<{ head: string | null; changes: [string, string[] | null][] | null } & (FamilyKeys & ItemRow)>(
        `WITH c AS (SELECT goods_version, family_ids FROM family_changes WHERE goods_version > $1::bigint)
         SELECT h.head, h.changes, k.*
           FROM (SELECT (SELECT version::text FROM cache_domains WHERE domain = 'goods') AS head,
                        (SELECT json_agg(json_build_array(goods_version::text, family_ids::text[]) ORDER BY goods_version) FROM c) AS changes) h
           LEFT JOIN LATERAL (SELECT ${KEY_COLUMNS}, ${ITEM_SHOWN} ${PUBLIC_FAMILIES}
                                 AND f.id = ANY((SELECT array_agg(x) FROM c CROSS JOIN LATERAL unnest(c.family_ids) AS x)::bigint[])) k ON true`,
        [this.heard.toString()],
      );
      const first = r.rows[0];
      head = BigInt(first?.head ?? '0');
      const changes = (first?.changes ?? []).map(([version, families]) => ({ version: BigInt(version), families }));
      changed = changedFamilies(this.heard, head, changes);
      read = r.rows.filter((row) => row.id !== null);
    }
    const ranks = await ranksRead;
    const ranksMoved = this.ranks?.key !== ranks.key;
    const rank = (row: FamilyKeys): FamilyKeys => {
      row.country_rank = row.country_id === null ? null : (ranks.countries.get(row.country_id) ?? null);
      row.category_rank = row.category_id === null ? null : (ranks.categories.get(row.category_id) ?? null);
      return row;
    };

    if (changed === null) {
      this.items = new Map();
      const r = await db.query<FamilyKeys>(`SELECT ${KEY_COLUMNS} ${PUBLIC_FAMILIES}`);
      this.counters.fullReads++;
      this.counters.familiesRead += r.rows.length;
      this.rows = new Map(r.rows.map((row) => [row.id, rank(row)]));
      this.ranks = ranks;
      this.heard = head;
      this.sorted.clear();
      return;
    }
    this.counters.familiesRead += read.length;
    this.items = new Map(
      read.map((row) => [
        row.id,
        {
          id: row.id,
          name: row.name,
          image: row.image,
          price: row.price,
          country_id: row.country_id,
          category_id: row.category_id,
          tag_ids: row.tag_ids,
          tag_font_color: row.tag_font_color,
          item_hash: row.item_hash,
        },
      ]),
    );
    let fresh: FamilyKeys[] = read.map((row) => ({
      id: row.id,
      item_hash: row.item_hash,
      country_id: row.country_id,
      category_id: row.category_id,
      country_rank: null,
      category_rank: null,
      priority: row.priority,
      created_us: row.created_us,
      price_key: row.price_key,
    }));
    if (ranksMoved) {
      // Rows handed out earlier are only read for their ids and items from here on; none is sorted again.
      for (const row of this.rows.values()) rank(row);
      this.sorted.clear();
    }
    this.ranks = ranks;
    this.heard = head;
    // A changed family whose sort keys came back the same keeps its place in every order: its row is
    // swapped for the new one (a new item hash: a rename, a new image) where the old one was. The
    // others (moved, gone, new) leave and are placed again.
    const moved = new Set(changed);
    const swapped = new Map<string, FamilyKeys>();
    for (const row of fresh) {
      const was = this.rows.get(row.id);
      if (was && sameKeys(was, rank(row))) {
        moved.delete(row.id);
        if (was.item_hash !== row.item_hash) swapped.set(row.id, row);
      }
    }
    if (!moved.size && !swapped.size) return;
    for (const id of moved) this.rows.delete(id);
    for (const row of swapped.values()) this.rows.set(row.id, row);
    fresh = fresh.filter((row) => moved.has(row.id));
    for (const row of fresh) this.rows.set(row.id, rank(row));
    for (const [sort, rows] of this.sorted) this.sorted.set(sort, patchOrder(rows, sort, moved, swapped, fresh));
  }
}

/** Above this many rows to place, the order is sorted again (a nearly sorted array sorts in about one pass). */
const PLACED_ONE_BY_ONE = 64;

/**
 * A new array of `rows` (in `sort` order) without the `moved` families, with the `swapped` rows in
 * their namesakes' places (equal keys), and with `fresh` placed where `sort` puts them.
 */
export function patchOrder(
  rows: readonly FamilyKeys[],
  sort: PublicSort,
  moved: ReadonlySet<string>,
  swapped: ReadonlyMap<string, FamilyKeys>,
  fresh: readonly FamilyKeys[],
): FamilyKeys[] {
  const patched: FamilyKeys[] = moved.size ? rows.filter((row) => !moved.has(row.id)) : rows.slice();
  if (swapped.size) {
    const compare = COMPARE[sort];
    for (const row of swapped.values()) {
      const at = placeOf(patched, row, compare);
      // Equal keys, so the old row sorts where the new one does: found, or it was not in this order.
      if (at < patched.length && patched[at]!.id === row.id) patched[at] = row;
    }
  }
  if (fresh.length > PLACED_ONE_BY_ONE) {
    patched.push(...fresh);
    return sortFamilies(patched, sort);
  }
  const compare = COMPARE[sort];
  for (const row of fresh) patched.splice(placeOf(patched, row, compare), 0, row);
  return patched;
}

/** The first index of `rows` (sorted by `compare`) whose row does not sort before `row`. */
function placeOf(rows: readonly FamilyKeys[], row: FamilyKeys, compare: (a: FamilyKeys, b: FamilyKeys) => number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(rows[mid]!, row) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Equal in everything a family is sorted, filtered (country) and counted by; the item may differ. */
const sameKeys = (a: FamilyKeys, b: FamilyKeys): boolean =>
  a.country_id === b.country_id && a.category_id === b.category_id && a.priority === b.priority && a.created_us === b.created_us && a.price_key === b.price_key;

/** The `goods` domain's version now. */
async function goodsVersion(db: Queryable): Promise<bigint> {
  const r = await db.query<{ version: string }>(`SELECT version::text FROM cache_domains WHERE domain = 'goods'`);
  return BigInt(r.rows[0]?.version ?? '0');
}

/** Each country's and category's place in the default order (RANKS), and a key that is equal for equal ranks. */
async function readRanks(db: Queryable): Promise<Ranks> {
  const r = await db.query<{ kind: 'country' | 'category'; id: string; r: number }>(
    `WITH ${RANKS}
     SELECT 'country' AS kind, id::text, r FROM co UNION ALL SELECT 'category', id::text, r FROM cat WHERE r IS NOT NULL ORDER BY 1, 2`,
  );
  const countries = new Map<string, number>();
  const categories = new Map<string, number>();
  const parts: string[] = [];
  for (const row of r.rows) {
    (row.kind === 'country' ? countries : categories).set(row.id, row.r);
    parts.push(`${row.kind[1]}${row.id}:${row.r}`);
  }
  return { countries, categories, key: parts.join(',') };
}
