import { useEffect, useMemo, useState } from 'react';
import { api, type Page } from '../api';
import { ErrorLine, KeywordSearch, Status, fmtTime, useAction, useLoad } from './common';

interface Cell { size: string; color: string; printCount: string; craft: string; logistics: string; price: string }
type Key = Omit<Cell, 'price'>;
interface Family {
  id: string; name: string; autoManaged: boolean; locked: boolean; memberCount: number; goodCount: number; lowestPrice: string | null;
  members?: { id: string; name: string; delisted: boolean; organised: boolean; tagsManual: boolean; missing: string[] }[];
  customMembers?: { goodId: string; tags: Record<string, string[] | string>; price: string }[];
  overrides?: Cell[];
  invalidOverrides?: Cell[];
  priceMatrix?: { cells: Cell[]; sizes?: string[]; colors?: string[]; printCounts?: string[]; crafts?: string[]; logistics?: string[] };
}

const queryId = () => new URLSearchParams(window.location.hash.split('?')[1] ?? '').get('id');
const DIMS: [keyof Key, string][] = [['size', '尺码'], ['color', '颜色'], ['printCount', '印花面数'], ['craft', '工艺'], ['logistics', '物流']];

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
        {list.data && (
          <div className="row">
            <button className="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>上一页</button>
            <span>第 {page} 页 / 共 {list.data.total} 个</span>
            <button className="secondary" disabled={page * list.data.pageSize >= list.data.total} onClick={() => setPage(page + 1)}>下一页</button>
          </div>
        )}
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
        <input value={name} onChange={(e) => setName(e.target.value)} style={{ fontWeight: 600, minWidth: 260 }} />
        <button className="secondary" disabled={a.busy || name === fam.name} onClick={() => a.run(async () => { await api.request('PATCH', `/product-families/${id}`, { name }); changed(); }, '已重命名')}>重命名</button>
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
      {tab === 'history' && <History id={id} />}
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
            {DIMS.find((x) => x[0] === d)![1]}
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

