import {
  categoriesStillRemoved,
  diffCategory,
  diffCountry,
  diffDetail,
  diffLink,
  emptyLinkMirror,
  evolveLinkMirror,
  linkMirrorData,
  linksToDelist,
  type LinkMirrorState,
} from '../../../src/sync/diff';
import { linkMirrorHash } from '../../../src/catalog/links/mirror';
import { contentHash } from '../../../src/platform/content-hash';
import { syncEventId } from '../../../src/sync/event-ids';
import type { Category, Link } from '../../../src/sync/supplier/schemas';

const link = (over: Partial<Link> = {}): Link => ({
  id: '100001',
  name: '美国（包邮）纯棉短袖T恤 G5000 直喷双面',
  categoryId: '301',
  craftLabel: '直喷',
  price: '39.90',
  image: 'https://img.example.com/main.jpg',
  status: 'ON_SALE',
  updatedAt: '2026-11-01T08:00:00Z',
  ...over,
});
const mirrored = (l: Link, over: Partial<LinkMirrorState> = {}): LinkMirrorState => ({
  revision: 3n,
  mirrorHash: linkMirrorHash(linkMirrorData(l)),
  delisted: false,
  detailHash: null,
  categoryId: l.categoryId,
  ...over,
});

describe('link mirror decisions', () => {
  it('given an unknown link: it is mirrored (and delisted at once when OFF_SALE)', () => {
    expect(diffLink(undefined, link())).toEqual({ events: [{ type: 'LinkMirrored', data: linkMirrorData(link()) }], counts: { created: 1 } });
    const off = diffLink(undefined, link({ status: 'OFF_SALE' }));
    expect(off.events.map((e) => e.type)).toEqual(['LinkMirrored', 'LinkDelisted']);
    expect(off.events[1]!.data).toEqual({ linkId: '100001', reason: 'OFF_SALE' });
  });

  it('given the same link: nothing, even when only the supplier timestamp moved', () => {
    expect(diffLink(mirrored(link()), link({ updatedAt: '2026-11-20T00:00:00Z' }))).toEqual({ events: [], counts: { unchanged: 1 } });
  });

  it('given a changed field: one LinkMirrored', () => {
    const d = diffLink(mirrored(link()), link({ price: '42.00' }));
    expect(d.events.map((e) => e.type)).toEqual(['LinkMirrored']);
    expect(d.counts).toEqual({ changed: 1 });
  });

  it('OFF_SALE delists a listed link; ON_SALE relists a delisted one', () => {
    expect(diffLink(mirrored(link()), link({ status: 'OFF_SALE' })).events.map((e) => e.type)).toEqual(['LinkMirrored', 'LinkDelisted']);
    const back = diffLink(mirrored(link(), { delisted: true }), link());
    expect(back).toEqual({ events: [{ type: 'LinkRelisted', data: { linkId: '100001' } }], counts: { relisted: 1 } });
  });

  it('a link is not filed under a removed category it is not under already: held back and reported; its sale state still mirrored', () => {
    const removed = { removedCategories: new Set(['302']) };
    const moved = link({ categoryId: '302' });
    expect(diffLink(undefined, moved, removed)).toEqual({ events: [], counts: { failed: 1 }, problem: { item: '100001', message: expect.stringMatching(/category 302/) } });
    const changed = diffLink(mirrored(link()), link({ categoryId: '302', status: 'OFF_SALE' }), removed);
    expect([changed.events.map((e) => e.type), changed.counts, changed.problem?.item]).toEqual([['LinkDelisted'], { failed: 1, delisted: 1 }, '100001']);
    // Already under it (the supplier removed the category later): its other changes are mirrored.
    const under = mirrored(moved);
    expect(diffLink(under, link({ categoryId: '302', price: '42.00' }), removed)).toMatchObject({ events: [{ type: 'LinkMirrored' }], counts: { changed: 1 } });
    expect(diffLink(undefined, moved, { removedCategories: new Set(['301']) }).events.map((e) => e.type)).toEqual(['LinkMirrored']);
  });

  it('after a complete pass, links not seen and still listed are delisted, in id order', () => {
    const known = new Map<string, LinkMirrorState>([
      ['20', mirrored(link())],
      ['3', mirrored(link())],
      ['4', mirrored(link(), { delisted: true })],
      ['5', mirrored(link())],
    ]);
    expect(linksToDelist(known, new Set(['5']))).toEqual(['3', '20']);
  });

  it('detail: new, changed and unchanged', () => {
    const detail = { id: '100001', variants: [{ sku: 'A', size: 'S', color: '黑色', price: '39.90', stock: 1 }], sizeChart: [], packagingSpecs: [], options: [], media: [] };
    const { id: _id, ...body } = detail;
    expect(diffDetail(emptyLinkMirror(), detail).counts).toEqual({ created: 1 });
    expect(diffDetail({ ...emptyLinkMirror(), detailHash: contentHash(body) }, detail)).toEqual({ events: [], counts: { unchanged: 1 } });
    expect(diffDetail({ ...emptyLinkMirror(), detailHash: 'other' }, detail).counts).toEqual({ changed: 1 });
  });

  it('folding a stream gives the state the read model would hold', () => {
    const data = linkMirrorData(link());
    const st = [
      { type: 'LinkMirrored', data, revision: 0n },
      { type: 'LinkDelisted', data: { linkId: '100001', reason: 'OFF_SALE' }, revision: 1n },
      { type: 'SomethingOrganisationDid', data: {}, revision: 2n },
    ].reduce(evolveLinkMirror, emptyLinkMirror());
    expect(st).toEqual({ revision: 2n, mirrorHash: linkMirrorHash(data), delisted: true, detailHash: null, categoryId: '301' });
  });
});

