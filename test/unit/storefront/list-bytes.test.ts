import { ListItemBytes, type ListRow } from '../../../src/storefront/list-bytes';
import { pageOf } from '../../../src/storefront/page-slice';
import { TagDictionary, toItem, type FamilyItemRow, type TagInfo } from '../../../src/storefront/views';

const tag = (id: string, name: string, sortOrder: number): TagInfo => ({ id, name, sortOrder, dimension: null });
const TAGS = new TagDictionary([tag('1', '黑色', 0), tag('2', 'XL', 1)]);

/** The read models of the test: each family's item row, its hash derived from its content. */
function store(n: number) {
  const rows = new Map<string, FamilyItemRow>();
  for (let i = 1; i <= n; i++) {
    rows.set(`${i}`, { id: `${i}`, name: `T恤 "${i}"`, image: null, price: `${i}.90`, country_id: null, category_id: '5', tag_ids: i % 2 ? '1,2' : '', tag_font_color: null });
  }
  const hash = (r: FamilyItemRow) => JSON.stringify(r);
  const reads: string[][] = [];
  return {
    rows,
    reads,
    list: (ids: string[]): ListRow[] => ids.map((id) => ({ id, item_hash: hash(rows.get(id)!), country_rank: null, category_rank: null, priority: 0 })),
    read: async (ids: string[]) => {
      reads.push(ids);
      return ids.map((id) => ({ ...rows.get(id)!, item_hash: hash(rows.get(id)!) }));
    },
  };
}

