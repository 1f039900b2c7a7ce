/**
 * KurrentDB names its connection strings `kurrentdb://` (also `kurrent://` and `kdb://`, each with a
 * `+discover` form); EventStoreDB's were `esdb://`. The client (@kurrent/kurrentdb-client) parses them
 * all, but warns on every `esdb://` one; the rest of the string is the same, so the scheme is written
 * as `kurrentdb` (or `kurrentdb+discover`) whichever was configured.
 */
const SCHEME = /^(esdb|kurrentdb|kurrent|kdb)(\+discover)?:\/\//i;

/** The connection string as the client is given it: `kurrentdb://` or `kurrentdb+discover://`. */
export function toClientConnectionString(url: string): string {
  const m = SCHEME.exec(url);
  if (!m) throw new Error('expected a kurrentdb://, kurrent://, kdb:// or esdb:// connection string');
  return `kurrentdb${m[2] ? '+discover' : ''}://${url.slice(m[0].length)}`;
}
