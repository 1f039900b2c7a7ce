/**
 * The organised catalog: links (origin_goods), families and goods in one projection, so a family's
 * aggregates are always computed from one consistent snapshot.
 *
 * A batch is applied set-based, in four steps of a few statements each, whatever its size:
 * 1. links: the batch's link events folded per link, in log order, over the link's stored revision
 *    (an event at or below it changes nothing, so a replay is a no-op), then one INSERT of the new
 *    links and one UPDATE per set of changed columns;
 * 2. goods, the same way per good;
 * 3. families folded the same way (every family event moves the row's revision, so it is the
 *    stream's), new ones in one INSERT; custom members and overrides (administrators' few edits) in
 *    log order;
 * 4. goods follow their primary link's family, and each family the batch touched is recomputed
 *    (variants, size chart, packaging, price matrix, lowest price, media by colour, representative);
 *    a family whose goods alone changed (a good made from a link, a good's own fields) only has its
 *    good count and representative recomputed, which is all that depends on them.
 * The rows equal those of applying the events one at a time (test/integration/catalog/
 * catalog-projection.test.ts compares the two). The order of the steps is what makes that hold:
 * links read nothing of goods or families; a good takes its family from its link, which step 1 has
 * settled and step 4 enforces again; family events touch goods only through custom members, whose
 * goods step 2 has created. A family marked as touched is recomputed from the final rows, so marking
 * one more than needed changes nothing.
 */
import { linkEvents, type DimensionValues, type LinkEvent } from '../src/catalog/links/events';
import { familyEvents, type FamilyEvent } from '../src/catalog/families/events';
import { goodEvents, type GoodEvent } from '../src/catalog/goods/events';
import { recomputeFamilies, recomputeFamilyGoods } from '../src/catalog/families/recompute';
import type { DecodedEvent, EventDefinition, EventUnion } from '../src/platform/events/registry';
import { defineBatchProjection, type ProjectionDb } from '../src/platform/projections/definition';
import { linkMirrorHash } from '../src/catalog/links/mirror';
import { contentHash } from '../src/platform/content-hash';
import { type Columns, RowChanges, insertRows, updateRows } from '../src/platform/projections/sql';
import { linkFold } from './catalog-fold';

const LINK_COLUMNS: Columns = {
  id: 'bigint',
  name: 'text',
  category_id: 'bigint',
  craft_label: 'text',
  price: 'numeric',
  image: 'text',
  status: 'text',
  supplier_updated_at: 'timestamptz',
  delisted: 'boolean',
  delisted_reason: 'text',
  mirror_hash: 'text',
  detail: 'jsonb',
  detail_hash: 'text',
  detail_synced_at: 'timestamptz',
  revision: 'bigint',
  first_seen_at: 'timestamptz',
  updated_at: 'timestamptz',
  parsed_country: 'text',
  parsed_logistics: 'text',
  parsed_product_name: 'text',
  parsed_sku: 'text',
  family_name_key: 'text',
  tags: 'jsonb',
  tags_manual: 'boolean',
  tags_missing: 'jsonb',
  family_id: 'bigint',
};

const GOOD_COLUMNS: Columns = {
  id: 'bigint',
  name: 'text',
  description: 'text',
  image: 'text',
  good_priority: 'numeric',
  tag_ids: 'bigint[]',
  tag_font_color: 'text',
  category_id: 'bigint',
  country_id: 'bigint',
  origin_good_id: 'bigint',
  family_id: 'bigint',
  on_shelf: 'boolean',
  created_at: 'timestamptz',
  updated_at: 'timestamptz',
  revision: 'bigint',
};

const FAMILY_COLUMNS: Columns = {
  id: 'bigint',
  name: 'text',
  family_name_key: 'text',
  auto_managed: 'boolean',
  locked: 'boolean',
  on_shelf: 'boolean',
  created_at: 'timestamptz',
  updated_at: 'timestamptz',
  revision: 'bigint',
};

const parsedColumns = (d: { country: string; logistics: string; productName: string; sku: string; familyNameKey: string }) => ({
  parsed_country: d.country,
  parsed_logistics: d.logistics,
  parsed_product_name: d.productName,
  parsed_sku: d.sku,
  family_name_key: d.familyNameKey,
});
const missingOf = (tags: DimensionValues) => (['craft', 'logistics'] as const).filter((d) => tags[d].length === 0);