function Members({ fam, onChanged }: { fam: Family; onChanged: () => void }) {
  const a = useAction();
  const [linkId, setLinkId] = useState('');
  const [custom, setCustom] = useState({ goodId: '', size: '', color: '', printCount: '', craft: '', logistics: '', price: '' });
  return (
    <div>
      <h2>链接成员（{fam.members?.length ?? 0}）</h2>
      <table>
        <thead><tr><th>链接</th><th>状态</th><th></th></tr></thead>
        <tbody>
          {fam.members?.map((m) => (
            <tr key={m.id}>
              <td><a href={`#/links?id=${m.id}`}>{m.name}</a><div className="muted">#{m.id}</div></td>
              <td>
                {m.delisted && <span className="badge red">已下架</span>}
                {m.tagsManual && <span className="badge amber">人工标签</span>}
                {m.missing?.length > 0 && <span className="badge red">缺 {m.missing.join('、')}</span>}
              </td>
              <td><button className="danger" disabled={a.busy} onClick={() => a.run(async () => { await api.request('DELETE', `/product-families/${fam.id}/members/${m.id}`); onChanged(); }, '已移除')}>移除</button></td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="row" style={{ marginTop: 8 }}>
        <input placeholder="链接 ID" value={linkId} onChange={(e) => setLinkId(e.target.value)} />
        <button disabled={!linkId || a.busy} onClick={() => a.run(async () => { await api.request('POST', `/product-families/${fam.id}/members`, { originGoodId: linkId }); setLinkId(''); onChanged(); }, '已添加')}>添加链接</button>
        <Status a={a} />
      </div>
      <h2>自定义成员（{fam.customMembers?.length ?? 0}）</h2>
      <table>
        <thead><tr><th>商品</th><th>标签</th><th>价格</th><th></th></tr></thead>
        <tbody>
          {fam.customMembers?.map((c) => (
            <tr key={c.goodId}>
              <td>#{c.goodId}</td>
              <td>{Object.entries(c.tags).map(([d, v]) => <span key={d} className="badge">{DIMS.find((x) => x[0] === d)?.[1] ?? d}: {Array.isArray(v) ? v.join('/') : v}</span>)}</td>
              <td>¥{c.price}</td>
              <td><button className="danger" disabled={a.busy} onClick={() => a.run(async () => { await api.request('DELETE', `/product-families/${fam.id}/custom-members/${c.goodId}`); onChanged(); }, '已移除')}>移除</button></td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="row" style={{ marginTop: 8 }}>
        <input placeholder="商品 ID" value={custom.goodId} onChange={(e) => setCustom({ ...custom, goodId: e.target.value })} style={{ width: 120 }} />
        {DIMS.map(([d, l]) => <input key={d} placeholder={l} value={custom[d]} onChange={(e) => setCustom({ ...custom, [d]: e.target.value })} style={{ width: 80 }} />)}
        <input placeholder="价格" value={custom.price} onChange={(e) => setCustom({ ...custom, price: e.target.value })} style={{ width: 80 }} />
        <button disabled={a.busy || !custom.goodId || !custom.price} onClick={() => a.run(async () => {
          const { goodId, price, ...dims } = custom;
          const tags = Object.fromEntries(Object.entries(dims).filter(([, v]) => v).map(([k, v]) => [k, [v]]));
          await api.request('POST', `/product-families/${fam.id}/custom-members`, { goodId, tags, price });
          onChanged();
        }, '已添加自定义成员')}>添加</button>
      </div>
    </div>
  );
}

const EVENT_LABEL: Record<string, string> = {
  FamilyCreated: '创建', FamilyRenamed: '重命名', FamilyLocked: '锁定', FamilyUnlocked: '解锁', FamilyMemberAdded: '加入链接', FamilyMemberRemoved: '移除链接',
  FamilyCustomMemberAdded: '加入自定义成员', FamilyCustomMemberRemoved: '移除自定义成员', FamilyPriceOverrideSet: '设置覆盖价', FamilyPriceOverrideRemoved: '清除覆盖价', FamilyDeleted: '删除', FamilyMerged: '合并',
};

function History({ id }: { id: string }) {
  const h = useLoad<{ items: { position: string; version: string; type: string; at: string; by: string; why: string; data: Record<string, unknown> }[] }>(`/product-families/${id}/history`);
  const [at, setAt] = useState<string | null>(null);
  const snap = useLoad<{ at: string; family: Family }>(at ? `/product-families/${id}/history?at=${encodeURIComponent(at)}` : null);
  return (
    <div>
      <ErrorLine error={h.error} />
      <table>
        <thead><tr><th>#</th><th>时间</th><th>事件</th><th>操作人</th><th>原因</th><th>内容</th><th></th></tr></thead>
        <tbody>
          {h.data?.items.map((e) => (
            <tr key={e.position}>
              <td>{e.version}</td>
              <td>{fmtTime(e.at)}</td>
              <td>{EVENT_LABEL[e.type] ?? e.type}</td>
              <td>{e.by}</td>
              <td>{e.why}</td>
              <td className="muted">{Object.entries(e.data).filter(([k]) => k !== 'familyId').map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`).join('；')}</td>
              <td><button className="link" onClick={() => setAt(e.at)}>查看此时</button></td>
            </tr>
          ))}
        </tbody>
      </table>
      {at && snap.data && (
        <div className="card">
          <h2>{fmtTime(at)} 时的系列</h2>
          <p>名称：{snap.data.family.name} · {snap.data.family.locked ? '锁定' : '未锁定'} · 成员 {snap.data.family.members?.length ?? 0} · 矩阵格子 {snap.data.family.priceMatrix?.cells.length ?? 0} · 覆盖价 {snap.data.family.overrides?.length ?? 0}</p>
        </div>
      )}
    </div>
  );
}
