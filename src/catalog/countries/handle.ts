/** Country commands of administrators: load → decide → append (runCommand). */
import { runCommand, type Actor, type StreamSpec } from '../../platform/commands';
import { newId } from '../../platform/ids';
import { saveOrder, type AdminDeps } from '../admin';
import { COUNTRY_ORDER_STREAM } from './admin-events';
import { decideCountry, decideCountryOrder, evolveCountry, initialCountry, type CountryCommand, type CountryState } from './decide';
import { countryStreamId } from './events';
import { countryOrder } from './queries';
import type { CreateCountryBody, UpdateCountryBody } from './requests';

export const countryStream = (id: string): StreamSpec<CountryState> => ({ streamId: countryStreamId(id), initial: initialCountry, evolve: evolveCountry });

function run(deps: AdminDeps, countryId: string, actor: Actor, command: CountryCommand, expectedRevision?: bigint) {
  return runCommand(deps, countryStream(countryId), {
    name: command.type,
    actor,
    ...(expectedRevision !== undefined ? { expectedRevision } : {}),
    decide: (state) => decideCountry(state, command),
  });
}

export async function createCountry(deps: AdminDeps, body: CreateCountryBody, actor: Actor) {
  const countryId = newId();
  const result = await run(deps, countryId, actor, { type: 'CreateCountry', countryId, fields: body });
  return { id: countryId, revision: result.revision };
}

export async function updateCountry(deps: AdminDeps, countryId: string, changes: UpdateCountryBody, actor: Actor, expectedRevision?: bigint) {
  const result = await run(deps, countryId, actor, { type: 'UpdateCountry', countryId, changes }, expectedRevision);
  return { id: countryId, revision: result.revision };
}

export async function deleteCountry(deps: AdminDeps, countryId: string, actor: Actor, expectedRevision?: bigint): Promise<void> {
  await run(deps, countryId, actor, { type: 'DeleteCountry', countryId }, expectedRevision);
}

/** Saves the full new order of all countries as one event on the order stream. */
export async function sortCountries(deps: AdminDeps, ids: readonly string[], actor: Actor, expectedRevision?: bigint): Promise<void> {
  const current = await countryOrder(deps.pool);
  await saveOrder(deps, COUNTRY_ORDER_STREAM, { name: 'SortCountries', actor, expectedRevision, decide: () => decideCountryOrder(current, ids) });
}
