/**
 * A history's changes in words (docs/api.md, History: the `changes` keys of a family, a good and a
 * link): what the shop, or the link, then showed differently.
 */
import type { HistoryItem } from '../../../../../src/contract/history';
import { showPrice } from '../price';
import { DIM_LABEL, type Dimension } from '../tags';
import { fieldLabel } from './labels';

type FromTo<T = unknown> = { from: T; to: T };
type Changes = Record<string, unknown> | null | undefined;
type Added = { added: string[]; removed: string[] };
type Names = { links: Record<string, string>; goods: Record<string, string> };
const isFromTo = (v: unknown): v is FromTo => !!v && typeof v === 'object' && 'from' in v && 'to' in v;
const len = (v: unknown) => (Array.isArray(v) ? v.length : 0);

/** The ids of links and goods the changes name, to ask their names once. */
export function namedIds(items: readonly HistoryItem[]): { links: string[]; goods: string[] } {
  const links = new Set<string>();
  const goods = new Set<string>();
  for (const e of items) {
    for (const c of [e.changes, e.runChanges]) {
      const m = c?.members as Partial<Added> | undefined;
      for (const id of [...(m?.added ?? []), ...(m?.removed ?? [])]) links.add(id);
      const g = c?.goods as Partial<Added> | undefined;
      for (const id of [...(g?.added ?? []), ...(g?.removed ?? [])]) goods.add(id);
      const good = c?.goodId as FromTo<string | null> | undefined;
      for (const id of [good?.from, good?.to]) if (typeof id === 'string') goods.add(id);
    }
    const d = e.data as { goodId?: unknown } | null;
    if (typeof d?.goodId === 'string') goods.add(d.goodId);
  }
  return { links: [...links], goods: [...goods] };
}

const someNames = (ids: readonly string[], names: Record<string, string>) => {
  const shown = ids
    .slice(0, 3)
    .map((id) => `「${names[id] ?? '…'}」`)
    .join('、');
  return ids.length > 3 ? `${shown} 等 ${ids.length} 个` : shown;
};

type Cell = { size: string; color: string; from: string; to: string };
/** Cells of a family's price table, or a link's variants: how many came, went, changed price (the one, when one). */
function counted(what: string, c: { added?: unknown; removed?: unknown; changed?: Cell[]; priceChanged?: Cell[] }): string {
  const changed = c.changed ?? c.priceChanged ?? [];
  const bits = [
    len(c.added) ? `新增 ${len(c.added)} 个规格` : '',
    len(c.removed) ? `减少 ${len(c.removed)} 个规格` : '',
    changed.length ? `${changed.length} 个规格改价` : '',
  ].filter(Boolean);
  if (changed.length === 1) bits[bits.length - 1] = `${changed[0]!.size} / ${changed[0]!.color} 改价 ${showPrice(changed[0]!.from)} → ${showPrice(changed[0]!.to)}`;
  return bits.length ? `${what}${bits.join('，')}` : '';
}

type Rep = { goodId: string; name: string } & Record<string, unknown>;
/** A family's representative (the good it shows), or a good being its family's representative. */
function representative(rep: FromTo<Rep | boolean | null>): string {
  if (typeof rep.to === 'boolean' || typeof rep.from === 'boolean') return rep.to ? '成为系列的代表商品（店铺展示它的内容）' : '不再是系列的代表商品';
  const [from, to] = [rep.from, rep.to];
  if (from && to && from.name === to.name) {
    // Another good, or the same, with the same name: say what the shop shows differently.
    const fields = Object.keys({ ...from, ...to }).filter((k) => k !== 'goodId' && k !== 'name' && JSON.stringify(from[k]) !== JSON.stringify(to[k]));
    return `代表商品「${to.name}」的${fields.map(fieldLabel).join('、') || '内容'}有变化`;
  }
  return `代表商品 ${from ? `「${from.name}」` : '无'} → ${to ? `「${to.name}」` : '无'}`;
}

/** One from/to part in words: a name, a price, a listing, a family, a good; else that it changed. */
function fromTo(k: string, v: FromTo, n: Names, noun: string): string {
  switch (k) {
    case 'existed':
      return v.to ? `${noun}建立` : `${noun}不再存在`;
    case 'deleted':
      return v.to ? '商品删除' : v.from ? '商品恢复' : '';
    case 'public':
      return v.to ? '开始在店铺展示' : '不再在店铺展示';
    case 'delisted':
      return v.to ? '货源下架' : '货源重新上架';
    case 'shelf':
      return v.from == null || v.to == null ? '' : `${noun}${v.to === 'off' ? '下架' : '上架'}`;
    case 'name':
      return `名称「${String(v.from ?? '—')}」→「${String(v.to ?? '—')}」`;
    case 'price':
    case 'lowestPrice':
    case 'familyLowestPrice':
    case 'originPrice':
      return `${fieldLabel(k)} ${showPrice(v.from as string | null)} → ${showPrice(v.to as string | null)}`;
    case 'familyId':
      return v.from == null ? '加入系列' : v.to == null ? '离开系列，店铺不再展示' : '换到另一个系列';
    case 'goodId':
      return v.to ? `建成商品「${n.goods[String(v.to)] ?? '…'}」` : '货源的商品被删除';
    case 'representative':
      return representative(v as FromTo<Rep | boolean | null>);
    default:
      return `${fieldLabel(k)}有变化`;
  }
}

