import { useMemo, useState } from 'react';
import type { Family } from '../../../../src/contract/families';
import type { HistoryItem } from '../../../../src/contract/history';
import { ErrorLine, Loading } from '../common/components';
import { fmtTime } from '../common/format';
import { useLoad } from '../common/hooks';
import { useNames } from '../common/names';
import { useActor } from '../common/people';
import { showPrice } from '../common/price';
import { DIM_LABEL, type Dimension } from '../common/tags';

/** What happened, by event type (the family's, and its links' and goods' that changed it). */
const EVENT_LABEL: Record<string, string> = {
  FamilyCreated: '创建',
  FamilyRenamed: '重命名',
  FamilyLocked: '锁定',
  FamilyUnlocked: '解锁',
  FamilyShelfSet: '系列上架/下架',
  FamilyMemberAdded: '记录加入的货源',
  FamilyMembersAdded: '记录加入的货源',
  FamilyMemberRemoved: '记录移除的货源',
  FamilyCustomMemberAdded: '加入自定义成员',
  FamilyCustomMemberRemoved: '移除自定义成员',
  FamilyPriceOverrideSet: '设置手动价格',
  FamilyPriceOverrideRemoved: '恢复自动价格',
  FamilyMergedInto: '并入其他系列',
  FamilyDeleted: '删除',
  FamilyRecomputed: '校正系列数据',
  LinkJoinedFamily: '货源加入',
  LinkLeftFamily: '货源离开',
  LinkMirrored: '货源信息更新',
  LinkDetailSynced: '货源详情更新',
  LinkDelisted: '货源下架',
  LinkRelisted: '货源重新上架',
  LinkParsed: '识别货源名称',
  LinkTagsDerived: '生成规格标签',
  LinkTagsTakenOver: '手动设置规格标签',
  LinkTagsRestored: '恢复自动规格标签',
  LinkGoodAssigned: '货源建成商品',
  GoodCreated: '新建商品',
  GoodUpdated: '修改商品',
  GoodOriginsSet: '修改合并货源',
  GoodDeleted: '删除商品',
  GoodShelfSet: '商品上架/下架',
};

/**
 * An organisation run's one event for a link says, in the words of the three it stands for, the
 * parts it holds: its name parsed, its tags derived, the family it joined.
 */
function eventLabel(e: HistoryItem): string {
  // 上架 / 下架: the event says which (docs/api.md, History).
  if (e.type === 'FamilyShelfSet' || e.type === 'GoodShelfSet') {
    const off = (e.data as { state?: string } | null)?.state === 'off';
    return `${e.type === 'FamilyShelfSet' ? '系列' : '商品'}${off ? '下架' : '上架'}`;
  }
  if (e.type !== 'LinkOrganised') return EVENT_LABEL[e.type] ?? '其他更改';
  const d = (e.data ?? {}) as { parsed?: unknown; tags?: unknown; familyId?: unknown };
  const parts = [d.parsed && EVENT_LABEL.LinkParsed, d.tags && EVENT_LABEL.LinkTagsDerived, d.familyId && EVENT_LABEL.LinkJoinedFamily].filter(Boolean);
  return parts.length ? parts.join('、') : '整理货源';
}

/** Why: the command or run recorded with the event. */
const WHY_LABEL: Record<string, string> = {
  Organise: '整理货源',
  AutoGroup: '自动分组',
  CreateFamily: '新建系列',
  UpdateFamily: '修改系列',
  SetFamilyShelf: '系列上架/下架',
  SetGoodShelf: '商品上架/下架',
  DeleteFamily: '删除系列',
  AddFamilyMember: '添加货源',
  RemoveFamilyMember: '移除货源',
  AddCustomMember: '添加自定义成员',
  RemoveCustomMember: '移除自定义成员',
  SetPriceOverride: '设置手动价格',
  RemovePriceOverride: '恢复自动价格',
  UpdateLinkTags: '修改规格标签',
  RestoreAutoLinkTags: '恢复自动规格标签',
  CreateGood: '新建商品',
  CreateGoods: '批量创建商品',
  UpdateGood: '修改商品',
  DeleteGood: '删除商品',
  SetGoodOrigins: '修改合并货源',
  SyncCategories: '同步类目',
  SyncOriginGoods: '同步货源',
  SyncDetails: '同步货源详情',
  SyncDetail: '同步货源详情',
  SortCategories: '类目排序',
  SortCountries: '国家排序',
  SortTags: '标签排序',
  RecomputeFamilies: '校正系列数据',
};

