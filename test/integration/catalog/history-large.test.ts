import { createServices, closeServices, type Services } from '../../../src/main';
import { loadConfig } from '../../../src/config';
import { createLogger } from '../../../src/platform/log';
import { eventMetadata } from '../../../src/platform/events/registry';
import type { EventStore, ReadStreamOptions, StreamAppend } from '../../../src/platform/event-store/port';
import { BULK_RUN, history, historyAt, historyBetween } from '../../../src/catalog/history/history';
import { createTestDatabase, type TestDatabase } from '../../support/db';

const MEMBERS = 600;
const FAMILY = '900000000001';
const linkId = (i: number) => String(200001 + i);

/**
 * A family with many members, appended to the real event store the way organisation and
 * synchronisation append: the history reads every stream a page at a time (never a whole stream at
 * once), and answers in reasonable time.
 */
describe('the history of a family with many members', () => {
  let db: TestDatabase;
  let s: Services;
  const reads: ReadStreamOptions[] = [];
  let store: EventStore;
  let organisedAt: Date;

  beforeAll(async () => {
    db = await createTestDatabase();
    const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: db.url, JWT_SECRET: 'test-secret-that-is-at-least-32-characters-long', LOG_LEVEL: 'silent' });
    s = await createServices(config, createLogger('silent'), db.url);
    // The real store, its stream reads recorded.
    store = Object.create(s.store, {
      readStream: {
        value: (id: string, opts?: ReadStreamOptions) => {
          reads.push(opts ?? {});
          return s.store.readStream(id, opts);
        },
      },
    }) as EventStore;

    const sync = eventMetadata('system:sync', 'SyncOriginGoods');
    const appends: StreamAppend[] = [];
    for (let i = 0; i < MEMBERS; i++) {
      const id = linkId(i);
      const price = (20 + (i % 50)).toFixed(2);
      const colours = [`色${i % 7}`, `色${(i + 1) % 7}`];
      const detail = {
        variants: colours.flatMap((color) => ['S', 'M', 'L'].map((size) => ({ sku: `G5000-${color}-${size}`, size, color, price, stock: 5 }))),
        sizeChart: [{ size: 'M', chest: '100' }],
        packagingSpecs: [{ name: '单件', weightGrams: 200, lengthCm: 30, widthCm: 20, heightCm: 2 }],
        options: [],
        media: colours.map((color, k) => ({ color, url: `https://img.example/${id}/${k}.jpg`, sort: k })),
      };
      appends.push({
        streamId: `link-${id}`,
        expectedRevision: 'no_stream',
        events: [
          s.registry.encode(
            'LinkMirrored',
            { linkId: id, name: `美国（包邮）T恤 G5000 直喷 ${i}`, categoryId: null, craftLabel: null, price, image: null, status: 'ON_SALE', supplierUpdatedAt: null },
            sync,
          ),
          s.registry.encode('LinkDetailSynced', { linkId: id, detail }, sync),
        ],
      });
    }
    await store.appendToStreams(appends);

    const organise = eventMetadata('system:organise', 'Organise');
    await store.appendToStreams([
      {
        streamId: `family-${FAMILY}`,
        expectedRevision: 'no_stream',
        events: [
          s.registry.encode('FamilyCreated', { familyId: FAMILY, name: 'T恤 G5000', familyNameKey: '美国T恤G5000', autoManaged: true, locked: false, shelf: 'on' }, organise),
          ...Array.from({ length: MEMBERS }, (_, i) => s.registry.encode('FamilyMemberAdded', { familyId: FAMILY, linkId: linkId(i) }, organise)),
        ],
      },
      ...Array.from({ length: MEMBERS }, (_, i) => ({
        streamId: `link-${linkId(i)}`,
        expectedRevision: 1n,
        events: [
          s.registry.encode('LinkParsed', { linkId: linkId(i), country: '美国', logistics: '包邮', productName: 'T恤', sku: 'G5000', familyNameKey: '美国T恤G5000' }, organise),
          s.registry.encode(
            'LinkTagsDerived',
            {
              linkId: linkId(i),
              tags: { size: ['S', 'M', 'L'], color: [`色${i % 7}`, `色${(i + 1) % 7}`], printCount: ['单面印花'], craft: ['直喷'], logistics: ['包邮'] },
              missing: [],
            },
            organise,
          ),
          s.registry.encode('LinkJoinedFamily', { linkId: linkId(i), familyId: FAMILY }, organise),
        ],
      })),
    ]);
    organisedAt = new Date();
    await new Promise((r) => setTimeout(r, 20));
    // One member's price drops at the supplier.
    const cheaper = { ...((await s.store.readStream(`link-${linkId(0)}`))[1]!.data as object) } as { linkId: string; detail: { variants: { price: string }[] } };
    cheaper.detail = { ...cheaper.detail, variants: cheaper.detail.variants.map((v) => ({ ...v, price: '5.00' })) };
    await store.appendToStream(`link-${linkId(0)}`, [s.registry.encode('LinkDetailSynced', cheaper, eventMetadata('system:sync', 'SyncDetails'))]);
  }, 120_000);
  afterAll(async () => {
    await closeServices(s);
    await db.drop();
  });

  it('lists every join and the price change, reading every stream in pages', async () => {
    const deps = { store, registry: s.registry, pool: s.pool };
    reads.length = 0;
    const started = Date.now();
    const h = await history(deps, 'family', FAMILY, { page: 1, pageSize: 50 });
    const elapsed = Date.now() - started;
    // FamilyCreated + the record of each member + each link's join + the price change.
    expect(h.total).toBe(1 + MEMBERS + MEMBERS + 1);
    expect(h.items).toHaveLength(50);
    expect(reads.length).toBeGreaterThan(0);
    for (const r of reads) expect(r.maxCount).toBeLessThanOrEqual(500);
    expect(elapsed).toBeLessThan(60_000);

    // The joins of one organisation run: the first ones each with the cells they added; past BULK_RUN,
    // each with its own change and the run's last with what the rest of the run changed together.
    const all = (await history(deps, 'family', FAMILY)).items;
    const joins = all.filter((e) => e.type === 'LinkJoinedFamily');
    expect(joins).toHaveLength(MEMBERS);
    expect(joins[0]!.changes).toMatchObject({ members: { added: [linkId(0)] }, cells: { added: expect.any(Array) } });
    expect((joins[0]!.changes!.cells as { added: unknown[] }).added.length).toBeGreaterThan(0);
    for (const [i, j] of joins.entries()) expect(j.changes!.members).toEqual({ added: [linkId(i)], removed: [] });
    const bulk = joins.filter((j) => j.changes!.link);
    expect(bulk.length).toBe(MEMBERS - (BULK_RUN - 1));
    expect(bulk[bulk.length - 1]!.runChanges!.members).toEqual({ added: bulk.map((j) => (j.data as { linkId: string }).linkId), removed: [] });
    expect(all.filter((e) => e.runChanges)).toHaveLength(1);
    const last = all[all.length - 1]!;
    expect(last).toMatchObject({ stream: `link-${linkId(0)}`, type: 'LinkDetailSynced', changes: { lowestPrice: { from: '20.00', to: '5.00' } } });
    expect(last.changes!.cells).toMatchObject({ changed: expect.arrayContaining([expect.objectContaining({ to: '5.00' })]) });

    const then = (await historyAt(deps, 'family', FAMILY, organisedAt)) as { memberCount: number; lowestPrice: string; priceMatrix: { cells: unknown[] } };
    expect(then.memberCount).toBe(MEMBERS);
    expect(then.lowestPrice).toBe('20.00');
    expect(then.priceMatrix.cells).toHaveLength(3 * 7);
    const between = await historyBetween(deps, 'family', FAMILY, organisedAt, new Date());
    expect(between.changes).toMatchObject({ lowestPrice: { from: '20.00', to: '5.00' } });
    expect(between.items).toHaveLength(1);
  }, 180_000);
});
