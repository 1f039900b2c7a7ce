/**
 * What a bulk change does to one item (docs/api.md, Bulk changes): each case is the item's ordinary
 * command (its events, its optimistic concurrency, its reference locks), so the item's history shows
 * it like any edit. A new kind of change is one more case in `bulkAction` (requests.ts) and one in
 * `CASES` here, whose type asks for a case of every kind.
 */
import { loadStream, type Actor } from '../../platform/commands';
import { AppError } from '../../platform/errors';
import { comparePositions, type LogPosition } from '../../platform/event-store/port';
import type { AdminDeps } from '../admin-commands';
import { deleteFamily, setFamilyShelf } from '../families/handle';
import { deleteGood, setGoodShelf, updateGood } from '../goods/handle';
import { goodStream } from '../goods/state';
import type { Reference } from '../references';
import type { BulkAction } from './requests';

/** An item done: whether its command appended anything, and where (the run waits once for the last). */
export interface ItemDone {
  changed: boolean;
  position: LogPosition | null;
}

export const laterOf = (a: LogPosition | null, b: LogPosition | null) => (!a ? b : !b ? a : comparePositions(a, b) >= 0 ? a : b);

const NO_WAIT = { noWait: true };
const done = (r: { position: LogPosition | null }): ItemDone => ({ changed: r.position !== null, position: r.position });

/** Tries a decision on a stream read again when another write got there first (the good's own revision). */
const ATTEMPTS = 5;

/**
 * Adds and removes tags on the good as its stream has them, at that revision (a concurrent edit makes
 * it read again). A good made from a link keeps its link's dimension tags (docs/domain.md, Goods and
 * delisting): removing one of those changes nothing.
 */
async function retagGood(deps: AdminDeps, id: string, add: readonly string[], remove: readonly string[], actor: Actor): Promise<ItemDone> {
  for (let attempt = 1; ; attempt++) {
    const { state, revision } = await loadStream(deps, goodStream(id));
    if (!state.exists || state.deleted) throw AppError.notFound('GOOD.NOT_FOUND', `no good ${id}`);
    const tagIds = [...new Set([...state.tagIds, ...add])].filter((t) => !remove.includes(t));
    try {
      return done(await updateGood(deps, id, { tagIds }, actor, revision ?? undefined, NO_WAIT));
    } catch (e) {
      if (attempt >= ATTEMPTS || !(e instanceof AppError) || e.code !== 'EVENT_STORE.WRONG_REVISION') throw e;
    }
  }
}

type Of<K extends BulkAction['kind']> = Extract<BulkAction, { kind: K }>;

/** One kind of change: what it names (checked live before the run: a 400 for the whole request), and its command on one good. */
interface ActionCase<K extends BulkAction['kind']> {
  references: (a: Of<K>) => Reference[];
  apply: (deps: AdminDeps, id: string, a: Of<K>, actor: Actor) => Promise<ItemDone>;
}

/** Every kind has its case (the mapped type says so): a new kind of change is one entry here. */
const CASES: { [K in BulkAction['kind']]: ActionCase<K> } = {
  setCountry: {
    references: (a) => [{ field: 'action.countryId', kind: 'country', ids: [a.countryId] }],
    apply: async (deps, id, a, actor) => done(await updateGood(deps, id, { countryId: a.countryId }, actor, undefined, NO_WAIT)),
  },
  setCategory: {
    references: (a) => [{ field: 'action.categoryId', kind: 'category', ids: [a.categoryId] }],
    apply: async (deps, id, a, actor) => done(await updateGood(deps, id, { categoryId: a.categoryId }, actor, undefined, NO_WAIT)),
  },
  setTags: {
    references: (a) => [
      { field: 'action.add', kind: 'tag', ids: a.add },
      { field: 'action.remove', kind: 'tag', ids: a.remove },
    ],
    apply: (deps, id, a, actor) => retagGood(deps, id, a.add, a.remove, actor),
  },
  setShelf: {
    references: () => [],
    apply: async (deps, id, a, actor) => done(await setGoodShelf(deps, id, a.state, actor, undefined, NO_WAIT)),
  },
  delete: {
    references: () => [],
    apply: async (deps, id, _a, actor) => {
      await deleteGood(deps, id, actor);
      return { changed: true, position: null };
    },
  },
};

const caseOf = <K extends BulkAction['kind']>(a: Of<K>) => CASES[a.kind] as unknown as ActionCase<K>;

/** What the action names, to check before the run. */
export const actionReferences = (action: BulkAction): Reference[] => caseOf(action).references(action);

/** One good. */
export const applyToGood = (deps: AdminDeps, id: string, action: BulkAction, actor: Actor): Promise<ItemDone> => caseOf(action).apply(deps, id, action, actor);

/**
 * One family. A family has no country, category or tags of its own: it shows its representative
 * good's (docs/domain.md, Public catalog), so those changes go to every good of the family. The
 * shelf state is the family's own, as on its page (its goods keep theirs). A delete is the family's
 * own too, refused while it has members or goods (`FAMILY.NOT_EMPTY`).
 */
export async function applyToFamily(deps: AdminDeps, id: string, action: BulkAction, actor: Actor): Promise<ItemDone> {
  if (action.kind === 'setShelf') return done(await setFamilyShelf(deps, id, { state: action.state }, actor, undefined, NO_WAIT));
  if (action.kind === 'delete') {
    await deleteFamily(deps, id, actor);
    return { changed: true, position: null };
  }
  const family = await deps.pool.query<{ goods: string[] }>(
    `SELECT COALESCE((SELECT array_agg(g.id::text ORDER BY g.id) FROM goods g WHERE g.family_id = f.id), '{}') AS goods FROM families f WHERE f.id = $1`,
    [id],
  );
  const goods = family.rows[0]?.goods;
  if (!goods) throw AppError.notFound('FAMILY.NOT_FOUND', `no family ${id}`);
  if (goods.length === 0) throw AppError.conflict('FAMILY.NO_GOODS', `family ${id} has no goods to change`);
  let changed = false;
  let position: LogPosition | null = null;
  for (const goodId of goods) {
    const r = await applyToGood(deps, goodId, action, actor);
    changed ||= r.changed;
    position = laterOf(position, r.position);
  }
  return { changed, position };
}
