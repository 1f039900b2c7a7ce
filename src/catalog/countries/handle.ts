/** Country commands of administrators: load → decide → append (runCommand). */
import { readModelsCurrent, type Actor, type StreamSpec, commandRunner } from '../../platform/commands';
import { AppError } from '../../platform/errors';
import { withLocks } from '../../platform/locks';
import { newId } from '../../platform/ids';
import { saveOrder, type AdminDeps } from '../admin-commands';
import { COUNTRY_ORDER_STREAM } from './admin-events';
import { decideCountry, decideCountryOrder } from './decide';
import { evolveCountry, initialCountry, type CountryState } from './state';
import { countryStreamId, type CountryEvent } from './events';
import { countryOrder } from './queries';
import { whileUnreferenced } from '../references';
import { countryUsage } from '../usage';
import type { CreateCountryBody, UpdateCountryBody } from './requests';

export const countryStream = (id: string): StreamSpec<CountryState, CountryEvent> => ({ streamId: countryStreamId(id), initial: initialCountry, evolve: evolveCountry });

const run = commandRunner(countryStream, decideCountry);

/** Serialises the code check and the write that follows it, across processes. */
const COUNTRY_CODES_LOCK = 'country-codes';

/**
 * A country code names one live country (docs/domain.md, Countries): checked against the read model
 * once it shows every country event, under the lock, so two creates cannot both take a code.
 */
async function withCodeFree<T>(deps: AdminDeps, code: string | undefined, countryId: string, fn: () => Promise<T>): Promise<T> {
  if (code === undefined) return fn();
  return withLocks(deps.pool, [COUNTRY_CODES_LOCK], async () => {
    await readModelsCurrent(deps, ['country-']);
    const taken = await deps.pool.query<{ id: string }>(`SELECT id::text FROM countries WHERE upper(code) = $1 AND NOT removed AND id <> $2 LIMIT 1`, [code, countryId]);
    if (taken.rows[0]) throw AppError.conflict('COUNTRY.CODE_TAKEN', `country ${taken.rows[0].id} already has code ${code}`, { countryId: taken.rows[0].id });
    return fn();
  });
}

export async function createCountry(deps: AdminDeps, body: CreateCountryBody, actor: Actor) {
  const countryId = newId();
  const result = await withCodeFree(deps, body.code, countryId, () => run(deps, countryId, actor, { type: 'CreateCountry', countryId, fields: body }));
  return { id: countryId, revision: result.revision, state: result.state };
}

export async function updateCountry(deps: AdminDeps, countryId: string, changes: UpdateCountryBody, actor: Actor, expectedRevision?: bigint) {
  const result = await withCodeFree(deps, changes.code, countryId, () => run(deps, countryId, actor, { type: 'UpdateCountry', countryId, changes }, { expectedRevision }));
  return { id: countryId, revision: result.revision, state: result.state };
}

/** Refused while goods or links use the country (src/catalog/usage.ts), counted under its reference lock. */
export async function deleteCountry(deps: AdminDeps, countryId: string, actor: Actor, expectedRevision?: bigint): Promise<void> {
  await whileUnreferenced(deps, 'country', countryId, countryStreamId(countryId), ['country-', 'good-', 'link-'], async () => {
    const usage = await countryUsage(deps.pool, countryId);
    return run(deps, countryId, actor, { type: 'DeleteCountry', countryId, usage }, { expectedRevision });
  });
}

/** Saves the full new order of all countries as one event on the order stream. */
export async function sortCountries(deps: AdminDeps, ids: readonly string[], actor: Actor, expectedRevision?: bigint): Promise<void> {
  const current = await countryOrder(deps.pool);
  await saveOrder(deps, COUNTRY_ORDER_STREAM, { name: 'SortCountries', actor, expectedRevision, decide: () => decideCountryOrder(current, ids) });
}
