/** Administrator CRUD of countries: /countries, and PATCH /countries/sort with the full new order (docs/api.md). */
import { countryView } from '../../contract/vocabulary';
import { Router, type RequestHandler } from 'express';
import { parseWith } from '../../platform/http/errors';
import { expectedRevisionOf, setRevisionTag } from '../../platform/http/revision';
import { parseQuery } from '../../platform/http/validate';
import { parseId } from '../../platform/ids';
import { actorOf, answerWrite } from '../write-answer';
import { type AdminDeps } from '../admin-commands';
import { countryNotFound } from './decide';
import { type CountryState } from './state';
import { createCountry, deleteCountry, sortCountries, updateCountry } from './handle';
import { countryOrder, getCountry, listCountries } from './queries';
import { createCountryBody, listCountriesQuery, sortCountriesBody, updateCountryBody } from './requests';
import { countryUsage } from '../usage';
import { resourceDocs } from '../../platform/http/openapi';

const ownFields = (st: CountryState) => (st.status === 'none' ? undefined : { name: st.name, code: st.code });

export function countryRoutes(deps: AdminDeps, guard: RequestHandler): Router {
  const r = Router();
  r.get('/countries', guard, async (req, res) => {
    res.json(await listCountries(deps.pool, parseQuery(listCountriesQuery, req.query)));
  });
  // Before /countries/:id, which would take "sort" for an id.
  r.patch('/countries/sort', guard, async (req, res) => {
    const body = parseWith(sortCountriesBody, req.body, 'body');
    await sortCountries(deps, body.ids, actorOf(req, res), expectedRevisionOf(req));
    res.json({ ids: await countryOrder(deps.pool) });
  });
  r.get('/countries/:id', guard, async (req, res) => {
    const id = parseId(req.params.id);
    const country = await getCountry(deps.pool, id);
    if (!country) throw countryNotFound(id);
    setRevisionTag(res, country.revision);
    res.json(country);
  });
  r.get('/countries/:id/usage', guard, async (req, res) => {
    const id = parseId(req.params.id);
    if (!(await getCountry(deps.pool, id))) throw countryNotFound(id);
    res.json(await countryUsage(deps.pool, id));
  });
  r.post('/countries', guard, async (req, res) => {
    const body = parseWith(createCountryBody, req.body, 'body');
    const { id, revision, state } = await createCountry(deps, body, actorOf(req, res));
    await answerWrite(res, 201, id, revision, () => getCountry(deps.pool, id), ownFields(state));
  });
  r.patch('/countries/:id', guard, async (req, res) => {
    const id = parseId(req.params.id);
    const body = parseWith(updateCountryBody, req.body, 'body');
    const { revision, state } = await updateCountry(deps, id, body, actorOf(req, res), expectedRevisionOf(req));
    await answerWrite(res, 200, id, revision, () => getCountry(deps.pool, id), ownFields(state));
  });
  r.delete('/countries/:id', guard, async (req, res) => {
    await deleteCountry(deps, parseId(req.params.id), actorOf(req, res), expectedRevisionOf(req));
    res.status(204).end();
  });
  return r;
}

/** The operations above, with the schemas they parse (src/platform/http/openapi.ts). */
export const countryRouteDocs = resourceDocs({
  path: '/countries',
  one: 'country',
  many: 'countries',
  listQuery: listCountriesQuery,
  createBody: createCountryBody,
  updateBody: updateCountryBody,
  sortBody: sortCountriesBody,
  usage: 'goods placed in it, links whose name names it, public families of those goods (goods or links refuse a delete)',
  view: countryView,
  notFound: 'COUNTRY.NOT_FOUND',
  writeErrors: ['COUNTRY.CODE_TAKEN'],
  sortErrors: ['COUNTRIES.NOT_A_PERMUTATION'],
  inUse: ['COUNTRY.IN_USE'],
});
