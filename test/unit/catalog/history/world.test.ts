import type { DecodedEvent } from '../../../../src/platform/events/registry';
import { compareRepresentative } from '../../../../src/catalog/domain/family-aggregates';
import { diffCells, diffFamily, diffLink, diffVariants } from '../../../../src/catalog/history/diff';
import { historyTable, summariseChanges } from '../../../../src/catalog/history/format';
import { goodCreatedData } from '../../../support/goods';
import { applyEvent, emptyWorld, familyView, goodView, linkView, type World } from '../../../../src/catalog/history/world';

let position = 0;
const revisions = new Map<string, number>();
/** An event as the store hands it out, in log order. */
function ev(streamId: string, type: string, data: Record<string, unknown>, at = new Date(Date.UTC(2026, 0, 1, 0, 0, position))): DecodedEvent {
  const revision = revisions.get(streamId) ?? 0;
  revisions.set(streamId, revision + 1);
  position++;
  return {
    id: `e${position}`,
    streamId,
    revision: BigInt(revision),
    position: { commit: BigInt(position), prepare: 0n },
    type,
    data,
    metadata: { by: 'u1', why: 'Test', correlationId: `c${position}`, at: at.toISOString() },
    recordedAt: at,
    storedVersion: 1,
  };
}

const detail = (price: string, colours: string[], media: string[] = []) => ({
  variants: colours.map((color) => ({ sku: `S-${color}`, size: 'M', color, price, stock: 1 })),
  sizeChart: [{ size: 'M', chest: '100' }],
  packagingSpecs: [],
  options: [],
  media: media.map((url, i) => ({ color: colours[0]!, url, sort: i })),
});
/** A good created, from `link` (null: a custom good), with no fields set but its name and `extra`. */
const good = (id: string, link: string | null, name: string, extra: Record<string, unknown> = {}) => ev(`good-${id}`, 'GoodCreated', goodCreatedData(id, link, name, extra));
const tags = (colours: string[]) => ({ size: ['M'], color: colours, printCount: ['单面印花'], craft: ['直喷'], logistics: ['包邮'] });

/** A link mirrored, parsed, tagged, detailed and joined to family 1. */
function addLink(w: World, id: string, price: string, colours: string[], media: string[] = []) {
  const s = `link-${id}`;
  for (const e of [
    ev(s, 'LinkMirrored', { linkId: id, name: `美国（包邮）T恤 G5000 ${id}`, categoryId: null, craftLabel: null, price, image: null, status: 'ON_SALE', supplierUpdatedAt: null }),
    ev(s, 'LinkParsed', { linkId: id, country: '美国', logistics: '包邮', productName: 'T恤', sku: 'G5000', familyNameKey: '美国T恤G5000' }),
    ev(s, 'LinkDetailSynced', { linkId: id, detail: detail(price, colours, media) }),
    ev(s, 'LinkTagsDerived', { linkId: id, tags: tags(colours), missing: [] }),
    ev(s, 'LinkJoinedFamily', { linkId: id, familyId: '1' }),
  ])
    applyEvent(w, e);
}

