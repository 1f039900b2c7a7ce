/**
 * KurrentDB connection strings reach the installed client (which parses only esdb://) with their
 * scheme rewritten and everything else untouched.
 */
import { EventStoreDBClient } from '@eventstore/db-client';
import { toClientConnectionString } from '../../../../src/platform/event-store/connection-string';

describe('event store connection strings', () => {
  it.each([
    ['kurrentdb://admin:pw@db:2113?tls=true&tlsCAFile=/certs/ca/ca.crt', 'esdb://admin:pw@db:2113?tls=true&tlsCAFile=/certs/ca/ca.crt'],
    ['kurrent://db:2113?tls=false', 'esdb://db:2113?tls=false'],
    ['kdb://db:2113', 'esdb://db:2113'],
    ['kurrentdb+discover://a:2113,b:2113', 'esdb+discover://a:2113,b:2113'],
    ['kdb+discover://a:2113', 'esdb+discover://a:2113'],
    ['esdb://db:2113', 'esdb://db:2113'],
    ['esdb+discover://db:2113', 'esdb+discover://db:2113'],
  ])('%s → %s', (given, expected) => {
    expect(toClientConnectionString(given)).toBe(expected);
  });

  it('gives the client a string it accepts (it refuses the kurrentdb scheme itself)', async () => {
    const url = 'kurrentdb://admin:pw@127.0.0.1:1?tls=false';
    expect(() => EventStoreDBClient.connectionString(url)).toThrow();
    const client = EventStoreDBClient.connectionString(toClientConnectionString(url));
    await client.dispose();
  });

  it('refuses other schemes', () => {
    expect(() => toClientConnectionString('http://db:2113')).toThrow(/kurrentdb/);
  });
});
