/**
 * The same contract against a real EventStoreDB. jest.config.js only collects this file when
 * EVENTSTORE_URL is set (e.g. `docker compose up eventstore` and
 * EVENTSTORE_URL='esdb://admin:changeit@localhost:2113?tls=false').
 */
import { EventStoreDbAdapter } from '../../src/platform/event-store/eventstoredb';
import { describeEventStoreContract } from './event-store-contract';

describeEventStoreContract('eventstoredb', async () => {
  const store = EventStoreDbAdapter.connect(process.env.EVENTSTORE_URL!);
  return {
    store,
    // An EventStoreDB append commits atomically at the server; "held open" means it arrives late.
    appendHeld: async (streamId, events, release) => {
      await release;
      return store.appendToStream(streamId, events);
    },
    close: () => store.close(),
  };
});
