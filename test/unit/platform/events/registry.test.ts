import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { LinkMirrored } from '../../../../src/catalog/links/events';
import { createEventRegistry } from '../../../../src/catalog/event-registry';
import { EventRegistry, defineEvent, eventMetadata } from '../../../../src/platform/events/registry';
import type { RecordedEvent } from '../../../../src/platform/event-store/port';

const stored = (type: string, version: number, data: unknown): RecordedEvent => ({
  id: randomUUID(),
  streamId: 'link-100001',
  revision: 0n,
  position: { commit: 10n, prepare: 1n },
  type,
  version,
  data,
  metadata: eventMetadata('system:sync', 'SyncOriginGoods', 'corr-1', new Date('2026-11-01T08:00:00Z')),
  recordedAt: new Date('2026-11-01T08:00:00Z'),
});

const v1Link = {
  linkId: '100001',
  name: '美国（包邮）纯棉短袖T恤 G5000 直喷双面',
  categoryId: '301',
  craftLabel: '直喷',
  price: 39.9,
  image: null,
  status: 'ON_SALE',
  supplierUpdatedAt: '2026-11-01T08:00:00Z',
};

describe('event registry', () => {
  const registry = createEventRegistry();

  it('upcasts a v1 LinkMirrored (price as a float) to v2 (exact decimal string) on read', () => {
    const e = registry.decode(stored('LinkMirrored', 1, v1Link));
    expect(e.data).toEqual({ ...v1Link, price: '39.90' });
    expect(e.storedVersion).toBe(1);
    expect(LinkMirrored.version).toBe(2);
  });

  it('reads a current-version event unchanged', () => {
    const e = registry.decode(stored('LinkMirrored', 2, { ...v1Link, price: '39.90' }));
    expect(e.data).toMatchObject({ price: '39.90' });
    expect(e.metadata).toEqual({ by: 'system:sync', why: 'SyncOriginGoods', correlationId: 'corr-1', at: '2026-11-01T08:00:00.000Z' });
  });

  it('encode stamps the current version and rejects data its schema refuses', () => {
    const m = eventMetadata('u1', 'Test');
    expect(registry.encode('LinkMirrored', { ...v1Link, price: '1.00' }, m).version).toBe(2);
    expect(() => registry.encode('LinkMirrored', v1Link, m)).toThrow(/does not match its schema/);
    expect(() => registry.encode('NoSuchEvent', {}, m)).toThrow(/unknown event type/);
  });

  it('refuses stored data that does not match even after upcasting, and versions newer than the code', () => {
    expect(() => registry.decode(stored('LinkMirrored', 2, { linkId: 'x' }))).toThrow(/does not match its schema/);
    expect(() => registry.decode(stored('LinkMirrored', 3, v1Link))).toThrow(/newer than this code/);
  });

  it('trusting the current version (a replay) takes such an event as stored; an older one is still upcast and validated', () => {
    // Data no schema would accept shows whether validation ran.
    const odd = { linkId: 'x', extra: true };
    expect(registry.decode(stored('LinkMirrored', 2, odd), { trustCurrent: true }).data).toEqual(odd);
    expect(() => registry.decode(stored('LinkMirrored', 2, odd))).toThrow(/does not match its schema/);
    expect(registry.decode(stored('LinkMirrored', 1, v1Link), { trustCurrent: true }).data).toEqual({ ...v1Link, price: '39.90' });
    expect(() => registry.decode(stored('LinkMirrored', 1, { ...v1Link, price: 'cheap' }), { trustCurrent: true })).toThrow(/does not match its schema/);
    expect(() => registry.decode(stored('LinkMirrored', 3, v1Link), { trustCurrent: true })).toThrow(/newer than this code/);
  });

  it('chains upcasters one version at a time', () => {
    const Renamed = defineEvent('Renamed', 3, z.object({ fullName: z.string(), source: z.string() }), {
      1: (d) => ({ name: (d as { n: string }).n }),
      2: (d) => ({ fullName: (d as { name: string }).name, source: 'legacy' }),
    });
    const c = new EventRegistry([Renamed]);
    expect(c.decode(stored('Renamed', 1, { n: 'a' })).data).toEqual({ fullName: 'a', source: 'legacy' });
    expect(c.decode(stored('Renamed', 2, { name: 'b' })).data).toEqual({ fullName: 'b', source: 'legacy' });
    expect(() => defineEvent('Broken', 2, z.object({}))).toThrow(/no upcaster from v1/);
  });
});
