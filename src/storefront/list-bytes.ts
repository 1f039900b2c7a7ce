/**
 * The public list written as bytes from items kept between loads. The list cache holds the whole
 * materialised list of a (filters, sort) (docs/api.md, Public read caching), so the first read after
 * any goods write loads every public family again: at 26 000 families, writing 16 MB of JSON and
 * hashing it cost more than reading the rows. An item's JSON depends only on its row and on the tag
 * names it shows, so each item's bytes are kept while both stay the same, and a load after one
 * write writes one item and copies the rest: items that lay next to each other in a list still
 * held (by the cache) are copied from it as one run, so a list after one change is a few copies,
 * not a copy per item. The list's ETag is a hash of the items' digests (each
 * computed once, with the item), and the offsets of the items are handed to the page cutter
 * (./page-slice.ts), so neither scans the 16 MB again.
 *
 * Loads overlap (a list of another filter, or the same list after a write, while one is reading
 * rows), so nothing a load relies on may change under it: each kept item carries the tag
 * dictionary it was written with and is used only by a load of that dictionary, a load that
 * started before a tag changed never stores its items over a newer load's, and a load answers
 * from the items it took when it started and read itself, whatever another load's prune lets go
 * meanwhile.
 */
import { createHash } from 'node:crypto';
import { PreparedJson } from '../platform/cache/public-cache';
import { rememberArrayIndex } from './page-slice';
import type { ListSortKeys } from './ordering';
import { toItem, type FamilyItemRow, type TagDictionary } from './views';

/** A row of the list as first read: its id, a hash of what its item shows, its sort keys. */
export interface ListRow extends ListSortKeys {
  item_hash: string;
}

interface KeptItem {
  hash: string;
  /** the tag dictionary's key it was written with: items name their tags */
  tags: string;
  bytes: Buffer;
  digest: Buffer;
  /** the last load that used it */
  load: number;
  /** the row it was last taken for: the family index hands out a family's row until the family changes */
  row: ListRow | null;
  /** the last list written with it (while something holds that list), at `at` in its body and `k` in its digests */
  in: WeakRef<WrittenList> | null;
  at: number;
  k: number;
}

/** A list as written: its body, and its items' digests in order, which a later list copies runs of. */
class WrittenList extends PreparedJson {
  constructor(
    body: Buffer,
    etag: string,
    readonly digests: Buffer,
  ) {
    super(body, etag);
  }
}

const OPEN = 0x5b; // [
const COMMA = 0x2c;
const CLOSE = 0x5d; // ]
const DIGEST = 16;
/** Items read whole per query, at most. */
const READ_CHUNK = 5_000;

export class ListItemBytes {
  private readonly kept = new Map<string, KeptItem>();
  /** the tag dictionary of the newest load: items written with another are not kept */
  private tagsKey: string | null = null;
  private loads = 0;
  /**
   * The last list written from each rows array, while something (the cache) still holds it: the
   * family index hands out the same array until a family in it changes (./family-index.ts), so a
   * load after a write that changed no item and no order answers the same bytes without copying them.
   */
  private readonly written = new WeakMap<readonly ListRow[], { tags: string; list: WeakRef<PreparedJson> }>();

  /**
   * The list of these rows, in this order, as a prepared JSON array; `read` gives the items not kept
   * (or kept under another hash) whole. `complete`: the rows are every public family (no filter), so
   * items no row used any more are let go.
   */
  async write(
    rows: readonly ListRow[],
    tags: TagDictionary,
    complete: boolean,
    read: (ids: string[]) => Promise<(FamilyItemRow & { item_hash: string })[]>,
  ): Promise<PreparedJson> {
    // The kept string when equal, not this load's copy: every load reads the tags anew, and two
    // copies of the dictionary's text compare character by character, once per item below (a third
    // of the cold list's CPU at 26 550 families); the same string compares at once.
    const tagsKey = tags.key === this.tagsKey ? this.tagsKey : tags.key;
    if (tagsKey !== this.tagsKey) {
      // A tag renamed, added, removed or reordered (items name tags): the items kept under the old
      // dictionary are let go. A load that began before the change answers from what it took.
      this.kept.clear();
      this.tagsKey = tagsKey;
    }
    const same = this.written.get(rows);
    const before = same?.tags === tagsKey ? same.list.deref() : undefined;
    if (before) return before;
    const load = ++this.loads;
    /** this load's item of each row: those kept under its dictionary when it began, and those it reads */
    const mine: (KeptItem | undefined)[] = new Array(rows.length);
    const missing = new Map<string, number[]>();
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      const item = this.kept.get(row.id);
      // The same row object as last time: the same hash, and no string compared.
      if (item && item.tags === tagsKey && (item.row === row || item.hash === row.item_hash)) {
        item.row = row;
        item.load = load;
        mine[i] = item;
      } else {
        const at = missing.get(row.id);
        if (at) at.push(i);
        else missing.set(row.id, [i]);
      }
    }
    const ids = [...missing.keys()];
    for (let i = 0; i < ids.length; i += READ_CHUNK) {
      for (const full of await read(ids.slice(i, i + READ_CHUNK))) {
        const bytes = Buffer.from(JSON.stringify(toItem(full, tags)), 'utf8');
        const item: KeptItem = { hash: full.item_hash, tags: tagsKey, bytes, digest: createHash('md5').update(bytes).digest(), load, row: null, in: null, at: 0, k: 0 };
        for (const at of missing.get(full.id) ?? []) mine[at] = item;
        // Kept for the next load only under the newest dictionary: a load that began before a tag
        // changed must not leave its items, which name the old tags, to a load after the change.
        if (tagsKey === this.tagsKey) this.kept.set(full.id, item);
      }
    }