describe('the audit world: streams folded by the slices, viewed by the projection’s aggregate code', () => {
  it('replays a family: members, goods, representative, matrix, media of secondary origins; diffs say what changed', () => {
    const w = emptyWorld();
    applyEvent(w, ev('family-1', 'FamilyCreated', { familyId: '1', name: 'T恤 G5000', familyNameKey: '美国T恤G5000', autoManaged: true, locked: false, shelf: 'on' }));
    expect(familyView(w, '1')).toMatchObject({ public: false, memberCount: 0, lowestPrice: null, representative: null });
    addLink(w, '100002', '30.00', ['白色']);
    addLink(w, '100001', '20.00', ['黑色'], ['https://img/a.jpg']);
    const before = familyView(w, '1')!;
    // Members in id order, cells from both, the cheaper link's price lowest.
    expect(before.members.map((m) => m.id)).toEqual(['100001', '100002']);
    expect(before.priceMatrix.cells.map((c) => [c.color, c.price])).toEqual([
      ['黑色', '20.00'],
      ['白色', '30.00'],
    ]);
    expect(before.lowestPrice).toBe('20.00');

    // Two goods: the later one with the same priority is the representative; a higher priority wins.
    applyEvent(w, good('7', '100001', 'T恤 G5000'));
    applyEvent(w, good('8', '100002', '白T恤 G5000', { tagFontColor: '#fff' }));
    const published = familyView(w, '1')!;
    expect(published).toMatchObject({ public: true, goodCount: 2, representativeGoodId: '8', representative: { goodId: '8', name: '白T恤 G5000', tagFontColor: '#fff' } });
    expect(diffFamily(before, published)).toMatchObject({ public: { from: false, to: true }, goods: { added: ['7', '8'], removed: [] }, representative: { from: null } });
    applyEvent(w, ev('good-7', 'GoodUpdated', { goodId: '7', goodPriority: 5 }));
    expect(diffFamily(published, familyView(w, '1'))!.representative).toMatchObject({ from: { goodId: '8' }, to: { goodId: '7' } });

    // A secondary origin outside the family merges its media; delisted, it no longer does.
    addLink(w, '100009', '99.00', ['红色'], ['https://img/z.jpg']);
    applyEvent(w, ev('link-100009', 'LinkLeftFamily', { linkId: '100009', familyId: '1' }));
    const plain = familyView(w, '1')!;
    applyEvent(w, ev('good-7', 'GoodOriginsSet', { goodId: '7', secondaryOriginGoodIds: ['100009'] }));
    const merged = familyView(w, '1')!;
    expect(
      Object.values(merged.mediaByColor)
        .flat()
        .map((m) => m.url),
    ).toEqual(['https://img/a.jpg', 'https://img/z.jpg']);
    // Its media join the family's; never its cells: the matrix comes from member links only.
    expect(diffFamily(plain, merged)!.other).toContain('mediaByColor');
    expect(diffFamily(plain, merged)!.cells).toBeUndefined();
    applyEvent(w, ev('link-100009', 'LinkDelisted', { linkId: '100009', reason: 'OFF_SALE' }));
    expect(familyView(w, '1')!.mediaByColor).toEqual(plain.mediaByColor);

    // A price change of a member's detail: its cell changes, the lowest price follows.
    applyEvent(w, ev('link-100001', 'LinkDetailSynced', { linkId: '100001', detail: detail('10.00', ['黑色'], ['https://img/a.jpg']) }));
    const repriced = familyView(w, '1')!;
    expect(diffFamily(familyView(w, '1'), repriced)).toBeNull(); // the same world gives the same view
    const change = diffFamily(merged, repriced)!;
    expect(change.cells!.changed).toEqual([{ size: 'M', color: '黑色', printCount: '单面印花', craft: '直喷', logistics: '包邮', from: '20.00', to: '10.00' }]);
    expect(change.lowestPrice).toEqual({ from: '20.00', to: '10.00' });

    // A member leaves: its good leaves with it, and the representative falls back.
    applyEvent(w, ev('link-100001', 'LinkLeftFamily', { linkId: '100001', familyId: '1' }));
    const left = familyView(w, '1')!;
    expect(diffFamily(repriced, left)).toMatchObject({
      members: { added: [], removed: ['100001'] },
      goods: { removed: ['7'] },
      representative: { to: { goodId: '8' } },
      lowestPrice: { to: '30.00' },
    });
    expect(goodView(w, '7')).toMatchObject({ familyId: null, public: false, representative: false });
    expect(goodView(w, '8')).toMatchObject({ familyId: '1', public: true, representative: true, familyLowestPrice: '30.00' });

    // A custom good as a custom member: in the family's goods, its cells at its own price.
    applyEvent(w, good('9', null, '定制 G5000'));
    applyEvent(w, ev('family-1', 'FamilyCustomMemberAdded', { familyId: '1', goodId: '9', tags: { ...tags(['金色']), size: ['M'] }, price: '9.90' }));
    expect(familyView(w, '1')).toMatchObject({ goodCount: 2, lowestPrice: '9.90', customMembers: [{ goodId: '9', price: '9.90' }] });
    expect(goodView(w, '9')).toMatchObject({ familyId: '1', public: true, familyLowestPrice: '9.90' });

    // Gone: not public any more, its custom members go with it, and a family that never existed has no view.
    applyEvent(w, ev('family-1', 'FamilyDeleted', { familyId: '1' }));
    expect(goodView(w, '9')).toMatchObject({ familyId: null, public: false });
    expect(familyView(w, '1')).toMatchObject({ public: false, gone: { reason: 'deleted' } });
    expect(familyView(w, '2')).toBeNull();
    expect(diffFamily(null, null)).toBeNull();
  });

  it('another good as the representative is a change only when the storefront shows something else', () => {
    const w = emptyWorld();
    applyEvent(w, ev('family-3', 'FamilyCreated', { familyId: '3', name: '卫衣 G5000', familyNameKey: '美国卫衣G5000', autoManaged: true, locked: false, shelf: 'on' }));
    const joinTo3 = (id: string) => {
      addLink(w, id, '30.00', ['白色']);
      applyEvent(w, ev(`link-${id}`, 'LinkLeftFamily', { linkId: id, familyId: '1' }));
      applyEvent(w, ev(`link-${id}`, 'LinkJoinedFamily', { linkId: id, familyId: '3' }));
    };
    joinTo3('200001');
    joinTo3('200002');
    const hoodie = (id: string, link: string, extra: Record<string, unknown> = {}) => good(id, link, '卫衣 G5000', extra);
    applyEvent(w, hoodie('31', '200001'));
    const first = familyView(w, '3')!;
    expect(first.representative).toMatchObject({ goodId: '31', name: '卫衣 G5000' });
    // A newer good of the same name and looks takes over: the storefront shows the same, no change.
    applyEvent(w, hoodie('32', '200002'));
    const second = familyView(w, '3')!;
    expect(second.representative).toMatchObject({ goodId: '32' });
    expect(diffFamily(first, second)).toMatchObject({ goods: { added: ['32'] } });
    expect(diffFamily(first, second)!.representative).toBeUndefined();
    // Its image differs from the one before: that is a change, naming both goods.
    applyEvent(w, ev('good-32', 'GoodUpdated', { goodId: '32', image: 'https://img.example.com/b.jpg' }));
    expect(diffFamily(first, familyView(w, '3'))!.representative).toMatchObject({
      from: { goodId: '31', image: null },
      to: { goodId: '32', image: 'https://img.example.com/b.jpg' },
    });
  });

  it('the representative: highest priority, then newest, then lowest id', () => {
    const g = (id: string, goodPriority: number, ms: number) => ({ id, goodPriority, createdAt: new Date(ms), onShelf: true });
    const sorted = [g('10', 0, 1), g('9', 0, 1), g('11', 0, 2), g('12', 3, 0)].sort(compareRepresentative).map((x) => x.id);
    expect(sorted).toEqual(['12', '11', '9', '10']);
  });

  it('link and cell diffs, and their one-line summaries', () => {
    const w = emptyWorld();
    addLink(w, '5', '12.00', ['黑色', '白色']);
    const a = linkView(w, '5');
    applyEvent(w, ev('link-5', 'LinkDetailSynced', { linkId: '5', detail: detail('11.00', ['黑色']) }));
    applyEvent(w, ev('link-5', 'LinkTagsTakenOver', { linkId: '5', tags: tags(['黑色']), filled: [] }));
    const b = linkView(w, '5');
    const d = diffLink(a, b)!;
    expect(d.variants).toEqual({ added: [], removed: [{ size: 'M', color: '白色', price: '12.00' }], priceChanged: [{ size: 'M', color: '黑色', from: '12.00', to: '11.00' }] });
    expect(d.tagsManual).toEqual({ from: false, to: true });
    expect(d.price).toBeUndefined();
    expect(summariseChanges(d as Record<string, unknown>)).toBe(
      'tags ' + JSON.stringify(tags(['黑色', '白色'])) + ' -> ' + JSON.stringify(tags(['黑色'])) + '; tagsManual false -> true; variants +0 -1 prices M/黑色 12.00 -> 11.00',
    );
    // "39.9" and "39.90" are the same price.
    expect(diffVariants([{ size: 'M', color: 'x', price: '39.9' }], [{ size: 'M', color: 'x', price: '39.90' }]).priceChanged).toEqual([]);
    const cell = { size: 'M', color: 'x', printCount: 'p', craft: 'c', logistics: 'l' };
    expect(
      diffCells(
        [{ ...cell, price: '1.00' }],
        [
          { ...cell, price: '2.00' },
          { ...cell, color: 'y', price: '3.00' },
        ],
      ),
    ).toEqual({
      added: [{ ...cell, color: 'y', price: '3.00' }],
      removed: [],
      changed: [{ ...cell, from: '1.00', to: '2.00' }],
    });
    expect(summariseChanges({ members: { added: ['1'], removed: ['2', '3'] }, lowestPrice: { from: null, to: '1.00' }, other: ['name'] })).toBe(
      'members +1 -2 -3; lowestPrice - -> 1.00; other: name',
    );
    const table = historyTable([
      {
        position: '1/0',
        stream: 'family-1',
        version: '0',
        type: 'FamilyCreated',
        at: '2026-01-01T00:00:00.000Z',
        by: 'u1',
        why: 'CreateFamily',
        correlationId: 'c',
        data: {},
        changes: null,
      },
    ]);
    expect(table.split('\n')[1]).toBe('2026-01-01T00:00:00.000Z  family-1@0  FamilyCreated  u1  CreateFamily  c');
  });
  it("an organisation run's one event per link and per family folds to the world of the events earlier runs appended", () => {
    const mirrored = (id: string) => ({
      linkId: id,
      name: `美国（包邮）T恤 G5000 ${id}`,
      categoryId: null,
      craftLabel: null,
      price: '20.00',
      status: 'ON_SALE',
      image: null,
      supplierUpdatedAt: null,
    });
    const parsed = { country: '美国', logistics: '包邮', productName: 'T恤', sku: 'G5000', familyNameKey: '美国T恤G5000' };
    const created = { familyId: '9', name: 'T恤 G5000', familyNameKey: parsed.familyNameKey, autoManaged: true, locked: false, shelf: 'on' };
    const old = emptyWorld();
    const now = emptyWorld();
    for (const id of ['100001', '100002']) {
      for (const w of [old, now]) {
        applyEvent(w, ev(`link-${id}`, 'LinkMirrored', mirrored(id)));
        applyEvent(w, ev(`link-${id}`, 'LinkDetailSynced', { linkId: id, detail: detail('20.00', ['黑色']) }));
      }
    }
    applyEvent(old, ev('family-9', 'FamilyCreated', created));
    applyEvent(now, ev('family-9', 'FamilyCreated', created));
    for (const id of ['100001', '100002']) {
      applyEvent(old, ev(`link-${id}`, 'LinkParsed', { linkId: id, ...parsed }));
      applyEvent(old, ev(`link-${id}`, 'LinkTagsDerived', { linkId: id, tags: tags(['黑色']), missing: [] }));
      applyEvent(old, ev('family-9', 'FamilyMemberAdded', { familyId: '9', linkId: id }));
      applyEvent(old, ev(`link-${id}`, 'LinkJoinedFamily', { linkId: id, familyId: '9' }));
    }
    applyEvent(now, ev('family-9', 'FamilyMembersAdded', { familyId: '9', linkIds: ['100001', '100002'] }));
    for (const id of ['100001', '100002']) applyEvent(now, ev(`link-${id}`, 'LinkOrganised', { linkId: id, parsed, tags: tags(['黑色']), missing: [], familyId: '9' }));
    expect(now.families.get('9')!.members).toEqual(['100001', '100002']);
    expect(familyView(now, '9')).toEqual(familyView(old, '9'));
    expect(familyView(now, '9')).toMatchObject({ memberCount: 2 });
    expect(linkView(now, '100002')).toEqual(linkView(old, '100002'));
    // A part the run did not change is left as it was: manual tags stay manual.
    applyEvent(now, ev('link-100001', 'LinkTagsTakenOver', { linkId: '100001', tags: tags(['白色']), filled: [] }));
    applyEvent(now, ev('link-100001', 'LinkOrganised', { linkId: '100001', parsed: { ...parsed, sku: 'G5001', familyNameKey: '美国T恤G5001' } }));
    expect(linkView(now, '100001')).toMatchObject({ tagsManual: true, tagValues: tags(['白色']), familyId: '9', parsed: { sku: 'G5001' } });
  });
});