/** Parts of a family, a link or a good, named as the pages name them. */
const FIELD_LABEL: Record<string, string> = {
  name: '名称',
  locked: '锁定',
  autoManaged: '管理方式',
  gone: '删除或合并',
  customMembers: '自定义成员',
  overrides: '手动价格',
  variants: '规格',
  sizeChart: '尺码表',
  packagingSpecs: '包装规格',
  options: '选项',
  mediaByColor: '各颜色的图片',
  familyNameKey: '系列归类依据',
  price: '价格',
  delisted: '下架',
  parsed: '名称识别结果',
  tags: '规格标签',
  tagsManual: '手动规格标签',
  familyId: '所属系列',
  goodId: '商品',
  detail: '详情',
  media: '图片',
  image: '图片',
  description: '描述',
  goodPriority: '优先级',
  tagIds: '标签',
  tagFontColor: '标签颜色',
  categoryId: '类目',
  countryId: '国家',
  secondaryOriginGoodIds: '合并货源',
  representative: '代表商品',
  public: '店铺展示',
  shelf: '上架状态',
  familyLowestPrice: '系列最低价',
  deleted: '删除',
  originPrice: '货源价格',
  originVariants: '货源规格',
  existed: '存在',
  members: '货源',
  goods: '商品',
  cells: '价格表',
  lowestPrice: '最低价',
};

type FromTo<T = unknown> = { from: T; to: T };
type Changes = Record<string, unknown> | null | undefined;
const isFromTo = (v: unknown): v is FromTo => !!v && typeof v === 'object' && 'from' in v && 'to' in v;
const len = (v: unknown) => (Array.isArray(v) ? v.length : 0);
const label = (k: string) => FIELD_LABEL[k] ?? '其他内容';

