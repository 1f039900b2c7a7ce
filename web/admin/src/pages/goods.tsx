import { useEffect, useRef, useState } from 'react';
import { api } from '../api';
import type { Good } from '../../../shared/responses/goods';
import type { Link } from '../../../shared/responses/links';
import type { Page } from '../../../shared/responses/page';
import { ErrorLine, KeywordSearch, Pager, SearchPicker, Status } from '../common/components';
import { useAction, useLoad } from '../common/hooks';
import { queryId } from '../common/location';
import { rememberName, useNames } from '../common/names';
import { TagPicker } from '../common/tags';
import { DeleteGood, GoodsListControls, HEX, PlacementFields } from './good-fields';

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
            <SearchPicker<Link>
              testId="origin-search"
              placeholder="搜索链接名称"
              disabled={o.busy}
              exclude={[...secondary, ...(saved.originGoodId ? [saved.originGoodId] : [])]}
              search={async (k) => (await api.get<Page<Link>>(`/origin-goods?pageSize=20${k ? `&keyword=${encodeURIComponent(k)}` : ''}`)).items}
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
