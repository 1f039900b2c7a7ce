import { useEffect, useState } from 'react';
import { api, type Page } from '../api';
import { ErrorLine, KeywordSearch, Status, useAction, useLoad } from './common';
import { TagPicker } from './tags';

type TreeItem =
  | { kind: 'family'; id: string; name: string; configurationCount: number; goods?: { id: string; name: string }[] }
  | { kind: 'good'; id: string; name: string };
interface TreeCountry { id: string; name: string; categories: { id: string; name: string; items: TreeItem[] }[] }

export function GoodsTreePage() {
  const t = useLoad<{ items: TreeCountry[] }>('/goods/tree');
  return (
    <div className="card tree">
      <ErrorLine error={t.error} />
      {!t.data && !t.error && <div className="muted">加载中…</div>}
      {t.data?.items.map((c) => (
        <details key={c.id} open>
          <summary><b>{c.name}</b> <span className="muted">{c.categories.length} 个类目</span></summary>
          <ul>
            {c.categories.map((cat) => (
              <li key={cat.id}>
                <details>
                  <summary>{cat.name} <span className="muted">（{cat.items.length}）</span></summary>
                  <ul>
                    {cat.items.map((it) => (
                      <li key={`${it.kind}-${it.id}`} data-testid={`tree-${it.kind}`}>
                        {it.kind === 'family' ? (
                          <>
                            <span className="badge blue">系列</span> <a href={`#/families?id=${it.id}`}>{it.name}</a>{' '}
                            <span className="muted">{it.configurationCount} 个配置</span>
                          </>
                        ) : (
                          <>
                            <span className="badge">商品</span> <a href={`#/goods?id=${it.id}`}>{it.name}</a>
                          </>
                        )}
                      </li>
                    ))}
                  </ul>
                </details>
              </li>
            ))}
          </ul>
        </details>
      ))}
    </div>
  );
}

interface Good {
  id: string; name: string; description: string | null; image: string | null; goodPriority: number; tagIds: string[];
  categoryId: string | null; countryId: string | null; familyId: string | null; originGoodId: string | null;
  secondaryOriginGoodIds: string[]; originGood?: { id: string; name: string; delisted: boolean; family: { id: string; memberCount: number } | null } | null;
}

const queryId = () => new URLSearchParams(window.location.hash.split('?')[1] ?? '').get('id');

