/** Category commands of administrators: look up the tree around, then load → decide → append (runCommand). */
import { loadStream, readModelsCurrent, type Actor, type StreamSpec, commandRunner } from '../../platform/commands';
import { newId } from '../../platform/ids';
import { withLocks } from '../../platform/locks';
import { saveOrder, type AdminDeps, ownOf } from '../admin-commands';
import { categoryOrderStreamId } from './admin-events';
import { decideCategory, decideCategoryOrder, type ParentFacts } from './decide';
import { unknownReference } from '../../platform/errors';
import { evolveCategory, initialCategory, type CategoryState } from './state';
import { categoryStreamId, type CategoryEvent } from './events';
import { ancestorsOf, childOrder } from './queries';
import type { CreateCategoryBody, UpdateCategoryBody } from './requests';
import { whileUnreferenced } from '../references';
import { categoryUsage } from '../usage';

/** What a write's answer shows from its own result (src/catalog/write-answer.ts, answerWrite). */
const OWN = ['parentId', 'name', 'icon'];

export const categoryStream = (id: string): StreamSpec<CategoryState, CategoryEvent> => ({ streamId: categoryStreamId(id), initial: initialCategory, evolve: evolveCategory });

/**
 * Serialises the administrators' commands that change the shape of the tree (create, move, delete)
 * and the reorders, which read a parent's children: "no cycle", "no orphan" and "every child exactly
 * once" span streams. Renames, icons and single sort orders do not take it. The supplier mirror does
 * not either: a category it adds while a reorder is decided keeps its supplier sort order.
 */
export const CATEGORY_TREE_LOCK = 'category-tree';

async function parentFacts(deps: AdminDeps, parentId: string | null | undefined): Promise<ParentFacts | null> {
  if (parentId === null || parentId === undefined) return null;
  const parent = await loadStream(deps, categoryStream(parentId));
  if (parent.state.status !== 'active') return { exists: false, ancestors: [] };
  return { exists: true, ancestors: await ancestorsOf(deps.pool, parentId) };
}

const run = commandRunner(categoryStream, decideCategory);

const underTreeLock = <T>(deps: AdminDeps, needed: boolean, fn: () => Promise<T>) =>
  needed
    ? withLocks(deps.pool, [CATEGORY_TREE_LOCK], async () => {
        // The tree the rule is checked against must show every category event first.
        await readModelsCurrent(deps, ['category-']);
        return fn();
      })
    : fn();

export async function createCategory(deps: AdminDeps, body: CreateCategoryBody, actor: Actor) {
  const categoryId = newId();
  // Always: a create changes its parent's (or the top level's) children, which a reorder reads.
  const result = await underTreeLock(deps, true, async () => {
    const parent = await parentFacts(deps, body.parentId);
    return run(deps, categoryId, actor, { type: 'CreateCategory', categoryId, fields: body, parent });
  });
  return { id: categoryId, revision: result.revision, own: ownOf(result.state, OWN) };
}

export async function updateCategory(deps: AdminDeps, categoryId: string, changes: UpdateCategoryBody, actor: Actor, expectedRevision?: bigint) {
  const result = await underTreeLock(deps, changes.parentId !== undefined, async () => {
    const parent = await parentFacts(deps, changes.parentId);
    return run(deps, categoryId, actor, { type: 'UpdateCategory', categoryId, changes, parent }, { expectedRevision });
  });
  return { id: categoryId, revision: result.revision, own: ownOf(result.state, OWN) };
}

/**
 * Refused while it has subcategories, or goods or links are filed under it (src/catalog/usage.ts):
 * counted under the tree's lock and its reference lock, once the read models show every event.
 */
export async function deleteCategory(deps: AdminDeps, categoryId: string, actor: Actor, expectedRevision?: bigint): Promise<void> {
  await whileUnreferenced(
    deps,
    'category',
    categoryId,
    categoryStreamId(categoryId),
    ['category-', 'good-', 'link-'],
    async () => {
      const usage = await categoryUsage(deps.pool, categoryId);
      return run(deps, categoryId, actor, { type: 'DeleteCategory', categoryId, usage }, { expectedRevision });
    },
    [CATEGORY_TREE_LOCK],
  );
}

/** Saves the full new order of one parent's children (null: the top level) as one event on that parent's order stream. */
export async function sortCategories(deps: AdminDeps, parentId: string | null, ids: readonly string[], actor: Actor, expectedRevision?: bigint): Promise<void> {
  await underTreeLock(deps, true, async () => {
    // The parent is a reference of the body, not the path's resource: a 400 like any other (docs/http-contract.md, References).
    if (parentId !== null && (await loadStream(deps, categoryStream(parentId))).state.status !== 'active') throw unknownReference('parentId', [parentId], 'category');
    const current = await childOrder(deps.pool, parentId);
    await saveOrder(deps, categoryOrderStreamId(parentId), { name: 'SortCategories', actor, expectedRevision, decide: () => decideCategoryOrder(parentId, current, ids) });
  });
}
