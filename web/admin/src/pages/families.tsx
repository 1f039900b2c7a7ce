import { useEffect, useMemo, useState } from 'react';
import { api } from '../api';
import type { Cell, Family } from '../../../shared/responses/families';
import type { Good } from '../../../shared/responses/goods';
import type { HistoryItem } from '../../../shared/responses/history';
import type { Link } from '../../../shared/responses/links';
import type { Page } from '../../../shared/responses/page';
import { ErrorLine, KeywordSearch, Pager, SearchPicker, Status } from '../common/components';
import { fmtTime } from '../common/format';
import { useAction, useLoad } from '../common/hooks';
import { queryId } from '../common/location';
import { rememberName, useNames } from '../common/names';
import { DIMENSIONS, DIM_LABEL, dimensionValues, useTags, type Dimension } from '../common/tags';

type Key = Omit<Cell, 'price'>;

export function FamiliesPage() {
  const [page, setPage] = useState(1);
  const [keyword, setKeyword] = useState('');
  const [q, setQ] = useState('');
  const list = useLoad<Page<Family>>(`/product-families?page=${page}&pageSize=30${q ? `&keyword=${encodeURIComponent(q)}` : ''}`);
  const [selected, setSelected] = useState<string | null>(queryId());
  const a = useAction();
  const [newName, setNewName] = useState('');
  return (
    <div className="grid2">
      <div className="card">
        <KeywordSearch keyword={keyword} setKeyword={setKeyword} onSearch={() => { setPage(1); setQ(keyword); }} />
        <ErrorLine error={list.error} />
        <div className="scroll">
          <table>
            <thead><tr><th>系列</th><th>成员</th><th>最低价</th></tr></thead>
            <tbody>
              {list.data?.items.map((f) => (
                <tr key={f.id} data-testid="family-row" className={f.id === selected ? 'selected' : ''} onClick={() => setSelected(f.id)} style={{ cursor: 'pointer' }}>
                  <td>{f.name} {f.locked && <span className="badge amber">锁定</span>}{!f.autoManaged && <span className="badge">手动</span>}</td>
                  <td>{f.memberCount}</td>
                  <td>{f.lowestPrice ? `¥${f.lowestPrice}` : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {list.data && <Pager page={page} setPage={setPage} list={list.data} />}
        <h2>新建手动系列</h2>
        <div className="row">
          <input placeholder="系列名称" value={newName} onChange={(e) => setNewName(e.target.value)} />
          <button disabled={!newName || a.busy} onClick={() => a.run(async () => {
            const f = await api.request<Family>('POST', '/product-families', { name: newName });
            setNewName(''); list.reload(); if (f?.id) setSelected(f.id);
          }, '已创建')}>创建</button>
          <Status a={a} />
        </div>
      </div>
      {selected ? <FamilyDetail key={selected} id={selected} onChanged={list.reload} onDeleted={() => { setSelected(null); list.reload(); }} /> : <div className="card muted">选择一个系列</div>}
    </div>
  );
}

function FamilyDetail({ id, onChanged, onDeleted }: { id: string; onChanged: () => void; onDeleted: () => void }) {
  const f = useLoad<Family>(`/product-families/${id}`);
  const a = useAction();
  const [tab, setTab] = useState<'matrix' | 'members' | 'history'>('matrix');
  const [name, setName] = useState('');
  useEffect(() => { if (f.data) setName(f.data.name); }, [f.data?.name]);
  if (f.error) return <div className="card"><ErrorLine error={f.error} /></div>;
  if (!f.data) return <div className="card muted">加载中…</div>;
  const fam = f.data;
  const changed = () => { f.reload(); onChanged(); };
  return (
    <div className="card" data-testid="family-detail">
      <div className="row">
        <input name="family-name" value={name} onChange={(e) => setName(e.target.value)} style={{ fontWeight: 600, minWidth: 260 }} />
        {fam.locked && <span className="badge amber" data-testid="family-locked">已锁定</span>}
        <button className="secondary" disabled={a.busy || !name.trim() || name === fam.name} onClick={() => a.run(async () => { await api.request('PATCH', `/product-families/${id}`, { name }); changed(); }, '已重命名')}>重命名</button>
        <button className="secondary" data-testid="toggle-lock" disabled={a.busy} onClick={() => a.run(async () => { await api.request('PATCH', `/product-families/${id}`, { locked: !fam.locked }); changed(); }, fam.locked ? '已解锁' : '已锁定')}>
          {fam.locked ? '解锁' : '锁定'}
        </button>
        <button className="danger" disabled={a.busy} onClick={() => confirm('删除该系列？') && a.run(async () => { await api.request('DELETE', `/product-families/${id}`); onDeleted(); })}>删除</button>
        <Status a={a} />
      </div>
      <p className="muted">
        #{fam.id} · {fam.autoManaged ? '自动管理' : '手动'} · {fam.locked ? '已锁定（整理不会改动）' : '未锁定'} · {fam.memberCount} 个链接 · 最低价 {fam.lowestPrice ? `¥${fam.lowestPrice}` : '—'}
      </p>
      <div className="row">
        <button className={tab === 'matrix' ? '' : 'secondary'} onClick={() => setTab('matrix')}>价格矩阵</button>
        <button className={tab === 'members' ? '' : 'secondary'} onClick={() => setTab('members')}>成员</button>
        <button className={tab === 'history' ? '' : 'secondary'} onClick={() => setTab('history')}>历史</button>
      </div>
      {tab === 'matrix' && <Matrix fam={fam} onChanged={changed} />}
      {tab === 'members' && <Members fam={fam} onChanged={changed} />}
      {tab === 'history' && <History key={fam.revision ?? ''} id={id} />}
    </div>
  );
}

const uniq = (xs: string[]) => [...new Set(xs)];
const keyOf = (c: Key) => JSON.stringify([c.size, c.color, c.printCount, c.craft, c.logistics]);

function Matrix({ fam, onChanged }: { fam: Family; onChanged: () => void }) {
  const cells = fam.priceMatrix?.cells ?? [];
  const dims = useMemo(() => {
    const m = fam.priceMatrix ?? { cells };
    return {
      size: m.sizes ?? uniq(cells.map((c) => c.size)),
      color: m.colors ?? uniq(cells.map((c) => c.color)),
      printCount: m.printCounts ?? uniq(cells.map((c) => c.printCount)),
      craft: m.crafts ?? uniq(cells.map((c) => c.craft)),
      logistics: m.logistics ?? uniq(cells.map((c) => c.logistics)),
    };
  }, [fam]);
  const [pick, setPick] = useState({ printCount: dims.printCount[0] ?? '', craft: dims.craft[0] ?? '', logistics: dims.logistics[0] ?? '' });
  const overrides = new Map((fam.overrides ?? []).map((o) => [keyOf(o), o.price]));
  const byKey = new Map(cells.map((c) => [keyOf(c), c]));
  const a = useAction();
  if (!cells.length) return <p className="muted">该系列还没有价格矩阵。</p>;
  return (
    <div>
      <div className="row" style={{ margin: '12px 0' }}>
        {(['printCount', 'craft', 'logistics'] as const).map((d) => (
          <label key={d} style={{ flexDirection: 'row', alignItems: 'center' }}>
            {DIM_LABEL[d]}
            <select data-testid={`matrix-${d}`} value={pick[d]} onChange={(e) => setPick({ ...pick, [d]: e.target.value })}>
              {dims[d].map((v) => <option key={v}>{v}</option>)}
            </select>
          </label>
        ))}
        <Status a={a} />
      </div>
      <p className="muted">在格子里直接改价并回车（或离开输入框）即设置覆盖价；橙色格子为覆盖价，点 × 恢复计算价。</p>
      <div className="scroll">
        <table className="matrix">
          <thead><tr><th>尺码 \ 颜色</th>{dims.color.map((c) => <th key={c}>{c}</th>)}</tr></thead>
          <tbody>
            {dims.size.map((s) => (
              <tr key={s}>
                <th>{s}</th>
                {dims.color.map((c) => {
                  const k: Key = { size: s, color: c, ...pick };
                  const cell = byKey.get(keyOf(k));
                  const ov = overrides.get(keyOf(k));
                  return (
                    <td key={c} className={ov !== undefined ? 'overridden' : ''}>
                      {cell ? (
                        <PriceCell
                          testId={`cell-${s}-${c}`}
                          price={cell.price}
                          overridden={ov !== undefined}
                          disabled={a.busy}
                          onSet={(price) => a.run(async () => { await api.request('PUT', `/product-families/${fam.id}/price-overrides`, { ...k, price }); onChanged(); }, `已设置 ${s}/${c} 覆盖价 ¥${price}`)}
                          onClear={() => a.run(async () => { await api.request('DELETE', `/product-families/${fam.id}/price-overrides`, k); onChanged(); }, `已清除 ${s}/${c} 覆盖价`)}
                        />
                      ) : <span className="muted">—</span>}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {(fam.invalidOverrides?.length ?? 0) > 0 && (
        <p className="error">失效的覆盖价（对应格子已不存在）：{fam.invalidOverrides!.map((o) => `${keyOf(o)} ¥${o.price}`).join('；')}</p>
      )}
    </div>
  );
}

function PriceCell({ price, overridden, disabled, onSet, onClear, testId }: { price: string; overridden: boolean; disabled: boolean; onSet: (p: string) => void; onClear: () => void; testId: string }) {
  const [v, setV] = useState(price);
  useEffect(() => setV(price), [price]);
  const commit = () => { if (v !== price && /^\d+(\.\d{1,2})?$/.test(v)) onSet(v); else setV(price); };
  return (
    <span className="row" style={{ gap: 2, flexWrap: 'nowrap' }}>
      <input data-testid={testId} value={v} disabled={disabled} inputMode="decimal" onChange={(e) => setV(e.target.value)} onBlur={commit} onKeyDown={(e) => e.key === 'Enter' && (e.target as HTMLInputElement).blur()} />
      {overridden && <button className="link" title="清除覆盖价" data-testid={`${testId}-clear`} onClick={onClear}>×</button>}
    </span>
  );
}

/** The prices the API takes (src/catalog/families/routes.ts `money`). */
const MONEY = /^\d{1,10}(\.\d{1,4})?$/;
const noValues = (): Record<Dimension, string[]> => ({ size: [], color: [], printCount: [], craft: [], logistics: [] });
const fmtValues = (v: unknown) => (Array.isArray(v) ? (v.length ? v.join('/') : '—') : String(v));

function Members({ fam, onChanged }: { fam: Family; onChanged: () => void }) {
  const a = useAction();
  const c = useAction();
  const [linkId, setLinkId] = useState('');
  const vocab = useTags();
  const values = useMemo(() => (vocab ? dimensionValues(vocab) : null), [vocab]);
  const [good, setGood] = useState<Good | null>(null);
  const [tags, setTags] = useState(noValues);
  const [price, setPrice] = useState('');
  const customIds = (fam.customMembers ?? []).map((m) => m.goodId);
  const goodNames = useNames('goods', customIds);
  const memberIds = (fam.members ?? []).map((m) => m.id);
  const addLink = (lid: string) =>
    a.run(async () => { await api.request('POST', `/product-families/${fam.id}/members`, { originGoodId: lid }); setLinkId(''); onChanged(); }, '已添加链接');
  const incomplete = (['size', 'color', 'craft', 'logistics'] as const).filter((d) => tags[d].length === 0);
  const priceOk = MONEY.test(price);
  const addCustom = () =>
    c.run(async () => {
      // The API wants all five dimensions, each an array (possibly empty), and the price as a decimal string.
      await api.request('POST', `/product-families/${fam.id}/custom-members`, { goodId: good!.id, tags, price });
      setGood(null); setTags(noValues()); setPrice('');
      onChanged();
    }, '已添加自定义成员');
  return (
    <div>
      <h2>链接成员（{fam.members?.length ?? 0}）</h2>
      <table data-testid="link-members">
        <thead><tr><th>链接</th><th>状态</th><th></th></tr></thead>
        <tbody>
          {fam.members?.length === 0 && <tr><td colSpan={3} className="muted">没有链接成员</td></tr>}
          {fam.members?.map((m) => (
            <tr key={m.id} data-testid="link-member">
              <td><a href={`#/links?id=${m.id}`}>{m.name}</a><div className="muted">#{m.id}</div></td>
              <td>
                {m.delisted && <span className="badge red">已下架</span>}
                {m.tagsManual && <span className="badge amber">人工标签</span>}
                {(m.missing?.length ?? 0) > 0 && <span className="badge red">缺 {m.missing!.map((d) => DIM_LABEL[d as Dimension] ?? d).join('、')}</span>}
              </td>
              <td><button className="danger" disabled={a.busy} aria-label={`移除链接 ${m.id}`} onClick={() => a.run(async () => { await api.request('DELETE', `/product-families/${fam.id}/members/${m.id}`); onChanged(); }, '已移除链接')}>移除</button></td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="row" style={{ marginTop: 8, alignItems: 'flex-start' }}>
        <div style={{ flex: 2, minWidth: 260 }}>
          <SearchPicker<Link>
            testId="member-search"
            placeholder="搜索链接名称"
            disabled={a.busy}
            exclude={memberIds}
            search={async (k) => (await api.get<Page<Link>>(`/origin-goods?pageSize=20${k ? `&keyword=${encodeURIComponent(k)}` : ''}`)).items}
            render={(l) => <>{l.name} <span className="muted">#{l.id}</span>{l.family && <span className="badge">已在系列 #{l.family.id}</span>}{l.delisted && <span className="badge red">已下架</span>}</>}
            onPick={(l) => void addLink(l.id)}
          />
        </div>
        <form className="row" style={{ flex: 1, flexWrap: 'nowrap' }} onSubmit={(e) => { e.preventDefault(); if (linkId.trim()) void addLink(linkId.trim()); }}>
          <input placeholder="或输入链接 ID" value={linkId} onChange={(e) => setLinkId(e.target.value)} style={{ width: 150 }} />
          <button type="submit" disabled={!linkId.trim() || a.busy}>添加链接</button>
        </form>
      </div>
      <Status a={a} />

      <h2>自定义成员（{fam.customMembers?.length ?? 0}）</h2>
      <table data-testid="custom-members">
        <thead><tr><th>商品</th><th>标签</th><th>价格</th><th></th></tr></thead>
        <tbody>
          {fam.customMembers?.length === 0 && <tr><td colSpan={4} className="muted">没有自定义成员</td></tr>}
          {fam.customMembers?.map((m) => (
            <tr key={m.goodId} data-testid="custom-member">
              <td><a href={`#/goods?id=${m.goodId}`}>{goodNames[m.goodId] ?? '…'}</a><div className="muted">#{m.goodId}</div></td>
              <td>{DIMENSIONS.map((d) => <span key={d} className="badge">{DIM_LABEL[d]}：{fmtValues(m.tags[d] ?? [])}</span>)}</td>
              <td>¥{m.price}</td>
              <td><button className="danger" disabled={c.busy} aria-label={`移除自定义成员 ${m.goodId}`} onClick={() => c.run(async () => { await api.request('DELETE', `/product-families/${fam.id}/custom-members/${m.goodId}`); onChanged(); }, '已移除自定义成员')}>移除</button></td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="card inset" data-testid="custom-member-form">
        <h2 style={{ marginTop: 0 }}>添加自定义成员</h2>
        <div className="row">
          <b style={{ minWidth: 64 }}>商品</b>
          {good ? (
            <span data-testid="custom-good">{good.name} <span className="muted">#{good.id}</span> <button className="link" onClick={() => setGood(null)}>更换</button></span>
          ) : (
            <div style={{ flex: 1 }}>
              <SearchPicker<Good>
                testId="custom-good-search"
                placeholder="搜索自定义商品（没有来源链接的商品）"
                exclude={customIds}
                search={async (k) => (await api.get<Page<Good>>(`/goods?custom=true&pageSize=50${k ? `&keyword=${encodeURIComponent(k)}` : ''}`)).items}
                render={(g) => <>{g.name} <span className="muted">#{g.id}</span></>}
                onPick={(g) => { rememberName('goods', g.id, g.name); setGood(g); }}
              />
            </div>
          )}
        </div>
        {!values && <div className="muted">加载标签…</div>}
        {values && DIMENSIONS.map((d) => (
          <div key={d} className="row" style={{ marginTop: 4 }} data-testid={`custom-${d}`}>
            <b style={{ minWidth: 64 }}>{DIM_LABEL[d]}</b>
            {values[d].length === 0 && <span className="muted">（该维度没有标签，请先在标签组中添加）</span>}
            {values[d].map((v) => (
              <label key={v} className="check">
                <input type="checkbox" checked={tags[d].includes(v)} onChange={(e) => setTags({ ...tags, [d]: e.target.checked ? [...tags[d], v] : tags[d].filter((x) => x !== v) })} />
                {v}
              </label>
            ))}
          </div>
        ))}
        <div className="row" style={{ marginTop: 8 }}>
          <b style={{ minWidth: 64 }}>价格</b>
          <input name="custom-price" placeholder="如 39.90" inputMode="decimal" value={price} onChange={(e) => setPrice(e.target.value.trim())} style={{ width: 120 }} />
          {price && !priceOk && <span className="error">价格须为数字，最多 4 位小数</span>}
        </div>
        {good && incomplete.length > 0 && <p className="muted">未选择{incomplete.map((d) => DIM_LABEL[d]).join('、')}：该成员不会产生价格格子。</p>}
        <div className="row" style={{ marginTop: 8 }}>
          <button disabled={c.busy || !good || !priceOk} onClick={addCustom}>添加自定义成员</button>
          <Status a={c} />
        </div>
      </div>
    </div>
  );
}

/** The event types of the family stream (src/catalog/families/events.ts). */
const EVENT_LABEL: Record<string, string> = {
  FamilyCreated: '创建', FamilyRenamed: '重命名', FamilyLocked: '锁定', FamilyUnlocked: '解锁', FamilyMemberAdded: '加入链接', FamilyMemberRemoved: '移除链接',
  FamilyCustomMemberAdded: '加入自定义成员', FamilyCustomMemberRemoved: '移除自定义成员', FamilyPriceOverrideSet: '设置覆盖价', FamilyPriceOverrideRemoved: '清除覆盖价',
  FamilyMergedInto: '并入其他系列', FamilyDeleted: '删除', FamilyRecomputed: '重算聚合',
  // Events of member links and goods that changed the family (docs/api.md, History).
  LinkJoinedFamily: '链接加入', LinkLeftFamily: '链接离开', LinkMirrored: '链接同步', LinkDetailSynced: '详情同步', LinkDelisted: '链接下架', LinkRelisted: '链接重新上架',
  LinkParsed: '解析链接名', LinkTagsDerived: '推导标签', LinkTagsTakenOver: '手动设置标签', LinkTagsRestored: '恢复自动标签',
  GoodCreated: '新建商品', GoodUpdated: '修改商品', GoodOriginsSet: '修改合并链接', GoodDeleted: '删除商品',
};

/**
 * The commands recorded as the events' "why" (the `name` of src/catalog/** commands, the
 * organisation's and the synchronisation's own).
 */
const WHY_LABEL: Record<string, string> = {
  Organise: '整理', AutoGroup: '自动分组',
  CreateFamily: '新建系列', UpdateFamily: '修改系列', DeleteFamily: '删除系列', AddFamilyMember: '添加链接', RemoveFamilyMember: '移除链接',
  AddCustomMember: '添加自定义成员', RemoveCustomMember: '移除自定义成员', SetPriceOverride: '设置覆盖价', RemovePriceOverride: '清除覆盖价',
  UpdateLinkTags: '修改链接标签', RestoreAutoLinkTags: '恢复自动标签',
  CreateGood: '新建商品', UpdateGood: '修改商品', DeleteGood: '删除商品', SetGoodOrigins: '修改合并链接',
  SyncCategories: '同步类目', SyncOriginGoods: '同步商品链接', SyncDetails: '同步链接详情',
  SortCategories: '类目排序', SortCountries: '国家排序', SortTags: '标签排序',
};

/** An event's data (an object for every family event) in a few words. */
function describeData(data: unknown): string {
  return Object.entries(data as Record<string, unknown>)
    .filter(([k]) => k !== 'familyId')
    .map(([k, v]) => {
      if (k === 'tags' && v && typeof v === 'object') return Object.entries(v).map(([d, x]) => `${DIM_LABEL[d as Dimension] ?? d}=${fmtValues(x)}`).join(' ');
      return `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`;
    })
    .join('；');
}

type Changes = Record<string, unknown> | null | undefined;

const len = (v: unknown) => (Array.isArray(v) ? v.length : 0);
/** What an event changed of the family, in a few words: members, cells, lowest price, representative. */
function describeChanges(c: Changes): string {
  if (!c) return '';
  const parts: string[] = [];
  const m = c.members as { added: string[]; removed: string[] } | undefined;
  if (m) parts.push(`成员 ${[...m.added.map((id) => `+${id}`), ...m.removed.map((id) => `−${id}`)].join(' ')}`);
  const cells = c.cells as { added: unknown[]; removed: unknown[]; changed: unknown[] } | undefined;
  if (cells) parts.push(`格子 +${len(cells.added)} −${len(cells.removed)} 改价 ${len(cells.changed)}`);
  const low = c.lowestPrice as { from: string | null; to: string | null } | undefined;
  if (low) parts.push(`最低价 ${low.from ?? '—'} → ${low.to ?? '—'}`);
  const rep = c.representative as { from: { name: string } | null; to: { name: string } | null } | undefined;
  if (rep) parts.push(`代表商品 ${rep.from?.name ?? '—'} → ${rep.to?.name ?? '—'}`);
  const pub = c.public as { to: boolean } | undefined;
  if (pub) parts.push(pub.to ? '上架展示' : '不再展示');
  if (len(c.other)) parts.push(`其他：${(c.other as string[]).join('、')}`);
  return parts.join('；');
}

function History({ id }: { id: string }) {
  const h = useLoad<{ items: HistoryItem[] }>(`/product-families/${id}/history`);
  const [at, setAt] = useState<string | null>(null);
  const snap = useLoad<{ at: string; family: Family & { public?: boolean; representative?: { name: string } | null } }>(at ? `/product-families/${id}/history?at=${encodeURIComponent(at)}` : null);
  return (
    <div>
      <ErrorLine error={h.error} />
      <table data-testid="family-history">
        <thead><tr><th>#</th><th>时间</th><th>事件</th><th>操作人</th><th>原因</th><th>内容</th><th></th></tr></thead>
        <tbody>
          {h.data?.items.map((e) => (
            <tr key={e.position} data-testid="history-row" className={e.at === at ? 'selected' : ''}>
              <td>{e.version}</td>
              <td>{fmtTime(e.at)}</td>
              <td data-testid="history-type">{EVENT_LABEL[e.type] ?? e.type}</td>
              <td>{e.by}</td>
              <td title={e.why} data-testid="history-why">{WHY_LABEL[e.why] ?? e.why}</td>
              <td className="muted">{[e.stream?.startsWith('family-') ? describeData(e.data) : e.stream, describeChanges(e.changes), e.runChanges ? `本批合计：${describeChanges(e.runChanges)}` : ''].filter(Boolean).join('；')}</td>
              <td style={{ whiteSpace: 'nowrap' }}><button className="link" onClick={() => setAt(e.at)}>查看此时</button></td>
            </tr>
          ))}
        </tbody>
      </table>
      {at && (
        <div className="card inset" data-testid="family-snapshot">
          <h2>{fmtTime(at)} 时的系列</h2>
          <ErrorLine error={snap.error} />
          {snap.data && snap.data.at === new Date(at).toISOString() ? (
            <p>
              名称：<b data-testid="snapshot-name">{snap.data.family.name}</b> · <span data-testid="snapshot-locked">{snap.data.family.locked ? '锁定' : '未锁定'}</span> · 成员 {snap.data.family.members?.length ?? 0} · 自定义成员 {snap.data.family.customMembers?.length ?? 0} · 矩阵格子 {snap.data.family.priceMatrix?.cells.length ?? 0} · 覆盖价 {snap.data.family.overrides?.length ?? 0} · 最低价 <span data-testid="snapshot-lowest">{snap.data.family.lowestPrice ?? '—'}</span> · {snap.data.family.public ? `前台展示（代表商品：${snap.data.family.representative?.name ?? '—'}）` : '前台未展示'}
            </p>
          ) : !snap.error && <p className="muted">加载中…</p>}
        </div>
      )}
    </div>
  );
}