describe('the public list written from kept items (src/storefront/list-bytes.ts)', () => {
  it('given rows, then the body is the JSON array of their items in the rows’ order, and pages cut from it are right', async () => {
    const s = store(5);
    const order = ['3', '1', '5', '2', '4'];
    const list = await new ListItemBytes().write(s.list(order), TAGS, true, s.read);
    expect(JSON.parse(list.body.toString('utf8'))).toEqual(order.map((id) => toItem(s.rows.get(id)!, TAGS)));
    expect(JSON.parse(pageOf(list, 2, 2).body.toString('utf8'))).toEqual({
      items: ['5', '2'].map((id) => toItem(s.rows.get(id)!, TAGS)),
      total: 5,
      page: 2,
      pageSize: 2,
    });
  });

  it('given one changed row, then only it is read again, and the body and the ETag change with it', async () => {
    const s = store(4);
    const items = new ListItemBytes();
    const ids = ['1', '2', '3', '4'];
    const first = await items.write(s.list(ids), TAGS, true, s.read);
    const same = await items.write(s.list(ids), TAGS, true, s.read);
    expect(same.etag).toBe(first.etag);
    expect(same.body.equals(first.body)).toBe(true);
    s.rows.set('3', { ...s.rows.get('3')!, name: '新名字' });
    const changed = await items.write(s.list(ids), TAGS, true, s.read);
    expect(s.reads).toEqual([ids, ['3']]);
    expect(changed.etag).not.toBe(first.etag);
    expect(JSON.parse(changed.body.toString('utf8'))[2].name).toBe('新名字');
  });

  it('given other tags, then every item is written again (items name their tags)', async () => {
    const s = store(3);
    const items = new ListItemBytes();
    await items.write(s.list(['1', '2', '3']), TAGS, true, s.read);
    const renamed = new TagDictionary([tag('1', '白色', 0), tag('2', 'XL', 1)]);
    const list = await items.write(s.list(['1', '2', '3']), renamed, true, s.read);
    expect(s.reads).toEqual([
      ['1', '2', '3'],
      ['1', '2', '3'],
    ]);
    expect(JSON.parse(list.body.toString('utf8'))[0].tags).toEqual([
      { id: '1', name: '白色' },
      { id: '2', name: 'XL' },
    ]);
  });

  it('given a complete list, then items no row uses are let go; a filtered list lets nothing go', async () => {
    const s = store(4);
    const items = new ListItemBytes();
    await items.write(s.list(['1', '2', '3', '4']), TAGS, true, s.read);
    await items.write(s.list(['1']), TAGS, false, s.read);
    expect(items.size).toBe(4);
    await items.write(s.list(['1', '2']), TAGS, true, s.read);
    expect(items.size).toBe(2);
  });

  it('given a family no longer public between the two reads, then it is left out', async () => {
    const s = store(3);
    const list = await new ListItemBytes().write(s.list(['1', '2', '3']), TAGS, true, async (ids) => (await s.read(ids)).filter((r) => r.id !== '2'));
    expect(JSON.parse(list.body.toString('utf8')).map((i: { goodId: string }) => i.goodId)).toEqual(['1', '3']);
    expect(pageOf(list, 1, 10).body.toString('utf8')).toContain('"total":2');
  });

  it('given lists written one after another (reordered, filtered, changed, shrunk), then each equals the list a new writer writes', async () => {
    const s = store(40);
    const items = new ListItemBytes();
    const all = [...s.rows.keys()];
    const held: unknown[] = []; // the lists the cache would hold: later lists copy runs from them
    const orders = [
      all,
      all, // the same rows again
      [...all.slice(20), ...all.slice(0, 20)], // two runs swapped
      all.filter((id) => Number(id) % 3 !== 0), // a filter: runs broken every third item
      [...all].reverse(), // no run survives
      all.slice(5, 35),
      all,
    ];
    for (const [step, order] of orders.entries()) {
      if (step === 5) s.rows.set('7', { ...s.rows.get('7')!, name: '第七' }); // a changed item in the middle of a run
      const list = await items.write(s.list(order), TAGS, step !== 3, s.read);
      held.push(list);
      const fresh = await new ListItemBytes().write(s.list(order), TAGS, true, s.read);
      expect(list.body.equals(fresh.body)).toBe(true);
      expect(list.etag).toBe(fresh.etag);
      for (const [page, size] of [
        [1, 7],
        [3, 7],
        [2, 20],
      ] as const)
        expect(pageOf(list, page, size).body.equals(pageOf(fresh, page, size).body)).toBe(true);
    }
  });

  describe('overlapping loads (each step made to happen in a fixed order)', () => {
    /** A `read` that waits until the test lets it answer: a load stopped between its start and its end. */
    function held(s: ReturnType<typeof store>) {
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      return {
        release: () => release(),
        read: async (ids: string[]) => {
          const rows = await s.read(ids); // read now, as the database answered before the change
          await gate;
          return rows;
        },
      };
    }
    const names = (body: Buffer) => (JSON.parse(body.toString('utf8')) as { tags: { name: string }[] }[]).map((i) => i.tags.map((t) => t.name).join('/'));

    it('a load that began before a tag rename never leaves its items to a load after it: the old name is not served', async () => {
      const s = store(3);
      const items = new ListItemBytes();
      const ids = ['1', '2', '3'];
      const renamed = new TagDictionary([tag('1', '白色', 0), tag('2', 'XL', 1)]);
      // A: the old dictionary, stopped while it reads its items.
      const slow = held(s);
      const a = items.write(s.list(ids), TAGS, true, slow.read);
      // B: after the rename, from start to end.
      const b = await items.write(s.list(ids), renamed, true, s.read);
      expect(names(b.body)[0]).toBe('白色/XL');
      // A ends, answering what it was asked under its own dictionary.
      slow.release();
      expect(names((await a).body)[0]).toBe('黑色/XL');
      // C, after both: the new name, however the two ended.
      const c = await items.write(s.list(ids), renamed, true, s.read);
      expect(names(c.body)).toEqual(names(b.body));
      expect(c.etag).toBe(b.etag);
    });

    it('a complete load’s prune never takes an item from an overlapping load that counted it as kept', async () => {
      const s = store(4);
      const items = new ListItemBytes();
      await items.write(s.list(['1', '2', '3', '4']), TAGS, true, s.read);
      s.rows.set('3', { ...s.rows.get('3')!, name: '改名' });
      // X: a filtered list of 2 and 3; 2 is kept, 3 must be read again: X stops while reading it.
      const slow = held(s);
      const x = items.write(s.list(['2', '3']), TAGS, false, slow.read);
      // Y: the complete list, which no longer has 2 (no longer public): it lets 2 go.
      await items.write(s.list(['1', '3', '4']), TAGS, true, s.read);
      expect(items.size).toBe(3);
      slow.release();
      const answer = JSON.parse((await x).body.toString('utf8')) as { goodId: string; name: string }[];
      expect(answer.map((i) => [i.goodId, i.name])).toEqual([
        ['2', 'T恤 "2"'],
        ['3', '改名'],
      ]);
    });
  });
});
