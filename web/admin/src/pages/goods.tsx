import { useEffect, useRef, useState } from 'react';
import { api, type Page } from '../api';
import { ApiError } from '../../../shared/http';
import { ErrorLine, KeywordSearch, Pager, SearchPicker, Status, errorText, rememberName, useAction, useLoad, useNames } from './common';
import { DIM_LABEL, TagPicker, type Dimension } from './tags';
import { DeleteGood, GoodsListControls, HEX, PlacementFields } from './good-fields';
import { LinkDetail } from './link-detail';

interface TreeGood { id: string; name: string }
// GET /goods/tree: a category holds families (with their goods) and, in one node, the goods without a family.
type TreeItem =
  | { kind: 'family'; id: string; name: string; configurationCount: number; goods?: TreeGood[] }
  | { kind: 'goods'; goods: TreeGood[] };
interface TreeCountry { id: string | null; name: string | null; categories: { id: string | null; name: string | null; items: TreeItem[] }[] }

const goodCount = (items: TreeItem[]) => items.reduce((n, it) => n + (it.kind === 'family' ? 1 : it.goods.length), 0);

export function GoodsTreePage() {
  const t = useLoad<{ items: TreeCountry[] }>('/goods/tree');
  return (
    <div className="card tree">
      <ErrorLine error={t.error} />
      {!t.data && !t.error && <div className="muted">加载中…</div>}
      {t.data?.items.map((c) => (
        <details key={String(c.id)} open>
          <summary><b>{c.name ?? '未知国家'}</b> <span className="muted">{c.categories.length} 个类目</span></summary>
          <ul>
            {c.categories.map((cat) => (
              <li key={String(cat.id)}>
                <details>
                  <summary>{cat.name ?? '未分类'} <span className="muted">（{goodCount(cat.items)}）</span></summary>
                  <ul>
                    {cat.items.flatMap((it) =>
                      it.kind === 'family'
                        ? [
                            <li key={`family-${it.id}`} data-testid="tree-family">
                              <span className="badge blue">系列</span> <a href={`#/families?id=${it.id}`}>{it.name}</a>{' '}
                              <span className="muted">{it.configurationCount} 个配置</span>
                            </li>,
                          ]
                        : it.goods.map((g) => (
                            <li key={`good-${g.id}`} data-testid="tree-good">
                              <span className="badge">商品</span> <a href={`#/goods?id=${g.id}`}>{g.name}</a>
                            </li>
                          )),
                    )}
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

export interface Good {
  id: string; name: string; description: string | null; image: string | null; goodPriority: number; tagIds: string[]; tagFontColor: string | null;
  categoryId: string | null; countryId: string | null; familyId: string | null; originGoodId: string | null;
  secondaryOriginGoodIds: string[]; originGood?: { id: string; name: string; delisted: boolean; family: { id: string; memberCount: number } | null } | null;
}

const queryId = () => new URLSearchParams(window.location.hash.split('?')[1] ?? '').get('id');

export function GoodsPage() {
  const [keyword, setKeyword] = useState('');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const [tagIds, setTagIds] = useState<string[]>([]);
  const [sort, setSort] = useState('');
  const filters = `${q ? `&keyword=${encodeURIComponent(q)}` : ''}${tagIds.length ? `&tagIds=${tagIds.join(',')}` : ''}${sort ? `&sort=${sort}` : ''}`;
  const list = useLoad<Page<Good>>(`/goods?page=${page}&pageSize=30${filters}`);
  const [selected, setSelected] = useState<string | null>(queryId());
  return (
    <div className="grid2">
      <div className="card">
        <div className="row" style={{ justifyContent: 'space-between' }}>
          <KeywordSearch keyword={keyword} setKeyword={setKeyword} onSearch={() => { setPage(1); setQ(keyword); }} />
          <button className={selected === 'new' ? '' : 'secondary'} data-testid="new-good-open" onClick={() => setSelected('new')}>新建自定义商品</button>
        </div>
        <GoodsListControls tagIds={tagIds} sort={sort} onChange={(t, s2) => { setPage(1); setTagIds(t); setSort(s2); }} />
        <ErrorLine error={list.error} />
        <div className="scroll">
          <table>
            <thead><tr><th>商品</th><th>优先级</th><th>系列成员</th></tr></thead>
            <tbody>
              {list.data?.items.length === 0 && <tr><td colSpan={3} className="muted">没有商品</td></tr>}
              {list.data?.items.map((g) => (
                <tr key={g.id} data-testid="good-row" className={g.id === selected ? 'selected' : ''} onClick={() => setSelected(g.id)} style={{ cursor: 'pointer' }}>
                  <td>{g.name}{!g.originGoodId && <span className="badge amber">自定义</span>}<div className="muted">#{g.id}</div></td>
                  <td>{g.goodPriority}</td>
                  <td>{g.originGood?.family?.memberCount ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {list.data && <Pager page={page} setPage={setPage} list={list.data} />}
      </div>
      {selected === 'new' ? (
        <NewGood onCreated={(id) => { list.reload(); setSelected(id); }} onCancel={() => setSelected(null)} />
      ) : selected ? (
        <GoodEditor key={selected} id={selected} onSaved={list.reload} onDeleted={() => { setSelected(null); list.reload(); }} />
      ) : (
        <div className="card muted">选择一个商品进行编辑，或新建自定义商品</div>
      )}
    </div>
  );
}

/** The image of a good: a preview, an address field and an upload that shows the uploaded file at once. */
function ImageField({ image, onChange }: { image: string | null; onChange: (url: string | null) => void }) {
  const up = useAction();
  const file = useRef<HTMLInputElement>(null);
  return (
    <div className="row" style={{ alignItems: 'flex-start', flexWrap: 'nowrap' }}>
      {image ? <img className="thumb" data-testid="good-image" src={image} alt="" style={{ width: 96, height: 96 }} /> : <div className="thumb" style={{ width: 96, height: 96 }} />}
      <div style={{ flex: 1, display: 'flex', flexDirection: 'column', gap: 8 }}>
        <label>图片地址<input name="image" value={image ?? ''} onChange={(e) => onChange(e.target.value || null)} /></label>
        <label>上传图片（png、jpg、webp、gif）
          <input ref={file} type="file" data-testid="good-upload" accept="image/png,image/jpeg,image/webp,image/gif" disabled={up.busy} onChange={(e) => {
            const f = e.target.files?.[0];
            if (!f) return;
            void up.run(async () => {
              try {
                const r = await api.upload('/upload', f);
                onChange(r.url);
              } finally {
                if (file.current) file.current.value = '';
              }
            }, '已上传，保存后生效');
          }} />
        </label>
        <div data-testid="upload-status"><Status a={up} /></div>
      </div>
    </div>
  );
}

function NewGood({ onCreated, onCancel }: { onCreated: (id: string) => void; onCancel: () => void }) {
  const [form, setForm] = useState({
    name: '', goodPriority: '0', image: null as string | null, description: '', tagIds: [] as string[],
    categoryId: null as string | null, countryId: null as string | null, tagFontColor: null as string | null,
  });
  const a = useAction();
  const create = () => a.run(async () => {
    const g = await api.request<Good>('POST', '/goods', {
      name: form.name.trim(),
      goodPriority: Number(form.goodPriority) || 0,
      image: form.image,
      description: form.description || null,
      tagIds: form.tagIds,
      categoryId: form.categoryId,
      countryId: form.countryId,
      tagFontColor: form.tagFontColor,
    });
    rememberName('goods', g.id, g.name);
    onCreated(g.id);
  });
  return (
    <div className="card" data-testid="new-good">
      <h2>新建自定义商品</h2>
      <p className="muted">自定义商品没有来源链接，可作为商品系列的自定义成员。</p>
      <div style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
        <label>名称<input name="name" value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} /></label>
        <label>优先级（越大越靠前）<input name="goodPriority" type="number" value={form.goodPriority} onChange={(e) => setForm({ ...form, goodPriority: e.target.value })} /></label>
        <ImageField image={form.image} onChange={(image) => setForm((f) => ({ ...f, image }))} />
        <label>描述<textarea rows={2} value={form.description} onChange={(e) => setForm({ ...form, description: e.target.value })} /></label>
      </div>
      <h2>标签</h2>
      <TagPicker value={form.tagIds} onChange={(tagIds) => setForm({ ...form, tagIds })} />
      <h2>国家、类目与标签颜色</h2>
      <PlacementFields value={{ categoryId: form.categoryId, countryId: form.countryId, tagFontColor: form.tagFontColor }} tagIds={form.tagIds} onChange={(p) => setForm((f) => ({ ...f, ...p }))} />
      <div className="row" style={{ marginTop: 12 }}>
        <button disabled={a.busy || !form.name.trim() || (form.tagFontColor !== null && !HEX.test(form.tagFontColor))} onClick={create}>创建</button>
        <button className="secondary" onClick={onCancel}>取消</button>
        <Status a={a} />
      </div>
    </div>
  );
}

interface LinkHit { id: string; name: string; delisted: boolean }

function GoodEditor({ id, onSaved, onDeleted }: { id: string; onSaved: () => void; onDeleted: () => void }) {
  const g = useLoad<Good>(`/goods/${id}`);
  const [form, setForm] = useState<Good | null>(null);
  const [originId, setOriginId] = useState('');
  const a = useAction();
  const o = useAction();
  // The form starts as the loaded good. Later answers (a save, a merged link) bring only the links
  // into it: the other fields may hold edits not saved yet.
  useEffect(() => {
    const d = g.data;
    if (d) setForm((f) => (f ? { ...f, secondaryOriginGoodIds: d.secondaryOriginGoodIds } : d));
  }, [g.data]);
  const secondary = g.data?.secondaryOriginGoodIds ?? [];
  const names = useNames('origin-goods', secondary);
  if (g.error) return <div className="card"><ErrorLine error={g.error} /></div>;
  if (!form || !g.data) return <div className="card muted">加载中…</div>;
  const saved = g.data;
  const save = () =>
    a.run(async () => {
      const r = await api.request<Good>('PATCH', `/goods/${id}`, {
        name: form.name, description: form.description, image: form.image, goodPriority: Number(form.goodPriority) || 0, tagIds: form.tagIds,
        categoryId: form.categoryId, countryId: form.countryId, tagFontColor: form.tagFontColor,
      });
      if (r && typeof r === 'object' && 'id' in r) {
        // Saved: the form shows the good as the server keeps it (names normalised).
        g.setData(r);
        setForm(r);
        rememberName('goods', r.id, r.name);
      }
      onSaved();
    }, '已保存');
  // PUT /goods/:id/origins takes the full list of secondary links and answers the good as saved.
  const setOrigins = (ids: string[], ok: string) =>
    o.run(async () => g.setData(await api.request<Good>('PUT', `/goods/${id}/origins`, { secondaryOriginGoodIds: ids })), ok);
  const unsaved = form.image !== saved.image;
  return (
    <div className="card" data-testid="good-editor">
      <h2>编辑商品 #{id} {!saved.originGoodId && <span className="badge amber">自定义</span>}</h2>
      <div style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
        <label>名称<input name="name" value={form.name} onChange={(e) => { const name = e.target.value; setForm((f) => f && { ...f, name }); }} /></label>
        <label>优先级（越大越靠前）<input name="goodPriority" type="number" value={form.goodPriority} onChange={(e) => { const v = e.target.value; setForm((f) => f && { ...f, goodPriority: v as unknown as number }); }} /></label>
        <ImageField image={form.image} onChange={(image) => setForm((f) => f && { ...f, image })} />
        {unsaved && <span className="muted">图片已更改，尚未保存</span>}
      </div>
      <label style={{ marginTop: 8 }}>描述<textarea rows={3} value={form.description ?? ''} onChange={(e) => { const description = e.target.value || null; setForm((f) => f && { ...f, description }); }} /></label>
      <h2>标签</h2>
      <TagPicker value={form.tagIds} onChange={(tagIds) => setForm((f) => f && { ...f, tagIds })} />
      <h2>国家、类目与标签颜色</h2>
      <PlacementFields value={{ categoryId: form.categoryId, countryId: form.countryId, tagFontColor: form.tagFontColor }} tagIds={form.tagIds} onChange={(p) => setForm((f) => f && { ...f, ...p })} />
      <div className="row" style={{ marginTop: 12 }}>
        <button disabled={a.busy || (form.tagFontColor !== null && !HEX.test(form.tagFontColor))} onClick={save} data-testid="good-save">保存</button>
        <Status a={a} />
      </div>
      <h2>合并的链接</h2>
      <div data-testid="good-origins">
        <div className="muted">主链接：{saved.originGood ? <a href={`#/links?id=${saved.originGood.id}`}>{saved.originGood.name} (#{saved.originGood.id})</a> : '无（自定义商品）'}</div>
        <table style={{ margin: '8px 0' }}>
          <thead><tr><th>次要链接</th><th></th></tr></thead>
          <tbody>
            {secondary.length === 0 && <tr><td colSpan={2} className="muted">没有合并的次要链接</td></tr>}
            {secondary.map((lid) => (
              <tr key={lid} data-testid="secondary-origin">
                <td><a href={`#/links?id=${lid}`}>{names[lid] ?? '…'}</a> <span className="muted">#{lid}</span></td>
                <td style={{ width: 70 }}>
                  <button className="danger" disabled={o.busy} aria-label={`移除链接 ${lid}`} onClick={() => setOrigins(secondary.filter((x) => x !== lid), '已移除合并链接')}>移除</button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="row" style={{ alignItems: 'flex-start' }}>
          <div style={{ flex: 2, minWidth: 260 }}>
            <SearchPicker<LinkHit>
              testId="origin-search"
              placeholder="搜索链接名称"
              disabled={o.busy}
              exclude={[...secondary, ...(saved.originGoodId ? [saved.originGoodId] : [])]}
              search={async (k) => (await api.get<Page<LinkHit>>(`/origin-goods?pageSize=20${k ? `&keyword=${encodeURIComponent(k)}` : ''}`)).items}
              render={(l) => <>{l.name} <span className="muted">#{l.id}</span>{l.delisted && <span className="badge red">已下架</span>}</>}
              onPick={(l) => { rememberName('origin-goods', l.id, l.name); void setOrigins([...secondary, l.id], '已添加合并链接'); }}
            />
          </div>
          <form className="row" style={{ flex: 1, flexWrap: 'nowrap' }} onSubmit={(e) => {
            e.preventDefault();
            const lid = originId.trim();
            // Cleared only once added: after an error the id stays to be corrected.
            if (lid) void setOrigins([...secondary, lid], '已添加合并链接').then((ok) => ok && setOriginId(''));
          }}>
            <input placeholder="或输入链接 ID" value={originId} onChange={(e) => setOriginId(e.target.value)} style={{ width: 150 }} />
            <button type="submit" className="secondary" disabled={o.busy || !originId.trim()}>按 ID 添加</button>
          </form>
        </div>
        <Status a={o} />
      </div>
      <h2>删除</h2>
      <DeleteGood id={id} name={saved.name} onDeleted={onDeleted} />
    </div>
  );
}

interface Link {
  id: string; name: string; price: string; delisted: boolean; craftLabel: string | null;
  parsed: { country: string; logistics: string; productName: string; sku: string } | null;
  tags: { id: string; name: string; dimension: string }[]; tagsManual: boolean; tagsMissing?: string[] | null;
  family: { id: string; memberCount: number } | null;
  /** the good made from this link, if any */
  good: { id: string; name: string } | null;
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
              {list.data?.items.length === 0 && <tr><td colSpan={3} className="muted">没有链接</td></tr>}
              {list.data?.items.map((l) => (
                <tr key={l.id} data-testid="link-row" className={l.id === selected ? 'selected' : ''} onClick={() => setSelected(l.id)} style={{ cursor: 'pointer' }}>
                  <td>{l.name}{l.delisted && <span className="badge red">已下架</span>}<div className="muted">#{l.id}</div></td>
                  <td>¥{l.price}</td>
                  <td>{l.tagsManual ? <span className="badge amber">人工</span> : <span className="badge">自动</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {list.data && <Pager page={page} setPage={setPage} list={list.data} />}
      </div>
      {selected ? (
        <div>
          <LinkTags key={selected} id={selected} onSaved={list.reload} />
          <LinkDetail key={`detail-${selected}`} id={selected} />
        </div>
      ) : <div className="card muted">选择一个链接查看和接管标签</div>}
    </div>
  );
}

const dimLabel = (d: string) => DIM_LABEL[d as Dimension] ?? d;

/**
 * The good made from a link, or POST /goods {originGoodId} to make it. A link has at most one: when
 * another administrator made it meanwhile, the 409 GOOD.EXISTS_FOR_LINK names it, and the link is
 * read again so the box shows that good instead of offering to create one.
 */
function LinkGood({ linkId, good, onChanged }: { linkId: string; good: { id: string; name: string } | null; onChanged: () => void }) {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ kind: 'exists' | 'error'; goodId?: string; message?: string } | null>(null);
  const create = async () => {
    setBusy(true);
    setResult(null);
    try {
      await api.request<Good>('POST', '/goods', { originGoodId: linkId });
      onChanged();
    } catch (e) {
      const err = e as ApiError;
      const existing = (err.details as { goodId?: string } | undefined)?.goodId;
      if (err.code === 'GOOD.EXISTS_FOR_LINK') {
        setResult({ kind: 'exists', ...(existing ? { goodId: existing } : {}), message: err.message });
        onChanged();
      } else setResult({ kind: 'error', message: errorText(err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="row" data-testid="link-good">
      {good ? (
        <span>商品：<a href={`#/goods?id=${good.id}`}>{good.name}</a> <span className="muted">#{good.id}</span></span>
      ) : (
        <button className="secondary" disabled={busy} onClick={create}>为此链接创建商品</button>
      )}
      {result?.kind === 'exists' && (
        <span className="error" role="alert">
          该链接已有商品{result.goodId ? <> <a href={`#/goods?id=${result.goodId}`}>#{result.goodId}</a>，不能再创建</> : `（${result.message}）`}
        </span>
      )}
      {result?.kind === 'error' && <span className="error" role="alert">{result.message}</span>}
    </div>
  );
}

function LinkTags({ id, onSaved }: { id: string; onSaved: () => void }) {
  const l = useLoad<Link>(`/origin-goods/${id}`);
  const [tagIds, setTagIds] = useState<string[]>([]);
  const [filled, setFilled] = useState<{ name: string; dimension: string }[] | null>(null);
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
      <LinkGood linkId={id} good={d.good} onChanged={() => { l.reload(); onSaved(); }} />
      <p>标签来源：<span data-testid="tags-source">{d.tagsManual ? <span className="badge amber">人工接管</span> : <span className="badge">自动派生</span>}</span>
        {d.tagsMissing && d.tagsMissing.length > 0 && <span className="error"> 缺少维度：{d.tagsMissing.map(dimLabel).join('、')}</span>}</p>
      <TagPicker value={tagIds} onChange={setTagIds} />
      <p className="muted">保存即人工接管：留空的维度由链接名称自动补全。</p>
      <div className="row" style={{ marginTop: 12 }}>
        <button disabled={a.busy} onClick={() => a.run(async () => {
          const r = await api.request<{ filledDimensionTags: { name: string; dimension: string }[]; attachedFamilyId: string | null }>('PUT', `/origin-goods/${id}/tags`, { tagIds });
          setFilled(r.filledDimensionTags ?? []);
          l.reload(); onSaved();
        }, '已人工接管标签')}>保存（人工接管）</button>
        <button className="secondary" disabled={a.busy || !d.tagsManual} onClick={() => a.run(async () => {
          await api.request('POST', `/origin-goods/${id}/tags/restore-auto`);
          setFilled(null);
          l.reload(); onSaved();
        }, '已恢复自动标签')}>恢复自动</button>
        <Status a={a} />
      </div>
      {filled && (
        <div className="muted" data-testid="filled-tags">
          {filled.length ? <>自动补全的维度标签：{filled.map((f) => <span key={`${f.dimension}-${f.name}`} className="badge blue">{dimLabel(f.dimension)}：{f.name}</span>)}</> : '没有需要自动补全的维度'}
        </div>
      )}
    </div>
  );
}