/** The ids of links and goods the changes name, to ask their names once. */
function namedIds(items: readonly HistoryItem[]): { links: string[]; goods: string[] } {
  const links = new Set<string>();
  const goods = new Set<string>();
  for (const e of items) {
    for (const c of [e.changes, e.runChanges]) {
      const m = c?.members as { added?: string[]; removed?: string[] } | undefined;
      for (const id of [...(m?.added ?? []), ...(m?.removed ?? [])]) links.add(id);
      const g = c?.goods as { added?: string[]; removed?: string[] } | undefined;
      for (const id of [...(g?.added ?? []), ...(g?.removed ?? [])]) goods.add(id);
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

type Rep = { goodId: string; name: string } & Record<string, unknown>;

/** What changed of the family, in a few words: members, cells, lowest price, representative, shop, other parts. */
function describeChanges(c: Changes, n: { links: Record<string, string>; goods: Record<string, string> }): string[] {
  if (!c) return [];
  const parts: string[] = [];
  const existed = c.existed as FromTo<boolean> | undefined;
  if (existed) parts.push(existed.to ? '系列建立' : '系列不再存在');
  const m = c.members as { added: string[]; removed: string[] } | undefined;
  if (m?.added.length) parts.push(`加入货源${someNames(m.added, n.links)}`);
  if (m?.removed.length) parts.push(`移除货源${someNames(m.removed, n.links)}`);
  const g = c.goods as { added: string[]; removed: string[] } | undefined;
  if (g?.added.length) parts.push(`加入商品${someNames(g.added, n.goods)}`);
  if (g?.removed.length) parts.push(`移除商品${someNames(g.removed, n.goods)}`);
  const cells = c.cells as { added: unknown[]; removed: unknown[]; changed: { size: string; color: string; from: string; to: string }[] } | undefined;
  if (cells) {
    const bits = [
      len(cells.added) ? `新增 ${len(cells.added)} 个规格` : '',
      len(cells.removed) ? `减少 ${len(cells.removed)} 个规格` : '',
      len(cells.changed) ? `${len(cells.changed)} 个规格改价` : '',
    ].filter(Boolean);
    if (len(cells.changed) === 1)
      bits[bits.length - 1] = `${cells.changed[0]!.size} / ${cells.changed[0]!.color} 改价 ${showPrice(cells.changed[0]!.from)} → ${showPrice(cells.changed[0]!.to)}`;
    if (bits.length) parts.push(`价格表${bits.join('，')}`);
  }
  const low = c.lowestPrice as FromTo<string | null> | undefined;
  if (low) parts.push(`最低价 ${showPrice(low.from)} → ${showPrice(low.to)}`);
  const rep = c.representative as FromTo<Rep | null> | undefined;
  if (rep) {
    if (rep.from && rep.to && rep.from.name === rep.to.name) {
      // Another good, or the same, with the same name: say what the shop shows differently.
      const fields = Object.keys({ ...rep.from, ...rep.to }).filter((k) => k !== 'goodId' && k !== 'name' && JSON.stringify(rep.from![k]) !== JSON.stringify(rep.to![k]));
      parts.push(`代表商品「${rep.to.name}」的${fields.map(label).join('、') || '内容'}有变化`);
    } else parts.push(`代表商品 ${rep.from ? `「${rep.from.name}」` : '无'} → ${rep.to ? `「${rep.to.name}」` : '无'}`);
  }
  const pub = c.public as FromTo<boolean> | undefined;
  if (pub) parts.push(pub.to ? '开始在店铺展示' : '不再在店铺展示');
  const shelf = c.shelf as FromTo<string | null> | undefined;
  if (shelf && shelf.from !== null && shelf.to !== null) parts.push(shelf.to === 'off' ? '系列下架' : '系列上架');
  const other = c.other as string[] | undefined;
  if (other?.length) parts.push(`${other.map(label).join('、')}有变化`);
  // A link's own change, in a bulk run: which of its parts moved.
  const link = c.link as Record<string, unknown> | undefined;
  if (link) {
    const keys = Object.keys(link).filter((k) => k !== 'existed');
    if (keys.length) parts.push(`货源的${keys.map(label).join('、')}有变化`);
  }
  for (const [k, v] of Object.entries(c)) {
    if (['existed', 'members', 'goods', 'cells', 'lowestPrice', 'representative', 'public', 'shelf', 'other', 'link'].includes(k)) continue;
    if (isFromTo(v)) parts.push(`${label(k)}有变化`);
  }
  return parts;
}

/** The event's own data, where it says something the changes do not: a new name, a manual price. */
function describeData(e: HistoryItem, goods: Record<string, string>): string {
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
function collapse(items: readonly HistoryItem[]): Row[] {
  const out: Row[] = [];
  for (const item of items) {
    const last = out[out.length - 1];
    if (last && item.changes === null && last.item.changes === null && !last.item.runChanges && last.item.type === item.type && last.item.correlationId === item.correlationId)
      last.count++;
    else out.push({ item, count: 1 });
  }
  return out;
}

/** A family's history, newest first: who did what, when and why, and what the shop then showed differently. */
export function FamilyHistory({ id }: { id: string }) {
  const h = useLoad<{ items: HistoryItem[]; total: number }>(`/product-families/${id}/history`);
  const [at, setAt] = useState<string | null>(null);
  const snap = useLoad<{ at: string; family: Family & { public?: boolean; representative?: { name: string } | null } }>(
    at ? `/product-families/${id}/history?at=${encodeURIComponent(at)}` : null,
  );
  const actor = useActor();
  const items = h.data?.items ?? [];
  const ids = useMemo(() => namedIds(items), [h.data]);
  const links = useNames('origin-goods', ids.links);
  const goods = useNames('goods', ids.goods);
  const rows = useMemo(() => collapse(items).reverse(), [h.data]);
  if (h.error) return <ErrorLine error={h.error} />;
  if (!h.data) return <Loading />;
  return (
    <div>
      <div className="scroll" tabIndex={0} role="region" aria-label="历史记录">
        <table data-testid="family-history" className="history">
          <caption className="visually-hidden">系列的历史记录</caption>
          <thead>
            <tr>
              <th scope="col">时间</th>
              <th scope="col">操作</th>
              <th scope="col">操作人</th>
              <th scope="col">原因</th>
              <th scope="col">店铺看到的变化</th>
              <th scope="col">
                <span className="visually-hidden">查看</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ item: e, count }) => {
              const changes = describeChanges(e.changes, { links, goods });
              const run = e.runChanges ? describeChanges(e.runChanges, { links, goods }) : [];
              const data = describeData(e, goods);
              return (
                <tr key={e.position} data-testid="history-row" className={e.at === at ? 'selected' : ''}>
                  <td style={{ whiteSpace: 'nowrap' }}>{fmtTime(e.at)}</td>
                  <td data-testid="history-type">
                    {eventLabel(e)}
                    {count > 1 && <span className="muted"> ×{count}</span>}
                  </td>
                  <td data-testid="history-by">{actor(e.by)}</td>
                  <td data-testid="history-why">{WHY_LABEL[e.why] ?? '其他操作'}</td>
                  <td data-testid="history-changes">
                    {data && <div>{data}</div>}
                    {changes.length > 0 && <div>{changes.join('；')}</div>}
                    {run.length > 0 && <div className="muted">本批合计：{run.join('；')}</div>}
                    {changes.length === 0 && run.length === 0 && (
                      <div className="muted" data-testid="history-nothing-visible">
                        {e.type === 'FamilyMemberAdded' || e.type === 'FamilyMembersAdded' || e.type === 'FamilyMemberRemoved' ? '变化见对应货源的记录' : '店铺看到的内容没有变化'}
                      </div>
                    )}
                  </td>
                  <td style={{ whiteSpace: 'nowrap' }}>
                    <button type="button" className="link" onClick={() => setAt(e.at)}>
                      查看此时的系列
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {at && (
        <div className="card inset" data-testid="family-snapshot" role="region" aria-label="当时的系列">
          <h2>{fmtTime(at)} 时的系列</h2>
          <ErrorLine error={snap.error} />
          {snap.data && snap.data.at === new Date(at).toISOString() ? (
            <p>
              名称：<b data-testid="snapshot-name">{snap.data.family.name}</b> · <span data-testid="snapshot-locked">{snap.data.family.locked ? '锁定' : '未锁定'}</span> · 货源{' '}
              {snap.data.family.members?.length ?? 0} 个 · 自定义成员 {snap.data.family.customMembers?.length ?? 0} 个 · 价格表 {snap.data.family.priceMatrix?.cells.length ?? 0}{' '}
              个规格 · 手动价格 {snap.data.family.overrides?.length ?? 0} 个 · 最低价 <span data-testid="snapshot-lowest">{snap.data.family.lowestPrice ?? '—'}</span> ·{' '}
              {snap.data.family.public ? `店铺中展示（代表商品「${snap.data.family.representative?.name ?? '—'}」）` : '店铺中未展示'}
            </p>
          ) : (
            !snap.error && <Loading />
          )}
        </div>
      )}
    </div>
  );
}