export function GoodsPage() {
  const [keyword, setKeyword] = useState('');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const list = useLoad<Page<Good>>(`/goods?page=${page}&pageSize=30${q ? `&keyword=${encodeURIComponent(q)}` : ''}`);
  const [selected, setSelected] = useState<string | null>(queryId());
  return (
    <div className="grid2">
      <div className="card">
        <KeywordSearch keyword={keyword} setKeyword={setKeyword} onSearch={() => { setPage(1); setQ(keyword); }} />
        <ErrorLine error={list.error} />
        <div className="scroll">
          <table>
            <thead><tr><th>商品</th><th>优先级</th><th>系列成员</th></tr></thead>
            <tbody>
              {list.data?.items.map((g) => (
                <tr key={g.id} className={g.id === selected ? 'selected' : ''} onClick={() => setSelected(g.id)} style={{ cursor: 'pointer' }}>
                  <td>{g.name}<div className="muted">#{g.id}</div></td>
                  <td>{g.goodPriority}</td>
                  <td>{g.originGood?.family?.memberCount ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {list.data && (
          <div className="row">
            <button className="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>上一页</button>
            <span>第 {page} 页 / 共 {Math.max(1, Math.ceil(list.data.total / list.data.pageSize))} 页</span>
            <button className="secondary" disabled={page * list.data.pageSize >= list.data.total} onClick={() => setPage(page + 1)}>下一页</button>
          </div>
        )}
      </div>
      {selected ? <GoodEditor key={selected} id={selected} onSaved={list.reload} /> : <div className="card muted">选择一个商品进行编辑</div>}
    </div>
  );
}

function GoodEditor({ id, onSaved }: { id: string; onSaved: () => void }) {
  const g = useLoad<Good>(`/goods/${id}`);
  const [form, setForm] = useState<Good | null>(null);
  const [origins, setOrigins] = useState('');
  const a = useAction();
  useEffect(() => {
    if (g.data) {
      setForm(g.data);
      setOrigins(g.data.secondaryOriginGoodIds.join(', '));
    }
  }, [g.data]);
  if (g.error) return <div className="card"><ErrorLine error={g.error} /></div>;
  if (!form) return <div className="card muted">加载中…</div>;
  const save = () =>
    a.run(async () => {
      const saved = await api.request<Good>('PATCH', `/goods/${id}`, {
        name: form.name, description: form.description, image: form.image, goodPriority: Number(form.goodPriority), tagIds: form.tagIds,
      });
      if (saved && typeof saved === 'object' && 'id' in saved) g.setData(saved);
      onSaved();
    }, '已保存');
  return (
    <div className="card" data-testid="good-editor">
      <h2>编辑商品 #{id}</h2>
      <div className="row" style={{ alignItems: 'flex-start' }}>
        {form.image ? <img className="thumb" src={form.image} alt="" style={{ width: 96, height: 96 }} /> : <div className="thumb" style={{ width: 96, height: 96 }} />}
        <div style={{ flex: 1, display: 'flex', flexDirection: 'column', gap: 8 }}>
          <label>名称<input value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} /></label>
          <label>优先级（越大越靠前）<input name="goodPriority" type="number" value={form.goodPriority} onChange={(e) => setForm({ ...form, goodPriority: e.target.value as unknown as number })} /></label>
          <label>图片地址<input value={form.image ?? ''} onChange={(e) => setForm({ ...form, image: e.target.value || null })} /></label>
          <label>上传图片
            <input type="file" accept="image/*" onChange={(e) => {
              const f = e.target.files?.[0];
              if (f) a.run(async () => { const r = await api.upload('/upload', f); setForm((x) => x && { ...x, image: r.url }); }, '已上传，保存后生效');
            }} />
          </label>
        </div>
      </div>
      <label>描述<textarea rows={3} value={form.description ?? ''} onChange={(e) => setForm({ ...form, description: e.target.value || null })} /></label>
      <h2>标签</h2>
      <TagPicker value={form.tagIds} onChange={(tagIds) => setForm({ ...form, tagIds })} />
      <div className="row" style={{ marginTop: 12 }}>
        <button disabled={a.busy} onClick={save}>保存</button>
        <Status a={a} />
      </div>
      <h2>合并的链接</h2>
      <div className="muted">主链接：{form.originGood ? `${form.originGood.name} (#${form.originGood.id})` : '—'}</div>
      <div className="row">
        <input style={{ flex: 1 }} placeholder="次要链接 ID，用逗号分隔" value={origins} onChange={(e) => setOrigins(e.target.value)} />
        <button className="secondary" disabled={a.busy} onClick={() => a.run(async () => {
          const ids = origins.split(/[\s,，]+/).filter(Boolean);
          await api.request('PUT', `/goods/${id}/origins`, { secondaryOriginGoodIds: ids });
          g.reload();
        }, '合并链接已更新')}>更新合并</button>
      </div>
    </div>
  );
}

interface Link {
  id: string; name: string; price: string; delisted: boolean; craftLabel: string | null;
  parsed: { country: string; logistics: string; productName: string; sku: string } | null;
  tags: { id: string; name: string; dimension: string }[]; tagsManual: boolean; tagsMissing?: string[];
  family: { id: string; memberCount: number } | null;
}

export function LinksPage() {
  const [keyword, setKeyword] = useState('');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const list = useLoad<Page<Link>>(`/origin-goods?page=${page}&pageSize=30${q ? `&keyword=${encodeURIComponent(q)}` : ''}`);
  const [selected, setSelected] = useState<string | null>(queryId());
  return (
    <div className="grid2">
      <div className="card">
        <KeywordSearch keyword={keyword} setKeyword={setKeyword} onSearch={() => { setPage(1); setQ(keyword); }} />
        <ErrorLine error={list.error} />
        <div className="scroll">
          <table>
            <thead><tr><th>链接</th><th>价格</th><th>标签</th></tr></thead>
            <tbody>
              {list.data?.items.map((l) => (
                <tr key={l.id} className={l.id === selected ? 'selected' : ''} onClick={() => setSelected(l.id)} style={{ cursor: 'pointer' }}>
                  <td>{l.name}{l.delisted && <span className="badge red">已下架</span>}<div className="muted">#{l.id}</div></td>
                  <td>¥{l.price}</td>
                  <td>{l.tagsManual ? <span className="badge amber">人工</span> : <span className="badge">自动</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {list.data && (
          <div className="row">
            <button className="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>上一页</button>
            <span>第 {page} 页</span>
            <button className="secondary" disabled={page * list.data.pageSize >= list.data.total} onClick={() => setPage(page + 1)}>下一页</button>
          </div>
        )}
      </div>
      {selected ? <LinkTags key={selected} id={selected} onSaved={list.reload} /> : <div className="card muted">选择一个链接查看和接管标签</div>}
    </div>
  );
}

function LinkTags({ id, onSaved }: { id: string; onSaved: () => void }) {
  const l = useLoad<Link>(`/origin-goods/${id}`);
  const [tagIds, setTagIds] = useState<string[]>([]);
  const [filled, setFilled] = useState<{ name: string; dimension: string }[]>([]);
  const a = useAction();
  useEffect(() => { if (l.data) setTagIds(l.data.tags.map((t) => t.id)); }, [l.data]);
  if (l.error) return <div className="card"><ErrorLine error={l.error} /></div>;
  if (!l.data) return <div className="card muted">加载中…</div>;
  const d = l.data;
  return (
    <div className="card" data-testid="link-tags">
      <h2>{d.name}</h2>
      <div className="row">
        <span>¥{d.price}</span>
        {d.craftLabel && <span className="badge">{d.craftLabel}</span>}
        {d.parsed ? <span className="muted">解析：{d.parsed.country} / {d.parsed.productName} / {d.parsed.sku} / {d.parsed.logistics}</span> : <span className="badge red">未解析</span>}
        {d.family ? <a href={`#/families?id=${d.family.id}`}>系列（{d.family.memberCount} 个成员）</a> : <span className="muted">未归入系列</span>}
      </div>
      <p>标签来源：{d.tagsManual ? <span className="badge amber">人工接管</span> : <span className="badge">自动派生</span>}
        {d.tagsMissing && d.tagsMissing.length > 0 && <span className="error"> 缺少维度：{d.tagsMissing.join('、')}</span>}</p>
      <TagPicker value={tagIds} onChange={setTagIds} />
      <div className="row" style={{ marginTop: 12 }}>
        <button disabled={a.busy} onClick={() => a.run(async () => {
          const r = await api.request<{ filledDimensionTags: { name: string; dimension: string }[]; attachedFamilyId: string | null }>('PUT', `/origin-goods/${id}/tags`, { tagIds });
          setFilled(r.filledDimensionTags ?? []);
          l.reload(); onSaved();
        }, '已人工接管标签')}>保存（人工接管）</button>
        <button className="secondary" disabled={a.busy || !d.tagsManual} onClick={() => a.run(async () => { await api.request('POST', `/origin-goods/${id}/tags/restore-auto`); l.reload(); onSaved(); }, '已恢复自动标签')}>恢复自动</button>
        <Status a={a} />
      </div>
      {filled.length > 0 && <div className="muted">自动补全的维度标签：{filled.map((f) => `${f.dimension}=${f.name}`).join('，')}</div>}
    </div>
  );
}