    // An item not read is of a family no longer public between the two reads: left out, as a later read would.
    const items = missing.size ? mine.filter((item) => item !== undefined) : (mine as KeptItem[]);
    let length = 2 + Math.max(0, items.length - 1);
    for (let i = 0; i < items.length; i++) length += items[i]!.bytes.length;
    // A complete load lets go of what no public family uses any more (there is some when more are
    // kept than listed); never of an item a load since (or still running) took.
    if (complete && tagsKey === this.tagsKey && this.kept.size > items.length) for (const [id, item] of this.kept) if (item.load < load) this.kept.delete(id);

    const list = this.assemble(items, length);
    // Only a list of every item of the rows: one missing an item read since may not answer again.
    if (items.length === rows.length) this.written.set(rows, { tags: tagsKey, list: new WeakRef(list) });
    return list;
  }

  /**
   * The body, digests and offsets of these items, in this order. Items that lay next to each other,
   * in this order, in a list written before (still held by the cache) are copied from it as one run,
   * bytes and digests: after a write that changed one item of 26 550 the list is a few copies, not
   * two calls per item. Each item is then marked as lying in this list. No await in here, so
   * no other load moves an item's mark while this one reads it.
   */
  private assemble(items: readonly KeptItem[], length: number): WrittenList {
    const body = Buffer.allocUnsafe(length);
    const digests = Buffer.allocUnsafe(items.length * DIGEST);
    const starts = new Uint32Array(items.length);
    const ends = new Uint32Array(items.length);
    let at = 0;
    body[at++] = OPEN;
    for (let i = 0; i < items.length;) {
      if (i > 0) body[at++] = COMMA;
      const first = items[i]!;
      const from = first.in === null ? undefined : first.in.deref();
      let j = i + 1;
      if (from) {
        // The run: each next item right after the one before (past a comma), in the same list.
        for (let prev = first; j < items.length; j++) {
          const next = items[j]!;
          if (next.in !== first.in || next.at !== prev.at + prev.bytes.length + 1 || next.k !== prev.k + 1) break;
          prev = next;
        }
      }
      if (from && j - i > 1) {
        const last = items[j - 1]!;
        const offset = at - first.at;
        body.set(from.body.subarray(first.at, last.at + last.bytes.length), at);
        digests.set(from.digests.subarray(first.k * DIGEST, (last.k + 1) * DIGEST), i * DIGEST);
        for (let m = i; m < j; m++) {
          const item = items[m]!;
          starts[m] = item.at + offset;
          ends[m] = starts[m]! + item.bytes.length;
        }
        at = ends[j - 1]!;
      } else {
        // TypedArray#set: Buffer#copy costs several times as much per call.
        body.set(first.bytes, at);
        digests.set(first.digest, i * DIGEST);
        starts[i] = at;
        at += first.bytes.length;
        ends[i] = at;
        j = i + 1;
      }
      i = j;
    }
    body[at] = CLOSE;
    const etag = createHash('sha1').update(`${items.length}:`).update(digests).digest('base64url');
    const list = new WrittenList(body, `"${etag}"`, digests);
    const where = new WeakRef(list);
    for (let m = 0; m < items.length; m++) {
      const item = items[m]!;
      item.in = where;
      item.at = starts[m]!;
      item.k = m;
    }
    rememberArrayIndex(body, { starts, ends });
    return list;
  }

  /** Items kept. */
  get size(): number {
    return this.kept.size;
  }
}
