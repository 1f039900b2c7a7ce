/**
 * Replace and delete (docs/api.md, Usage): every user of a country, category or tag that an
 * administrator can move is moved to a replacement, each by its own ordinary command, and then the
 * resource is deleted, as one bulk run. Goods are moved (a category's subcategories too, under the
 * replacement); links are the supplier's (their category is the supplier's, their country and
 * dimension tags are read from their names), so no replacement can move them: a resource links still
 * use is refused before anything moves, with the usual 409 and its usage.
 */
import type { Actor } from '../../platform/commands';
import { AppError } from '../../platform/errors';
import type { AdminDeps } from '../admin-commands';
import type { Queryable } from '../../platform/db';
import { updateCategory, deleteCategory } from '../categories/handle';
import { categoryNotFound } from '../categories/decide';
import { ancestorsOf, getCategory } from '../categories/queries';
import { deleteCountry } from '../countries/handle';
import { countryNotFound } from '../countries/decide';
import { getCountry } from '../countries/queries';
import { requireReferences, type ReferenceKind } from '../references';
import { deleteTag } from '../tags/handle';
import { tagNotFound } from '../tags/decide';
import { getTag } from '../tags/queries';
import { categoryUsage, countryUsage, refuseWhileUsed, tagUsage, type Usage } from '../usage';
import { applyToGood } from './actions';
import type { BulkAction } from './requests';
import type { BulkJob } from './run';

export type Replaceable = 'countries' | 'categories' | 'tags';

/** What a replacement needs to know of each kind of resource. */
interface Kind {
  ref: ReferenceKind;
  /** the live resource, or null */
  find: (db: Queryable, id: string) => Promise<object | null>;
  notFound: (id: string) => AppError;
  usage: (db: Queryable, id: string) => Promise<Usage>;
  inUse: 'COUNTRY.IN_USE' | 'CATEGORY.IN_USE' | 'TAG.IN_USE';
  /** the goods that use it (`$1`), and what moves each of them to the replacement */
  goods: string;
  move: (id: string, replaceWith: string) => BulkAction;
  remove: (deps: AdminDeps, id: string, actor: Actor) => Promise<void>;
}

const KINDS: Record<Replaceable, Kind> = {
  countries: {
    ref: 'country',
    find: getCountry,
    notFound: countryNotFound,
    usage: countryUsage,
    inUse: 'COUNTRY.IN_USE',
    goods: 'country_id = $1',
    move: (_id, w) => ({ kind: 'setCountry', countryId: w }),
    remove: deleteCountry,
  },
  categories: {
    ref: 'category',
    find: getCategory,
    notFound: categoryNotFound,
    usage: categoryUsage,
    inUse: 'CATEGORY.IN_USE',
    goods: 'category_id = $1',
    move: (_id, w) => ({ kind: 'setCategory', categoryId: w }),
    remove: deleteCategory,
  },
  tags: {
    ref: 'tag',
    find: getTag,
    notFound: tagNotFound,
    usage: tagUsage,
    inUse: 'TAG.IN_USE',
    goods: 'tag_ids @> ARRAY[$1::bigint]',
    move: (id, w) => ({ kind: 'setTags', add: [w], remove: [id] }),
    remove: deleteTag,
  },
};

/**
 * The run that moves the users of `id` to `replaceWith` and then deletes `id`: checked first (404
 * for no such resource; 400 for a replacement that names nothing live, is the resource itself, or,
 * for a category, lies under it; 409 while links use it).
 */
export async function replacementJob(deps: AdminDeps, kind: Replaceable, id: string, replaceWith: string, actor: Actor): Promise<BulkJob> {
  const k = KINDS[kind];
  if (!(await k.find(deps.pool, id))) throw k.notFound(id);
  await requireReferences(deps.pool, [{ field: 'replaceWith', kind: k.ref, ids: [replaceWith] }]);
  if (replaceWith === id)
    throw AppError.badRequest('VALIDATION_FAILED', 'replaceWith names the resource it replaces', [{ path: 'replaceWith', message: 'not itself', code: 'custom' }]);
  if (kind === 'categories' && (await ancestorsOf(deps.pool, replaceWith)).includes(id)) {
    throw AppError.badRequest('CATEGORY.PARENT_CYCLE', `category ${replaceWith} lies under ${id}`, { parentId: replaceWith });
  }
  const usage = await k.usage(deps.pool, id);
  // Links cannot be moved: refused as the delete itself would be, with the links alone as the reason.
  if (usage.blockedBy.includes('links')) refuseWhileUsed(k.inUse, `${kind} ${id}`, { ...usage, blockedBy: ['links'] });
  const goods = (await deps.pool.query<{ id: string }>(`SELECT id::text AS id FROM goods WHERE ${k.goods} ORDER BY id`, [id])).rows.map((r) => r.id);
  const children =
    kind === 'categories'
      ? (await deps.pool.query<{ id: string }>(`SELECT id::text AS id FROM categories WHERE parent_id = $1 AND NOT removed ORDER BY id`, [id])).rows.map((r) => r.id)
      : [];
  const isChild = new Set(children);
  const move = k.move(id, replaceWith);
  return {
    target: kind,
    action: { kind: 'replace', id, replaceWith },
    ids: [...children, ...goods],
    apply: async (item) => {
      if (!isChild.has(item)) return applyToGood(deps, item, move, actor);
      // A move of the tree waits for its read model itself: the next move's cycle check reads it.
      await updateCategory(deps, item, { parentId: replaceWith }, actor);
      return { changed: true, position: null };
    },
    waitFor: ['good-0', 'category-0'],
    last: () => k.remove(deps, id, actor),
  };
}
