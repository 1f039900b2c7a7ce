/**
 * EventStoreDB's successor, KurrentDB, names its connection strings `kurrentdb://` (also `kurrent://`
 * and `kdb://`, each with a `+discover` form). The installed client (@eventstore/db-client) parses only
 * `esdb://` and `esdb+discover://`; the rest of the string is the same, so only the scheme is rewritten.
 */
const SCHEME = /^(esdb|kurrentdb|kurrent|kdb)(\+discover)?:\/\//i;

export function isEventStoreUrl(url: string): boolean {
  return SCHEME.test(url);
}

/** The connection string as the client parses it: `esdb://` or `esdb+discover://`. */
export function toClientConnectionString(url: string): string {
  const m = SCHEME.exec(url);
  if (!m) throw new Error('expected a kurrentdb://, kurrent://, kdb:// or esdb:// connection string');
  return `esdb${m[2] ? '+discover' : ''}://${url.slice(m[0].length)}`;
}
