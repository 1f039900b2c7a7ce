/**
 * Connection strings reach the client (@kurrent/kurrentdb-client) as `kurrentdb://` (or
 * `kurrentdb+discover://`), whichever of KurrentDB's and EventStoreDB's schemes was configured, with
 * everything after the scheme untouched.
 */
import { KurrentDBClient } from '@kurrent/kurrentdb-client';
import { loadConfig } from '../../../../src/config';
import { toClientConnectionString } from '../../../../src/platform/event-store/connection-string';

describe('event store connection strings', () => {
  it.each([
    ['kurrentdb://admin:pw@db:2113?tls=true&tlsCAFile=/certs/ca/ca.crt', 'kurrentdb://admin:pw@db:2113?tls=true&tlsCAFile=/certs/ca/ca.crt'],
    ['kurrent://db:2113?tls=false', 'kurrentdb://db:2113?tls=false'],
    ['kdb://db:2113', 'kurrentdb://db:2113'],
    ['kurrentdb+discover://a:2113,b:2113', 'kurrentdb+discover://a:2113,b:2113'],
    ['kdb+discover://a:2113', 'kurrentdb+discover://a:2113'],
    ['esdb://db:2113', 'kurrentdb://db:2113'],
    ['ESDB+discover://db:2113', 'kurrentdb+discover://db:2113'],
  ])('%s → %s', (given, expected) => {
    expect(toClientConnectionString(given)).toBe(expected);
  });

  it('reads exactly the schemes the configuration accepts (each keeps its own pattern: the platform imports nothing outside it)', () => {
    const outcome = (f: () => unknown) => {
      try {
        f();
        return 'accepted';
      } catch {
        return 'refused';
      }
    };
    for (const scheme of ['kurrentdb', 'kurrent', 'kdb', 'esdb', 'KDB', 'kurrentdb+discover', 'esdb+discover', 'http', 'https', 'postgres', 'esdb+gossip', 'tcp']) {
      const url = `${scheme}://db:2113`;
      const configured = outcome(() => loadConfig({ EVENT_STORE: 'eventstoredb', EVENTSTORE_URL: url }));
      expect({ scheme, read: outcome(() => toClientConnectionString(url)) }).toEqual({ scheme, read: configured });
    }
  });

  it('gives the client a string it accepts, without its warning about the esdb scheme', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      for (const url of ['kurrentdb://admin:pw@127.0.0.1:1?tls=false', 'esdb://127.0.0.1:1?tls=false', 'kdb+discover://127.0.0.1:1?tls=false']) {
        const client = KurrentDBClient.connectionString(toClientConnectionString(url));
        await client.dispose();
      }
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });

  it('refuses other schemes', () => {
    expect(() => toClientConnectionString('http://db:2113')).toThrow(/kurrentdb/);
  });
});