describe('category and country decisions', () => {
  const cat = { id: '301', parentId: '201', name: '短袖T恤(G5000)', icon: '', sort: 4 };
  it('a new category is mirrored with its cleaned name, raw name, no icon and a backfilled sortOrder', () => {
    expect(diffCategory(undefined, cat).events[0]).toEqual({
      type: 'CategoryMirrored',
      data: { categoryId: '301', parentId: '201', name: '短袖T恤', rawName: '短袖T恤(G5000)', icon: null, supplierSort: 4, sortOrder: 4 },
    });
  });
  it('a known category keeps the administrators’ sortOrder (null in later events) and is unchanged when equal', () => {
    const first = diffCategory(undefined, cat).events[0]!.data as Record<string, unknown>;
    const { sortOrder: _s, ...fields } = first;
    const known = { revision: 0n, mirrorHash: contentHash(fields), removed: false };
    expect(diffCategory(known, cat)).toEqual({ events: [], counts: { unchanged: 1 } });
    // The raw name is part of the record: a new raw name is a change even when it cleans the same.
    const renamed = diffCategory(known, { ...cat, name: '短袖T恤(G5001)' });
    expect(renamed.counts).toEqual({ changed: 1 });
    expect(renamed.events[0]!.data).toMatchObject({ name: '短袖T恤', rawName: '短袖T恤(G5001)', sortOrder: null });
  });
  it('a category is not filed under a parent that is not live, unless it is a live child of it already: held back and reported', () => {
    const removed = { removedCategories: new Set(['201']) };
    expect(diffCategory(undefined, cat, removed)).toEqual({
      events: [],
      counts: { failed: 1 },
      problem: { item: '301', message: expect.stringContaining('parent category 201 is deleted or removed') },
    });
    const under = (parentId: string, state: { removed: boolean; mirrorHash: string }) => ({ revision: 3n, parentId, ...state });
    // Elsewhere, or removed itself: it would be a new live child of the removed parent.
    expect(diffCategory(under('200', { removed: false, mirrorHash: 'old' }), cat, removed).counts).toEqual({ failed: 1 });
    expect(diffCategory(under('201', { removed: true, mirrorHash: 'old' }), cat, removed).counts).toEqual({ failed: 1 });
    // A live child of it already: renamed as usual.
    expect(diffCategory(under('201', { removed: false, mirrorHash: 'old' }), cat, removed).counts).toEqual({ changed: 1 });
    expect(diffCategory(undefined, { ...cat, parentId: null }, removed).counts).toEqual({ created: 1 });
  });
  it('a removed parent the same pass brings back is live for its children, unless its own parent keeps it back', () => {
    const mirrored = (c: Category) => {
      const { sortOrder: _s, ...fields } = diffCategory(undefined, c).events[0]!.data as Record<string, unknown>;
      return { revision: 1n, mirrorHash: contentHash(fields), removed: true, parentId: c.parentId };
    };
    const top = { id: '100', parentId: null, name: '服装', sort: 1 };
    const mid = { id: '201', parentId: '100', name: '上衣', sort: 2 };
    const known = new Map([
      ['100', mirrored(top)],
      ['201', mirrored(mid)],
    ]);
    // Both listed: the top brings back the middle, which takes the child.
    expect(categoriesStillRemoved([cat, mid, top], known, new Set(['100', '201']))).toEqual(new Set());
    // The top not listed: it stays removed, and so does the middle under it.
    expect(categoriesStillRemoved([cat, mid], known, new Set(['100', '201']))).toEqual(new Set(['100', '201']));
    // Live at the start of the pass and unchanged, but deleted since: nothing brings it back.
    const live = new Map([['201', { ...mirrored(mid), removed: false }]]);
    expect(categoriesStillRemoved([cat, mid], live, new Set(['201']))).toEqual(new Set(['201']));
  });
  it('a renamed country is mirrored again; an equal one is not', () => {
    const c = { id: '1', name: '美国', code: 'US' };
    const known = { revision: 0n, mirrorHash: contentHash({ countryId: '1', name: '美国', code: 'US' }), removed: false };
    expect(diffCountry(known, c).events).toEqual([]);
    expect(diffCountry(known, { ...c, name: '美利坚' }).counts).toEqual({ changed: 1 });
  });
});

describe('synchronisation event ids', () => {
  it('are the same for the same append and differ by stream, revision, position and content', () => {
    const a = syncEventId('link-1', 3n, 0, 'LinkMirrored', { x: 1, y: 2 });
    expect(syncEventId('link-1', 3n, 0, 'LinkMirrored', { y: 2, x: 1 })).toBe(a);
    expect(syncEventId('link-2', 3n, 0, 'LinkMirrored', { x: 1, y: 2 })).not.toBe(a);
    expect(syncEventId('link-1', 4n, 0, 'LinkMirrored', { x: 1, y: 2 })).not.toBe(a);
    expect(syncEventId('link-1', 3n, 1, 'LinkMirrored', { x: 1, y: 2 })).not.toBe(a);
    expect(syncEventId('link-1', 3n, 0, 'LinkMirrored', { x: 1, y: 3 })).not.toBe(a);
  });
});
