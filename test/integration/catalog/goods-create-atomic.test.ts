/**
 * A good made from a link is one append: the link's claim and the good land together or not at all
 * (docs/api.md, Goods); so is a good's delete with the release of its claim. Each event store is
 * held to it: postgres, and the KurrentDB adapter over a fake of its client (a server's all-or-nothing
 * multi-stream append). A fault injected where the store receives the good's event (as a crash or a
 * lost connection would strike) must leave the link free for the retry; a sync that writes the link
 * just as the good's append reaches the store must leave one good, with its claim.
 */
import { UnavailableError } from '@kurrent/kurrentdb-client';
import { eventMetadata } from '../../../src/platform/events/registry';
import { beforeWriteTo } from '../../support/before-append';
import { eventually } from '../../support/eventually';
import { EVENT_STORES, expectNoFailedProjections, startTestService, type EventStoreKind, type TestService } from '../../support/service';

/**
 * Fails the next write the store receives that carries a GoodCreated, once: postgres in the
 * statement that inserts it (a trigger), KurrentDB as the server's answer to it.
 */
async function failNextGoodCreated(svc: TestService): Promise<{ failures(): Promise<number>; heal(): Promise<void> }> {
  const client = svc.kurrent;
  if (client) {
    let failures = 0;
    client.beforeWrite = async (writes) => {
      if (failures === 0 && writes.some((w) => w.events.some((e) => e.type === 'GoodCreated'))) {
        failures++;
        throw new UnavailableError(undefined, 'connection lost');
      }
    };
    return { failures: async () => failures, heal: async () => void (client.beforeWrite = null) };
  }
  // A sequence counts the GoodCreated rows tried: its increments outlast the transaction that fails.
  await svc.db.pool.query(`
    CREATE SEQUENCE test_good_created;
    CREATE FUNCTION test_fail_good_created() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.type = 'GoodCreated' AND nextval('test_good_created') = 1 THEN
        RAISE EXCEPTION 'the connection was lost' USING ERRCODE = '53000';
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER test_fail_good_created BEFORE INSERT ON es_events FOR EACH ROW EXECUTE FUNCTION test_fail_good_created();
  `);
  return {
    failures: async () => ((await svc.db.pool.query<{ is_called: boolean }>(`SELECT is_called FROM test_good_created`)).rows[0]!.is_called ? 1 : 0),
    heal: async () => void (await svc.db.pool.query(`DROP TRIGGER test_fail_good_created ON es_events`)),
  };
}

describe.each(EVENT_STORES)('a good and its link, on %s', (eventStore: EventStoreKind) => {
  let svc: TestService;
  const types = async (streamId: string) => (await svc.services.store.readStream(streamId)).map((e) => e.type);
  const goodsOf = async (linkId: string) => (await svc.db.pool.query<{ id: string }>(`SELECT id::text FROM goods WHERE origin_good_id = $1`, [linkId])).rows.map((r) => r.id);
  let next = 1000;

  /** A link as a sync mirrors it, shown by the read models. */
  async function mirroredLink(): Promise<string> {
    const linkId = String(++next);
    await svc.services.store.appendToStream(`link-${linkId}`, [mirrored(linkId, '39.90')], { expectedRevision: 'no_stream' });
    await eventually(async () => ((await svc.db.pool.query(`SELECT 1 FROM origin_goods WHERE id = $1`, [linkId])).rowCount ? true : null), 20_000);
    return linkId;
  }
  const mirrored = (linkId: string, price: string) =>
    svc.services.registry.encode(
      'LinkMirrored',
      { linkId, name: '美国（包邮）纯棉短袖T恤 G5000 直喷', categoryId: null, craftLabel: null, price, image: null, status: 'ON_SALE', supplierUpdatedAt: null },
      eventMetadata('system:sync', 'SyncOriginGoods'),
    );
  /** A sync's write to the link, at the revision it is at. */
  const syncWrites = async (linkId: string) => {
    const revision = await svc.services.store.streamRevision(`link-${linkId}`);
    await svc.services.store.appendToStream(`link-${linkId}`, [mirrored(linkId, '41.00')], { expectedRevision: revision! });
  };

  beforeAll(async () => {
    svc = await startTestService({ eventStore });
  });
  afterAll(async () => {
    await expectNoFailedProjections(svc);
    await svc.close();
  });

  it('a failure while the good is appended leaves the link unclaimed, and the retry makes the good', async () => {
    const linkId = await mirroredLink();
    const fault = await failNextGoodCreated(svc);
    try {
      const first = await svc.request('POST', '/goods', { originGoodId: linkId });
      expect(first.status).toBe(503);
      expect(await fault.failures()).toBe(1);
      expect(await types(`link-${linkId}`)).toEqual(['LinkMirrored']);

      const retry = await svc.request('POST', '/goods', { originGoodId: linkId });
      expect([retry.status, retry.body.error?.code]).toEqual([201, undefined]);
      expect(retry.body.originGoodId).toBe(linkId);
      expect(await goodsOf(linkId)).toEqual([retry.body.id]);
    } finally {
      await fault.heal();
    }
  });

  it('a sync that writes the link as the good is appended: one good, which holds the claim', async () => {
    const linkId = await mirroredLink();
    const hook = beforeWriteTo(svc, { streamId: `link-${linkId}`, carrying: ['LinkGoodAssigned'], meanwhile: () => syncWrites(linkId) });
    let created: { status: number; body: any };
    try {
      created = await svc.request('POST', '/goods', { originGoodId: linkId });
    } finally {
      hook.restore();
    }
    expect(hook.taken()).toBe(1);
    expect(created.status).toBe(201);
    // A second request finds the link claimed: never a second good from it.
    const again = await svc.request('POST', '/goods', { originGoodId: linkId });
    expect([again.status, again.body.error?.code]).toEqual([409, 'GOOD.EXISTS_FOR_LINK']);
    const link = await svc.services.store.readStream(`link-${linkId}`);
    expect(link.map((e) => e.type)).toEqual(['LinkMirrored', 'LinkMirrored', 'LinkGoodAssigned']);
    expect(link.at(-1)!.data).toEqual({ linkId, goodId: created.body.id });
    expect(await types(`good-${created.body.id}`)).toEqual(['GoodCreated']);
    await eventually(async () => ((await goodsOf(linkId)).length ? true : null), 20_000);
    expect(await goodsOf(linkId)).toEqual([created.body.id]);
  });

  it('a sync that writes the link as the good is deleted: the good goes, and its claim with it', async () => {
    const linkId = await mirroredLink();
    const good = await svc.request('POST', '/goods', { originGoodId: linkId });
    expect(good.status).toBe(201);
    const hook = beforeWriteTo(svc, { streamId: `link-${linkId}`, carrying: ['LinkGoodUnassigned'], meanwhile: () => syncWrites(linkId) });
    let deleted: { status: number };
    try {
      deleted = await svc.request('DELETE', `/goods/${good.body.id}`);
    } finally {
      hook.restore();
    }
    expect(hook.taken()).toBe(1);
    expect(deleted.status).toBe(204);
    expect((await types(`link-${linkId}`)).slice(-2)).toEqual(['LinkMirrored', 'LinkGoodUnassigned']);
    expect((await types(`good-${good.body.id}`)).at(-1)).toBe('GoodDeleted');
    // The link is free: a new good can be made from it.
    expect((await svc.request('POST', '/goods', { originGoodId: linkId })).status).toBe(201);
  });
});