/** What changed of the subject, in a few words. `noun`: 系列, 商品 or 货源. */
export function describeChanges(c: Changes, n: Names, noun: string): string[] {
  if (!c) return [];
  const parts: string[] = [];
  const m = c.members as Added | undefined;
  if (m?.added.length) parts.push(`加入货源${someNames(m.added, n.links)}`);
  if (m?.removed.length) parts.push(`移除货源${someNames(m.removed, n.links)}`);
  const g = c.goods as Added | undefined;
  if (g?.added.length) parts.push(`加入商品${someNames(g.added, n.goods)}`);
  if (g?.removed.length) parts.push(`移除商品${someNames(g.removed, n.goods)}`);
  for (const k of ['cells', 'variants', 'originVariants'] as const) if (c[k] && !isFromTo(c[k])) parts.push(counted(k === 'cells' ? '价格表' : '货源规格', c[k]));
  const detail = c.detail as string[] | undefined;
  if (Array.isArray(detail) && detail.length) parts.push(`详情的${detail.map(fieldLabel).join('、')}有变化`);
  const other = c.other as string[] | undefined;
  if (other?.length) parts.push(`${other.map(fieldLabel).join('、')}有变化`);
  // A link's own change, in a bulk run: which of its parts moved.
  const link = c.link as Record<string, unknown> | undefined;
  const keys = link ? Object.keys(link).filter((k) => k !== 'existed') : [];
  if (keys.length) parts.push(`货源的${keys.map(fieldLabel).join('、')}有变化`);
  for (const [k, v] of Object.entries(c)) if (isFromTo(v)) parts.push(born(c) ? firstValue(k, v, n, noun) : fromTo(k, v, n, noun));
  return parts.filter(Boolean);
}

/** The subject came into being with this event: its parts had no value before. */
const born = (c: Record<string, unknown>) => isFromTo(c.existed) && !c.existed.from && !!c.existed.to;

/** A part of a subject just made: the value it starts with, for the parts a merchant looks at; the rest go unsaid. */
function firstValue(k: string, v: FromTo, n: Names, noun: string): string {
  if (k === 'name') return `名称「${String(v.to)}」`;
  if (k === 'shelf') return v.to === 'off' ? '创建时下架' : '';
  if (['price', 'lowestPrice', 'familyLowestPrice', 'originPrice'].includes(k)) return v.to == null ? '' : `${fieldLabel(k)} ${showPrice(v.to as string)}`;
  if (['existed', 'public', 'familyId', 'goodId', 'representative'].includes(k) && v.to) return fromTo(k, v, n, noun);
  return '';
}

/** The event's own data, where it says something the changes do not: a new name, a manual price. */
export function describeData(e: HistoryItem, goods: Record<string, string>): string {
  const d = (e.data ?? {}) as Record<string, unknown>;
  switch (e.type) {
    case 'FamilyCreated':
      return [typeof d.name === 'string' ? `名称「${d.name}」` : '', d.shelf === 'off' ? '创建时下架' : ''].filter(Boolean).join('，');
    case 'FamilyRenamed':
      return typeof d.name === 'string' ? `名称「${d.name}」` : '';
    case 'FamilyShelfSet':
      return d.state === 'off' ? '系列下架：店铺中不再展示' : '系列上架';
    case 'GoodShelfSet':
      return d.state === 'off' ? '商品下架：不再计入店铺展示' : '商品上架';
    case 'FamilyPriceOverrideSet':
    case 'FamilyPriceOverrideRemoved':
      return [d.size, d.color, d.printCount, d.craft, d.logistics].filter(Boolean).join(' / ') + (d.price ? ` ${showPrice(String(d.price))}` : '');
    case 'FamilyCustomMemberAdded':
    case 'FamilyCustomMemberRemoved': {
      const tags = d.tags as Record<string, string[]> | undefined;
      const dims = tags
        ? Object.entries(tags)
            .filter(([, v]) => v.length)
            .map(([k, v]) => `${DIM_LABEL[k as Dimension] ?? k} ${v.join('/')}`)
            .join('，')
        : '';
      return [`「${goods[String(d.goodId)] ?? '…'}」`, dims, d.price ? showPrice(String(d.price)) : ''].filter(Boolean).join('：');
    }
    default:
      return '';
  }
}

/** Inert rows in a row (the family's record of each member joining, the link's own row says what changed): one line. */
interface Row {
  item: HistoryItem;
  count: number;
}
export function collapse(items: readonly HistoryItem[]): Row[] {
  const out: Row[] = [];
  for (const item of items) {
    const last = out[out.length - 1];
    if (last && item.changes === null && last.item.changes === null && !last.item.runChanges && last.item.type === item.type && last.item.correlationId === item.correlationId)
      last.count++;
    else out.push({ item, count: 1 });
  }
  return out;
}
