/**
 * The product page's choice of a cell of the price matrix (docs/domain.md, Price matrix), apart
 * from the page so it is tested alone. No DOM.
 *
 * Two rules shape what the shopper sees:
 * - A cell whose craft is 不打印 carries 单面印花 only as the matrix's placeholder (docs/domain.md,
 *   Tags, rule 6). Its key stays as it is (an address or an override names it so), but it is not a
 *   printing side the shopper chose: with 不打印 no side is shown as chosen, and a side tapped then
 *   means a printed craft.
 * - Tapping a value keeps every other choice when some cell allows it. When none does, the cell that
 *   keeps the most of them (the earlier dimensions first, then the cheaper) is taken, and the choices
 *   it changed are answered so the page can say so.
 */
import type { PublicCell, PublicPriceMatrix } from '../../../../src/contract/storefront';

/** The dimensions in the order the page shows them, which is also the order they are kept in. */
export const DIMENSIONS = ['size', 'color', 'craft', 'printCount', 'logistics'] as const;
export type Dim = (typeof DIMENSIONS)[number];
export type Choice = Record<Dim, string>;

export const DIM_LABEL: Record<Dim, string> = { size: '尺码', color: '颜色', craft: '工艺', printCount: '印花面数', logistics: '物流' };
const AXIS: Record<Dim, keyof Omit<PublicPriceMatrix, 'cells'>> = { size: 'sizes', color: 'colors', craft: 'crafts', printCount: 'printCounts', logistics: 'logistics' };

export const NO_PRINT = '不打印';

/** Whether this cell's printCount is only the placeholder of 不打印. */
export const printIsPlaceholder = (c: Pick<Choice, 'craft'>): boolean => c.craft === NO_PRINT;

const keyOf = (c: PublicCell): Choice => ({ size: c.size, color: c.color, craft: c.craft, printCount: c.printCount, logistics: c.logistics });

/** Whether two cells agree on `d` as the shopper sees it: a placeholder side agrees with any. */
function agree(a: Choice, b: Choice, d: Dim): boolean {
  if (d === 'printCount' && (printIsPlaceholder(a) || printIsPlaceholder(b))) return true;
  return a[d] === b[d];
}

/** The cell of exactly this choice. */
export const cellOf = (cells: readonly PublicCell[], choice: Choice): PublicCell | undefined => cells.find((c) => DIMENSIONS.every((d) => c[d] === choice[d]));

const cheaper = (a: PublicCell, b: PublicCell) => Number(a.price) - Number(b.price);

/** Where the page starts: the cell an address names (`?size=…&color=…`, all five), else the cheapest. */
export function startChoice(cells: readonly PublicCell[], named: Partial<Choice>): Choice | null {
  const exact = cells.find((c) => DIMENSIONS.every((d) => named[d] === c[d]));
  if (exact) return keyOf(exact);
  const cheapest = [...cells].sort(cheaper)[0];
  return cheapest ? keyOf(cheapest) : null;
}

/** The values the shopper can tap for `d`: a printing side only where some printed cell has it. */
export function valuesOf(m: PublicPriceMatrix, d: Dim): string[] {
  const all = m[AXIS[d]] as string[];
  return d === 'printCount' ? all.filter((v) => m.cells.some((c) => c.printCount === v && !printIsPlaceholder(c))) : all;
}

/** Whether the shopper sees `v` as chosen for `d`. */
export const isChosen = (choice: Choice, d: Dim, v: string): boolean => choice[d] === v && !(d === 'printCount' && printIsPlaceholder(choice));

/** The cells tapping `v` for `d` may lead to: a tapped printing side asks for a printed craft. */
const reachable = (cells: readonly PublicCell[], d: Dim, v: string) => cells.filter((c) => c[d] === v && !(d === 'printCount' && printIsPlaceholder(c)));

/** Whether tapping `v` for `d` keeps every other choice. */
export function keepsOthers(cells: readonly PublicCell[], choice: Choice, d: Dim, v: string): boolean {
  return reachable(cells, d, v).some((c) => DIMENSIONS.every((o) => o === d || agree(keyOf(c), choice, o)));
}

export interface Change {
  dim: Dim;
  from: string;
  to: string;
}

/** The choice after tapping `v` for `d`, and the other choices that had to change (none when some cell keeps them). */
export function pick(cells: readonly PublicCell[], choice: Choice, d: Dim, v: string): { choice: Choice; changed: Change[] } {
  const others = DIMENSIONS.filter((o) => o !== d);
  // One digit per other dimension, the earlier ones first: more kept wins, then the earlier ones kept.
  const score = (c: Choice) => {
    const kept = others.map((o) => (agree(c, choice, o) ? 1 : 0));
    return [kept.reduce<number>((a, b) => a + b, 0), ...kept];
  };
  const better = (a: number[], b: number[]) => {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
    return false;
  };
  let best: { cell: PublicCell; score: number[] } | null = null;
  for (const cell of [...reachable(cells, d, v)].sort(cheaper)) {
    const s = score(keyOf(cell));
    if (!best || better(s, best.score)) best = { cell, score: s };
  }
  if (!best) return { choice, changed: [] };
  const next = keyOf(best.cell);
  const changed = others.filter((o) => !agree(next, choice, o)).map((o) => ({ dim: o, from: choice[o], to: next[o] }));
  return { choice: next, changed };
}

/** What the page says when a tap changed other choices. */
export const changeNotice = (changed: readonly Change[]): string => `没有这个组合，已为你把${changed.map((c) => `${DIM_LABEL[c.dim]}换成「${c.to}」`).join('、')}`;
