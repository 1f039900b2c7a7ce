/**
 * The product page's choice of a price-matrix cell (web/h5/src/pages/detail-choice.ts): the 不打印
 * placeholder is kept in the key but never shown as a chosen side, and a tap changes another
 * choice only when no cell keeps it, naming every choice it changed.
 */
import type { PublicCell, PublicPriceMatrix } from '../../../src/contract/storefront';
import { DIMENSIONS, changeNotice, isChosen, keepsOthers, pick, startChoice, valuesOf, type Choice } from '../../../web/h5/src/pages/detail-choice';

const cell = (size: string, color: string, printCount: string, craft: string, logistics: string, price: string): PublicCell => ({
  size,
  color,
  printCount,
  craft,
  logistics,
  price,
});

// A T-shirt: 不打印 (placeholder 单面印花) is the cheapest; 双面印花 only with 直喷 and 不包邮; 黑色 only in M.
const cells: PublicCell[] = [
  cell('S', '白色', '单面印花', '不打印', '包邮', '20.00'),
  cell('M', '白色', '单面印花', '不打印', '包邮', '20.00'),
  cell('S', '白色', '单面印花', '直喷', '包邮', '30.00'),
  cell('M', '白色', '单面印花', '直喷', '包邮', '30.00'),
  cell('S', '白色', '双面印花', '直喷', '不包邮', '40.00'),
  cell('M', '白色', '双面印花', '直喷', '不包邮', '40.00'),
  cell('M', '黑色', '单面印花', '直喷', '包邮', '32.00'),
];
const matrix: PublicPriceMatrix = {
  sizes: ['S', 'M'],
  colors: ['白色', '黑色'],
  printCounts: ['单面印花', '双面印花'],
  crafts: ['直喷', '不打印'],
  logistics: ['不包邮', '包邮'],
  cells,
};
const key = (c: PublicCell): Choice => ({ size: c.size, color: c.color, printCount: c.printCount, craft: c.craft, logistics: c.logistics });

describe('the product page choice', () => {
  it('starts on the cell the address names, else on the cheapest', () => {
    expect(startChoice(cells, key(cells[4]!))).toEqual(key(cells[4]!));
    expect(startChoice(cells, { size: 'S' })).toEqual(key(cells[0]!));
    expect(startChoice([], {})).toBeNull();
  });

  it('keeps the placeholder in the key but shows no side as chosen with 不打印', () => {
    const noPrint = key(cells[0]!);
    expect(noPrint.printCount).toBe('单面印花');
    expect(isChosen(noPrint, 'printCount', '单面印花')).toBe(false);
    expect(isChosen(noPrint, 'craft', '不打印')).toBe(true);
    expect(isChosen(key(cells[2]!), 'printCount', '单面印花')).toBe(true);
  });

  it('offers a side only where a printed cell has it', () => {
    const onlyNoPrint: PublicPriceMatrix = { ...matrix, printCounts: ['单面印花'], crafts: ['不打印'], cells: [cells[0]!, cells[1]!] };
    expect(valuesOf(onlyNoPrint, 'printCount')).toEqual([]);
    expect(valuesOf(matrix, 'printCount')).toEqual(['单面印花', '双面印花']);
  });

  it('choosing 不打印 from a printed side changes no other choice the shopper made', () => {
    const r = pick(cells, key(cells[4]!), 'craft', '不打印');
    // 双面印花 gives way to the placeholder, which is no choice; logistics 不包邮 has no 不打印 cell.
    expect(r.choice).toEqual(key(cells[0]!));
    expect(r.changed).toEqual([{ dim: 'logistics', from: '不包邮', to: '包邮' }]);
  });

  it('a side tapped under 不打印 asks for a printed craft, and says so', () => {
    const r = pick(cells, key(cells[0]!), 'printCount', '双面印花');
    expect(r.choice).toEqual(key(cells[4]!));
    expect(r.changed.map((c) => c.dim).sort()).toEqual(['craft', 'logistics']);
    expect(changeNotice(r.changed)).toBe('没有这个组合，已为你把工艺换成「直喷」、物流换成「不包邮」');
  });

  it('keeps every other choice when a cell allows it', () => {
    expect(keepsOthers(cells, key(cells[2]!), 'size', 'M')).toBe(true);
    const r = pick(cells, key(cells[2]!), 'size', 'M');
    expect(r).toEqual({ choice: key(cells[3]!), changed: [] });
  });

  it('when no cell keeps the others, keeps the most of them and names each change', () => {
    // S 白色 直喷 → 黑色: only M has it, everything else can stay.
    expect(keepsOthers(cells, key(cells[2]!), 'color', '黑色')).toBe(false);
    const r = pick(cells, key(cells[2]!), 'color', '黑色');
    expect(r.choice).toEqual(key(cells[6]!));
    expect(r.changed).toEqual([{ dim: 'size', from: 'S', to: 'M' }]);
  });

  it('never changes a choice without naming it (every cell, every tap)', () => {
    for (const from of cells) {
      for (const d of DIMENSIONS) {
        for (const v of valuesOf(matrix, d)) {
          const start = key(from);
          const r = pick(cells, start, d, v);
          expect(cells.some((c) => DIMENSIONS.every((k) => c[k] === r.choice[k]))).toBe(true);
          for (const o of DIMENSIONS) {
            if (o === d) continue;
            const shownBefore = valuesOf(matrix, o).filter((x) => isChosen(start, o, x));
            const shownAfter = valuesOf(matrix, o).filter((x) => isChosen(r.choice, o, x));
            // A choice the shopper sees changing to another visible choice is named.
            if (shownBefore.length && shownAfter.length && shownBefore[0] !== shownAfter[0]) expect(r.changed.map((c) => c.dim)).toContain(o);
          }
        }
      }
    }
  });
});
