/**
 * The contract against the KurrentDB adapter over the fake of its client (test/support/fake-kurrentdb.ts),
 * which runs without a server: what the adapter makes of the server's answers, a multi-stream
 * append's all-or-nothing above all, holds to the same contract as postgres. A real server is
 * eventstoredb.contract.test.ts.
 */
import { EventStoreDbAdapter } from '../../src/platform/event-store/eventstoredb';
import { FakeKurrentDbClient } from '../support/fake-kurrentdb';
import { describeEventStoreContract, serverHarness } from './event-store-contract';

describeEventStoreContract('eventstoredb over a fake client', async () => serverHarness(new EventStoreDbAdapter(new FakeKurrentDbClient({ live: true, realClock: true }))));