/** What one batch changes, collected by the steps. */
interface BatchEffects {
  /** families whose aggregates the batch may have changed */
  touched: Set<string>;
  /** families whose goods alone changed (a good made from a link, a good's priority): only the good count and representative move */
  goodsTouched: Set<string>;
  /** links whose family changed: their goods must follow */
  moved: Set<string>;
  /** goods the batch created: they take their link's family */
  created: Set<string>;
  /** links whose detail or listing changed: the families of goods that merge them as secondary origins change too */
  reshown: Set<string>;
  /** families merged away or deleted */
  gone: Set<string>;
  /** families put on or taken off the shelf: nothing of them is recomputed, but the storefront reads them again */
  shelved: Set<string>;
}

const touch = (fx: BatchEffects, familyId: string | null | undefined) => {
  if (familyId) fx.touched.add(familyId);
};
const touchGoods = (fx: BatchEffects, familyId: string | null | undefined) => {
  if (familyId) fx.goodsTouched.add(familyId);
};

interface RowState {
  exists: boolean;
  revision: bigint;
  familyId: string | null;
}

/**
 * What a batch's events of one table need to know of their rows before applying: whether each
 * exists, the revision it holds (an event applies only to an older row) and its family, read in one
 * query; a row not there yet starts as absent (`absent`: its family, if it has one by its id).
 * Answers the state per id, which the apply step updates as it folds the events, and the inserts
 * and updates it collects.
 */
async function rowStates(
  db: ProjectionDb,
  sql: string,
  ids: readonly string[],
  absent: (id: string) => string | null = () => null,
): Promise<{ state: (id: string) => RowState; inserts: RowChanges; updates: RowChanges }> {
  const stored = await db.query<{ id: string; revision: string; family_id: string | null }>(sql, [[...new Set(ids)]]);
  const states = new Map<string, RowState>(stored.rows.map((r) => [r.id, { exists: true, revision: BigInt(r.revision), familyId: r.family_id }]));
  const state = (id: string) => {
    let st = states.get(id);
    if (!st) states.set(id, (st = { exists: false, revision: -1n, familyId: absent(id) }));
    return st;
  };
  return { state, inserts: new RowChanges(), updates: new RowChanges() };
}

/** Step 1: links. */
async function applyLinkEvents(db: ProjectionDb, events: readonly DecodedEvent<LinkEvent>[], fx: BatchEffects): Promise<void> {
  if (events.length === 0) return;
  const { state, inserts, updates } = await rowStates(
    db,
    `SELECT id, revision, family_id FROM origin_goods WHERE id = ANY($1::bigint[])`,
    events.map((e) => e.data.linkId),
  );

  for (const e of events) {
    const id = e.data.linkId;
    const st = state(id);
    const rev = e.revision;
    const at = e.recordedAt;
    const write = (values: Record<string, unknown>) => (inserts.has(id) ? inserts : updates).set(id, { ...values, revision: rev.toString() });

    if (e.type === 'LinkMirrored') {
      const m = e.data;
      const mirror = {
        name: m.name,
        category_id: m.categoryId,
        craft_label: m.craftLabel,
        price: m.price,
        image: m.image,
        status: m.status,
        supplier_updated_at: m.supplierUpdatedAt,
        mirror_hash: linkMirrorHash(m),
        updated_at: at,
      };
      if (!st.exists) {
        inserts.set(id, { ...mirror, first_seen_at: at, revision: rev.toString() });
        st.exists = true;
        st.revision = rev;
      } else if (st.revision < rev) {
        write(mirror);
        st.revision = rev;
        touch(fx, st.familyId);
      }
      continue;
    }
    // Every other link event updates an existing row, and only with a newer revision.
    if (!st.exists || st.revision >= rev) continue;
    st.revision = rev;
    switch (e.type) {
      case 'LinkDelisted':
        write({ delisted: true, delisted_reason: e.data.reason, updated_at: at });
        touch(fx, st.familyId);
        fx.reshown.add(id);
        break;
      case 'LinkRelisted':
        write({ delisted: false, delisted_reason: null, updated_at: at });
        touch(fx, st.familyId);
        fx.reshown.add(id);
        break;
      case 'LinkDetailSynced': {
        const detail = e.data.detail;
        write({ detail, detail_hash: contentHash(detail), detail_synced_at: at, updated_at: at });
        touch(fx, st.familyId);
        fx.reshown.add(id);
        break;
      }
      case 'LinkParsed':
        write({ ...parsedColumns(e.data), updated_at: at });
        touch(fx, st.familyId);
        break;
      case 'LinkTagsDerived':
      case 'LinkTagsRestored':
      case 'LinkTagsTakenOver': {
        const tags = e.data.tags;
        write({ tags, tags_manual: e.type === 'LinkTagsTakenOver', tags_missing: missingOf(tags), updated_at: at });
        touch(fx, st.familyId);
        break;
      }
      case 'LinkJoinedFamily':
      case 'LinkLeftFamily': {
        const familyId = e.type === 'LinkJoinedFamily' ? e.data.familyId : null;
        write({ family_id: familyId, updated_at: at });
        st.familyId = familyId;
        touch(fx, e.data.familyId);
        fx.moved.add(id);
        break;
      }
      case 'LinkOrganised': {
        // LinkParsed, LinkTagsDerived and LinkJoinedFamily in one event, each part only when present.
        const d = e.data;
        write({
          ...(d.parsed ? parsedColumns(d.parsed) : {}),
          ...(d.tags ? { tags: d.tags, tags_manual: false, tags_missing: missingOf(d.tags) } : {}),
          ...(d.familyId ? { family_id: d.familyId } : {}),
          updated_at: at,
        });
        touch(fx, st.familyId);
        if (d.familyId) {
          st.familyId = d.familyId;
          touch(fx, d.familyId);
          fx.moved.add(id);
        }
        break;
      }
      case 'LinkGoodAssigned':
      case 'LinkGoodUnassigned':
        // The goods table holds the relation; the link's revision must still follow its stream,
        // since synchronisation appends expecting it.
        write({});
        break;
      default: {
        const _exhaustive: never = e;
        break;
      }
    }
  }
  for (const g of inserts.groups('id')) await insertRows(db, 'origin_goods', LINK_COLUMNS, g.names, g.rows);
  for (const g of updates.groups('id')) await updateRows(db, 'origin_goods', LINK_COLUMNS, g.names, g.rows, 't.revision < u.revision');
}

