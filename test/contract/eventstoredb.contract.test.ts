/**
 * The same contract against a real KurrentDB (25.1 or later). jest.config.js only collects this
 * file when EVENTSTORE_URL is set (e.g. `docker compose up kurrentdb` and
 * EVENTSTORE_URL='esdb://admin:changeit@localhost:2113?tls=false').
 */
import { EventStoreDbAdapter } from '../../src/platform/event-store/eventstoredb';
import { describeEventStoreContract, serverHarness } from './event-store-contract';

// open: a server without atomic multi-stream appends (before KurrentDB 25.1) is refused here.
describeEventStoreContract('eventstoredb', async () => serverHarness(await EventStoreDbAdapter.open(process.env.EVENTSTORE_URL!)));
