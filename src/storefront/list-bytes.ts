/**
 * The public list written as bytes from items kept between loads. The list cache holds the whole
 * materialised list of a (filters, sort) (docs/api.md, Public read caching), so the first read after
 * any goods write loads every public family again: at 26 000 families, writing 16 MB of JSON and
 * hashing it cost more than reading the rows. An item's JSON depends only on its row and on the tag
 * names it shows, so each item's bytes are kept while both stay the same, and a load after one
 * write writes one item and copies the rest. The list's ETag is a hash of the items' digests (each
 * computed once, with the item), and the offsets of the items are handed to the page cutter
 * (./page-slice.ts), so neither scans the 16 MB again.
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
  bytes: Buffer;
  digest: Buffer;
  /** the last load that used it */
  load: number;
}

const OPEN = 0x5b; // [
const COMMA = 0x2c;
const CLOSE = 0x5d; // ]
const DIGEST = 16;
/** Items read whole per query, at most. */
const READ_CHUNK = 5_000;

export class ListItemBytes {
  private readonly kept = new Map<string, KeptItem>();
  private tagsKey: string | null = null;
  private loads = 0;

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
    if (tags.key !== this.tagsKey) {
      this.kept.clear(); // a tag renamed, added, removed or reordered: items name tags
      this.tagsKey = tags.key;
    }
    const load = ++this.loads;
    const missing: string[] = [];
    for (const row of rows) if (this.kept.get(row.id)?.hash !== row.item_hash) missing.push(row.id);
    for (let i = 0; i < missing.length; i += READ_CHUNK) {
      for (const full of await read(missing.slice(i, i + READ_CHUNK))) {
        const bytes = Buffer.from(JSON.stringify(toItem(full, tags)), 'utf8');
        this.kept.set(full.id, { hash: full.item_hash, bytes, digest: createHash('md5').update(bytes).digest(), load });
      }
    }

    const parts: Buffer[] = [];
    const digests = Buffer.allocUnsafe(rows.length * DIGEST);
    let length = 2;
    for (const row of rows) {
      const item = this.kept.get(row.id);
      if (!item) continue; // no longer public between the two reads: left out, as a later read would
      item.load = load;
      digests.set(item.digest, parts.length * DIGEST);
      parts.push(item.bytes);
      length += item.bytes.length;
    }
    if (complete) for (const [id, item] of this.kept) if (item.load !== load) this.kept.delete(id);

    length += Math.max(0, parts.length - 1);
    const body = Buffer.allocUnsafe(length);
    const starts = new Uint32Array(parts.length);
    const ends = new Uint32Array(parts.length);
    let at = 0;
    body[at++] = OPEN;
    for (let i = 0; i < parts.length; i++) {
      if (i > 0) body[at++] = COMMA;
      starts[i] = at;
      at += parts[i]!.copy(body, at);
      ends[i] = at;
    }
    body[at++] = CLOSE;
    rememberArrayIndex(body, { starts, ends });
    const etag = createHash('sha1').update(`${parts.length}:`).update(digests.subarray(0, parts.length * DIGEST)).digest('base64url');
    return new PreparedJson(body, `"${etag}"`);
  }

  /** Items kept. */
  get size(): number {
    return this.kept.size;
  }
}