/** Step 2: goods and their merged secondary origins. */
async function applyGoodEvents(db: ProjectionDb, events: readonly DecodedEvent<GoodEvent>[], fx: BatchEffects): Promise<void> {
  if (events.length === 0) return;
  const { state, inserts, updates } = await rowStates(
    db,
    `SELECT id, revision, family_id FROM goods WHERE id = ANY($1::bigint[])`,
    events.map((e) => e.data.goodId),
  );
  // A new good's family is its primary link's family (custom goods get one as custom members).
  const origins = events.flatMap((e) => (e.type === 'GoodCreated' && e.data.originGoodId ? [e.data.originGoodId] : []));
  const linkFamily = new Map<string, string | null>();
  if (origins.length) {
    const r = await db.query<{ id: string; family_id: string | null }>(`SELECT id, family_id FROM origin_goods WHERE id = ANY($1::bigint[])`, [origins]);
    for (const row of r.rows) linkFamily.set(row.id, row.family_id);
  }
  const originLists = new Map<string, string[]>();
  const deleted = new Set<string>();

  for (const e of events) {
    const id = e.data.goodId;
    const st = state(id);
    const rev = e.revision;
    const at = e.recordedAt;
    switch (e.type) {
      case 'GoodCreated': {
        if (st.exists) break;
        const d = e.data;
        const familyId = d.originGoodId ? (linkFamily.get(d.originGoodId) ?? null) : null;
        inserts.set(id, {
          name: d.name,
          description: d.description,
          image: d.image,
          good_priority: d.goodPriority,
          tag_ids: d.tagIds,
          tag_font_color: d.tagFontColor,
          category_id: d.categoryId,
          country_id: d.countryId,
          origin_good_id: d.originGoodId,
          family_id: familyId,
          created_at: at,
          updated_at: at,
          revision: rev.toString(),
        });
        Object.assign(st, { exists: true, revision: rev, familyId });
        fx.created.add(id);
        // A new good has no secondary origins yet (those come with GoodOriginsSet).
        touchGoods(fx, familyId);
        break;
      }
      case 'GoodShelfSet':
        if (!st.exists || st.revision >= rev) break;
        st.revision = rev;
        (inserts.has(id) ? inserts : updates).set(id, { on_shelf: e.data.state === 'on', revision: rev.toString(), updated_at: at });
        // Only goods on the shelf are candidates for the representative (docs/domain.md, Public catalog).
        touchGoods(fx, st.familyId);
        break;
      case 'GoodUpdated':
      case 'GoodOriginsSet': {
        if (!st.exists || st.revision >= rev) break;
        st.revision = rev;
        const values: Record<string, unknown> = { revision: rev.toString(), updated_at: at };
        if (e.type === 'GoodUpdated') {
          const d = e.data;
          Object.assign(values, {
            name: d.name,
            description: d.description,
            image: d.image,
            good_priority: d.goodPriority,
            tag_ids: d.tagIds,
            tag_font_color: d.tagFontColor,
            category_id: d.categoryId,
            country_id: d.countryId,
          });
        } else {
          originLists.set(id, e.data.secondaryOriginGoodIds);
        }
        (inserts.has(id) ? inserts : updates).set(id, values);
        // Fields of the good itself weigh only in the choice of representative; its origins, in the media.
        if (e.type === 'GoodUpdated') touchGoods(fx, st.familyId);
        else touch(fx, st.familyId);
        break;
      }
      case 'GoodDeleted':
        // Unguarded, as a delete is: whatever the good's revision, it is gone.
        if (st.exists) touch(fx, st.familyId);
        st.exists = false;
        inserts.delete(id);
        updates.delete(id);
        originLists.delete(id);
        deleted.add(id);
        break;
      default: {
        const _exhaustive: never = e;
        break;
      }
    }
  }
  if (deleted.size) {
    await db.query(`DELETE FROM goods WHERE id = ANY($1::bigint[])`, [[...deleted]]);
    await db.query(`DELETE FROM good_origin_goods WHERE good_id = ANY($1::bigint[])`, [[...deleted]]);
  }
  for (const g of inserts.groups('id')) await insertRows(db, 'goods', GOOD_COLUMNS, g.names, g.rows, 'ON CONFLICT (id) DO NOTHING');
  for (const g of updates.groups('id')) await updateRows(db, 'goods', GOOD_COLUMNS, g.names, g.rows, 't.revision < u.revision');
  if (originLists.size) {
    const goods = [...originLists.keys()];
    await db.query(`DELETE FROM good_origin_goods WHERE good_id = ANY($1::bigint[])`, [goods]);
    const rows = goods.flatMap((good) => originLists.get(good)!.map((origin, i) => [good, origin, i + 1]));
    await insertRows(db, 'good_origin_goods', { good_id: 'bigint', origin_good_id: 'bigint', position: 'integer' }, ['good_id', 'origin_good_id', 'position'], rows);
  }
}

