/** Administrator CRUD of categories: /categories (docs/api.md), and PATCH /categories/sort with one parent's full new order. */
import { categoryView } from '../../contract/vocabulary';
import { Router, type RequestHandler } from 'express';
import { parseWith } from '../../platform/http/errors';
import { expectedRevisionOf, setRevisionTag } from '../../platform/http/revision';
import { parseQuery } from '../../platform/http/validate';
import { parseId } from '../../platform/ids';
import { actorOf, answerWrite } from '../write-answer';
import { type AdminDeps } from '../admin-commands';
import { categoryNotFound } from './decide';
import { createCategory, deleteCategory, sortCategories, updateCategory } from './handle';
import { childOrder, getCategory, listCategories } from './queries';
import { createCategoryBody, listCategoriesQuery, sortCategoriesBody, updateCategoryBody } from './requests';
import { categoryUsage } from '../usage';
import { resourceDocs } from '../../platform/http/openapi';

export function categoryRoutes(deps: AdminDeps, guard: RequestHandler): Router {
  const r = Router();
  r.get('/categories', guard, async (req, res) => {
    res.json(await listCategories(deps.pool, parseQuery(listCategoriesQuery, req.query)));
  });
  // Before /categories/:id, which would take "sort" for an id.
  r.patch('/categories/sort', guard, async (req, res) => {
    const body = parseWith(sortCategoriesBody, req.body, 'body');
    await sortCategories(deps, body.parentId, body.ids, actorOf(req, res), expectedRevisionOf(req));
    res.json({ parentId: body.parentId, ids: await childOrder(deps.pool, body.parentId) });
  });
  r.get('/categories/:id', guard, async (req, res) => {
    const id = parseId(req.params.id);
    const category = await getCategory(deps.pool, id);
    if (!category) throw categoryNotFound(id);
    setRevisionTag(res, category.revision);
    res.json(category);
  });
  r.get('/categories/:id/usage', guard, async (req, res) => {
    const id = parseId(req.params.id);
    if (!(await getCategory(deps.pool, id))) throw categoryNotFound(id);
    res.json(await categoryUsage(deps.pool, id));
  });
  r.post('/categories', guard, async (req, res) => {
    const body = parseWith(createCategoryBody, req.body, 'body');
    const { id, revision, own } = await createCategory(deps, body, actorOf(req, res));
    await answerWrite(res, 201, id, revision, () => getCategory(deps.pool, id), own);
  });
  r.patch('/categories/:id', guard, async (req, res) => {
    const id = parseId(req.params.id);
    const body = parseWith(updateCategoryBody, req.body, 'body');
    const { revision, own } = await updateCategory(deps, id, body, actorOf(req, res), expectedRevisionOf(req));
    await answerWrite(res, 200, id, revision, () => getCategory(deps.pool, id), own);
  });
  r.delete('/categories/:id', guard, async (req, res) => {
    await deleteCategory(deps, parseId(req.params.id), actorOf(req, res), expectedRevisionOf(req));
    res.status(204).end();
  });
  return r;
}

/** The operations above, with the schemas they parse (src/platform/http/openapi.ts). */
export const categoryRouteDocs = resourceDocs({
  path: '/categories',
  one: 'category',
  many: 'categories',
  listQuery: listCategoriesQuery,
  createBody: createCategoryBody,
  updateBody: updateCategoryBody,
  sortBody: sortCategoriesBody,
  usage: 'subcategories, goods and links filed under it, public families of those goods (any but families refuses a delete)',
  view: categoryView,
  notFound: 'CATEGORY.NOT_FOUND',
  writeErrors: ['UNKNOWN_REFERENCE', 'CATEGORY.PARENT_CYCLE'],
  sortErrors: ['UNKNOWN_REFERENCE', 'CATEGORIES.NOT_A_PERMUTATION'],
  inUse: ['CATEGORY.HAS_CHILDREN', 'CATEGORY.IN_USE'],
});
