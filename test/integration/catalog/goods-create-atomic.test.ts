/**
 * A good made from a link is one append: the link's claim and the good land together or not at all
 * (docs/api.md, Goods). A fault injected into the real event store at the moment the good's event is
 * appended (as a crash or a lost connection would strike) must leave the link free for the retry.
 */
import type { EventStore } from '../../../src/platform/event-store/port';
import { AppError } from '../../../src/platform/errors';
import { eventMetadata } from '../../../src/platform/events/registry';
import { eventually } from '../../support/eventually';
import { startTestService, type TestService } from '../../support/service';

describe('creating a good from a link', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(async () => {
    await svc.close();
  });

  it('a failure while the good is appended leaves the link unclaimed, and the retry makes the good', async () => {
    const linkId = '1001';
    await svc.services.store.appendToStream(
      `link-${linkId}`,
      [
        svc.services.registry.encode(
          'LinkMirrored',
          { linkId, name: '美国（包邮）纯棉短袖T恤 G5000 直喷', categoryId: null, craftLabel: null, price: '39.90', image: null, status: 'ON_SALE', supplierUpdatedAt: null },
          eventMetadata('system:test', 'Test'),
        ),
      ],
      { expectedRevision: 'no_stream' },
    );
    await eventually(async () => ((await svc.db.pool.query(`SELECT 1 FROM origin_goods WHERE id = $1`, [linkId])).rowCount ? true : null), 20_000);

    // The store fails any append that carries GoodCreated, once: the claim may already have gone.
    const store = svc.services.store as EventStore;
    const real = { one: store.appendToStream.bind(store), many: store.appendToStreams.bind(store) };
    let failures = 0;
    const fault = () => {
      failures++;
      return AppError.unavailable('EVENT_STORE.UNAVAILABLE', 'the database connection was lost');
    };
    store.appendToStream = async (streamId, events, opts) => {
      if (failures === 0 && events.some((e) => e.type === 'GoodCreated')) throw fault();
      return real.one(streamId, events, opts);
    };
    store.appendToStreams = async (appends) => {
      if (failures === 0 && appends.some((a) => a.events.some((e) => e.type === 'GoodCreated'))) throw fault();
      return real.many(appends);
    };
    try {
      const first = await svc.request('POST', '/goods', { originGoodId: linkId });
      expect(first.status).toBe(503);
      expect(failures).toBe(1);
      const claims = await svc.db.pool.query(`SELECT type FROM es_events WHERE stream_id = $1 ORDER BY revision`, [`link-${linkId}`]);
      expect(claims.rows.map((r) => r.type)).toEqual(['LinkMirrored']);

      const retry = await svc.request('POST', '/goods', { originGoodId: linkId });
      expect([retry.status, retry.body.error?.code]).toEqual([201, undefined]);
      expect(retry.body.originGoodId).toBe(linkId);
    } finally {
      store.appendToStream = real.one;
      store.appendToStreams = real.many;
    }
  });
});