/**
 * Step 3: families, their custom members and overrides. The family row is folded like a link's:
 * every family event that is newer than the row moves its revision (so the row's revision is its
 * stream's, which organisation appends against), a rename or a lock also its columns; created
 * families go in one INSERT, the rest in one UPDATE per set of columns. Custom members and overrides
 * (administrators' edits, few) and the removal of a merged or deleted family run in log order.
 */
async function applyFamilyEvents(db: ProjectionDb, events: readonly DecodedEvent<FamilyEvent>[], fx: BatchEffects): Promise<void> {
  if (events.length === 0) return;
  // A family row's family is itself.
  const { state, inserts, updates } = await rowStates(
    db,
    `SELECT id, revision, id AS family_id FROM families WHERE id = ANY($1::bigint[])`,
    events.map((e) => e.data.familyId),
    (id) => id,
  );

  for (const e of events) {
    const id = e.data.familyId;
    const st = state(id);
    const rev = e.revision;
    const at = e.recordedAt;
    if (e.type === 'FamilyCreated') {
      if (!st.exists) {
        const d = e.data;
        inserts.set(id, {
          name: d.name,
          family_name_key: d.familyNameKey,
          auto_managed: d.autoManaged,
          locked: d.locked,
          on_shelf: d.shelf === 'on',
          created_at: at,
          updated_at: at,
          revision: rev.toString(),
        });
        Object.assign(st, { exists: true, revision: rev });
      }
      touch(fx, id);
      continue;
    }
    // The row takes the event (its revision, and a rename's or lock's columns) only when it is newer.
    if (st.exists && st.revision < rev) {
      st.revision = rev;
      const values: Record<string, unknown> = { revision: rev.toString() };
      if (e.type === 'FamilyRenamed') Object.assign(values, { name: e.data.name, updated_at: at });
      if (e.type === 'FamilyLocked' || e.type === 'FamilyUnlocked') Object.assign(values, { locked: e.type === 'FamilyLocked', updated_at: at });
      if (e.type === 'FamilyShelfSet') Object.assign(values, { on_shelf: e.data.state === 'on', updated_at: at });
      (inserts.has(id) ? inserts : updates).set(id, values);
    }
    switch (e.type) {
      case 'FamilyCustomMemberAdded': {
        const d = e.data;
        await db.query(
          `INSERT INTO family_custom_members (family_id, good_id, tags, price) VALUES ($1, $2, $3, $4)
           ON CONFLICT (family_id, good_id) DO UPDATE SET tags = EXCLUDED.tags, price = EXCLUDED.price`,
          [d.familyId, d.goodId, d.tags, d.price],
        );
        await db.query(`UPDATE goods SET family_id = $1 WHERE id = $2 AND origin_good_id IS NULL`, [d.familyId, d.goodId]);
        touch(fx, d.familyId);
        break;
      }
      case 'FamilyCustomMemberRemoved': {
        const d = e.data;
        await db.query(`DELETE FROM family_custom_members WHERE family_id = $1 AND good_id = $2`, [d.familyId, d.goodId]);
        await db.query(`UPDATE goods SET family_id = NULL WHERE id = $2 AND family_id = $1 AND origin_good_id IS NULL`, [d.familyId, d.goodId]);
        touch(fx, d.familyId);
        break;
      }
      case 'FamilyPriceOverrideSet':
      case 'FamilyPriceOverrideRemoved': {
        const k = e.data;
        const key = [k.familyId, k.size, k.color, k.printCount, k.craft, k.logistics];
        if (e.type === 'FamilyPriceOverrideSet') {
          await db.query(
            `INSERT INTO family_overrides (family_id, size, color, print_count, craft, logistics, price) VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (family_id, size, color, print_count, craft, logistics) DO UPDATE SET price = EXCLUDED.price`,
            [...key, e.data.price],
          );
        } else {
          await db.query(`DELETE FROM family_overrides WHERE family_id = $1 AND size = $2 AND color = $3 AND print_count = $4 AND craft = $5 AND logistics = $6`, key);
        }
        touch(fx, k.familyId);
        break;
      }
      case 'FamilyRecomputed':
        // Its aggregates were found to differ from its rows: computed again from them.
        touch(fx, id);
        break;
      case 'FamilyMergedInto':
      case 'FamilyDeleted': {
        const d = e.data;
        // Its links moved (or left) through their own events; custom members go with the family.
        await db.query(`UPDATE goods SET family_id = NULL WHERE family_id = $1 AND origin_good_id IS NULL`, [d.familyId]);
        await db.query(`DELETE FROM family_custom_members WHERE family_id = $1`, [d.familyId]);
        await db.query(`DELETE FROM family_overrides WHERE family_id = $1`, [d.familyId]);
        await db.query(`DELETE FROM family_stamps WHERE family_id = $1`, [d.familyId]);
        await db.query(`DELETE FROM families WHERE id = $1`, [d.familyId]);
        inserts.delete(id);
        updates.delete(id);
        st.exists = false;
        fx.touched.delete(d.familyId);
        fx.gone.add(d.familyId);
        if (e.type === 'FamilyMergedInto') touch(fx, e.data.intoFamilyId);
        break;
      }
      case 'FamilyShelfSet':
        // The row above is all it changes (`is_public` follows in the database); the storefront reads the family again.
        fx.shelved.add(id);
        break;
      case 'FamilyMemberAdded':
      case 'FamilyMembersAdded':
      case 'FamilyMemberRemoved':
      case 'FamilyRenamed':
      case 'FamilyLocked':
      case 'FamilyUnlocked':
        // The row above is all they change (membership itself lives on the link stream).
        break;
      default: {
        const _exhaustive: never = e;
        break;
      }
    }
  }
  for (const g of inserts.groups('id')) await insertRows(db, 'families', FAMILY_COLUMNS, g.names, g.rows, 'ON CONFLICT (id) DO NOTHING');
  for (const g of updates.groups('id')) await updateRows(db, 'families', FAMILY_COLUMNS, g.names, g.rows, 't.revision < u.revision');
}

/** Step 4: a link that joined, moved or left takes its good along (both families are touched); then recompute. */
async function settleBatch(db: ProjectionDb, fx: BatchEffects, recompute: boolean): Promise<void> {
  if (fx.moved.size || fx.created.size) {
    const followed = await db.query<{ old_family: string | null; new_family: string | null }>(
      `WITH changed AS (
         SELECT g.id, g.family_id AS old_family, og.family_id AS new_family
           FROM goods g JOIN origin_goods og ON og.id = g.origin_good_id
          WHERE (g.origin_good_id = ANY($1::bigint[]) OR g.id = ANY($2::bigint[])) AND g.family_id IS DISTINCT FROM og.family_id
       )
       UPDATE goods g SET family_id = c.new_family FROM changed c WHERE g.id = c.id RETURNING c.old_family, c.new_family`,
      [[...fx.moved], [...fx.created]],
    );
    for (const m of followed.rows) {
      touch(fx, m.old_family);
      touch(fx, m.new_family);
    }
  }
  if (fx.reshown.size) {
    const merging = await db.query<{ family_id: string }>(
      `SELECT DISTINCT g.family_id FROM good_origin_goods gog JOIN goods g ON g.id = gog.good_id
        WHERE gog.origin_good_id = ANY($1::bigint[]) AND g.family_id IS NOT NULL`,
      [[...fx.reshown]],
    );
    for (const r of merging.rows) touch(fx, r.family_id);
  }
  if (recompute) {
    await recomputeFamilies(db, [...fx.touched]);
    await recomputeFamilyGoods(
      db,
      [...fx.goodsTouched].filter((f) => !fx.touched.has(f)),
    );
  }
}

/** Families recomputed per settling step of a rebuild. */
const SETTLE_STEP = 2_000;

/** The batch's events of one slice (`defs`, its event definitions), in log order. */
function ofSlice<Defs extends readonly EventDefinition[]>(events: readonly DecodedEvent[], defs: Defs): DecodedEvent<EventUnion<Defs>>[] {
  const types = new Set<string>(defs.map((d) => d.type));
  return events.filter((e): e is DecodedEvent<EventUnion<Defs>> => types.has(e.type));
}

/** Every event of the link, family and good streams: each step's switch ends in a `never` check over its slice's. */
export const catalogProjection = defineBatchProjection({
  name: 'catalog',
  events: [...linkEvents, ...familyEvents, ...goodEvents],
  streamPrefixes: ['link-', 'family-', 'good-'],
  tables: ['origin_goods', 'families', 'family_custom_members', 'family_overrides', 'goods', 'good_origin_goods', 'family_stamps'],
  domains: ['goods', 'matrix', 'meta'],
  // A rebuild on the postgres log writes the links straight from the log (./catalog-fold.ts).
  sqlFold: linkFold,
  async applyBatch(db, events, mode) {
    const fx: BatchEffects = { touched: new Set(), goodsTouched: new Set(), moved: new Set(), created: new Set(), reshown: new Set(), gone: new Set(), shelved: new Set() };
    await applyLinkEvents(db, ofSlice(events, linkEvents), fx);
    await applyGoodEvents(db, ofSlice(events, goodEvents), fx);
    await applyFamilyEvents(db, ofSlice(events, familyEvents), fx);
    // A rebuild's replay recomputes nothing: `settle` recomputes every family once at its end.
    await settleBatch(db, fx, !mode?.deferDerived);
    // What the storefront reads again (src/storefront/family-index.ts): every family recomputed, and those gone.
    const families = [...new Set([...fx.touched, ...fx.goodsTouched, ...fx.gone, ...fx.shelved])];
    // The storefront shows families only: a batch that touched none (links and goods outside
    // families, as in a first synchronisation) voids no cached answer (BatchOutcome).
    return { families, unseen: families.length === 0 };
  },
  async settle(db, after) {
    const r = await db.query<{ id: string }>(`SELECT id FROM families WHERE id > $1 ORDER BY id LIMIT $2`, [after ?? '-1', SETTLE_STEP]);
    if (r.rows.length === 0) return null;
    await recomputeFamilies(
      db,
      r.rows.map((f) => f.id),
    );
    return r.rows[r.rows.length - 1]!.id;
  },
  async settleSplit(db, after) {
    // The last family of the step after `after`, when another step follows it.
    const r = await db.query<{ id: string }>(`SELECT id FROM families WHERE id > $1 ORDER BY id OFFSET $2 LIMIT 1`, [after ?? '-1', SETTLE_STEP - 1]);
    const next = await db.query<{ id: string }>(`SELECT 1 AS id FROM families WHERE id > $1 LIMIT 1`, [r.rows[0]?.id ?? '9223372036854775807']);
    return r.rows[0] && next.rows.length ? r.rows[0].id : null;
  },
});
