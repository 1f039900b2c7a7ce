import { useMemo, useRef, useState } from 'react';
import { api } from '../api';
import type { Page } from '../../../shared/responses/page';
import type { CategoryView } from '../../../shared/responses/vocabulary';
import { ErrorLine, RowActions, Status } from '../common/components';
import { useAction, useLoad } from '../common/hooks';
import { treeOrder } from '../common/order';

const LEVEL = ['', '顶级', '中类', '款式'];

/**
 * An icon: a preview, an address (empty is none) and an upload that puts the uploaded file's address
 * in the field. Saved with the category, not on upload.
 */
export function IconInput({ value, onChange, testId }: { value: string; onChange: (v: string) => void; testId: string }) {
  const up = useAction();
  const file = useRef<HTMLInputElement>(null);
  return (
    <div className="row" data-testid={testId}>
      {value ? <img className="thumb" src={value} alt="" data-testid={`${testId}-preview`} /> : <div className="thumb" style={{ width: 48, height: 48 }} />}
      <label style={{ flex: 1, minWidth: 220 }}>图标地址（留空为无图标，继承上级）<input name="icon" value={value} onChange={(e) => onChange(e.target.value)} /></label>
      <label>上传图标
        <input ref={file} type="file" data-testid={`${testId}-upload`} accept="image/png,image/jpeg,image/webp,image/gif" disabled={up.busy} onChange={(e) => {
          const f = e.target.files?.[0];
          if (!f) return;
          void up.run(async () => {
            try {
              onChange((await api.upload('/upload', f)).url);
            } finally {
              if (file.current) file.current.value = '';
            }
          }, '已上传，保存后生效');
        }} />
      </label>
      <Status a={up} />
    </div>
  );
}

/** Administrators' categories: create (under any parent), rename, set or clear the icon, delete. The order is on the sorting page. */
export function CategoriesPage() {
  const list = useLoad<Page<CategoryView>>('/categories?pageSize=1000');
  const rows = useMemo(() => treeOrder(list.data?.items ?? []), [list.data]);
  const [editing, setEditing] = useState<string | null>(null);
  const del = useAction();
  return (
    <>
      <NewCategory parents={rows} onCreated={list.reload} />
      <div className="card">
        <ErrorLine error={list.error} />
        <Status a={del} />
        {!list.data && !list.error && <div className="muted">加载中…</div>}
        <table data-testid="categories">
          <thead><tr><th>图标</th><th>类目</th><th>层级</th><th>来源</th><th></th></tr></thead>
          <tbody>
            {list.data?.items.length === 0 && <tr><td colSpan={5} className="muted">还没有类目</td></tr>}
            {rows.map(({ c, depth }) =>
              editing === c.id ? (
                <tr key={c.id} data-testid="category-row" data-id={c.id} className="selected">
                  <td colSpan={5}>
                    <CategoryEditor c={c} onDone={(changed) => { setEditing(null); if (changed) list.reload(); }} />
                  </td>
                </tr>
              ) : (
                <tr key={c.id} data-testid="category-row" data-id={c.id}>
                  <td style={{ width: 60 }}>
                    {c.effectiveIcon ? <img className="thumb" src={c.effectiveIcon} alt="" title={c.icon ? '自有图标' : '继承上级的图标'} style={{ opacity: c.icon ? 1 : 0.5 }} /> : <span className="muted">—</span>}
                  </td>
                  <td style={{ paddingLeft: 8 + depth * 24 }}><span data-testid="category-name">{c.name}</span> <span className="muted">#{c.id}</span></td>
                  <td>{LEVEL[c.level] ?? c.level}</td>
                  <td>{c.source === 'supplier' ? <span className="badge">供应商</span> : <span className="badge blue">后台</span>}</td>
                  <RowActions busy={del.busy} onEdit={() => setEditing(c.id)} confirmText={`删除类目「${c.name}」？`} onDelete={() => del.run(async () => {
                    await api.request('DELETE', `/categories/${c.id}`);
                    list.reload();
                  }, `已删除类目 ${c.name}`)} />
                </tr>
              ),
            )}
          </tbody>
        </table>
      </div>
    </>
  );
}

function NewCategory({ parents, onCreated }: { parents: { c: CategoryView; depth: number }[]; onCreated: () => void }) {
  const [form, setForm] = useState({ name: '', parentId: '', icon: '' });
  // A new icon field after each creation, so the last upload's note goes with it.
  const [made, setMade] = useState(0);
  const a = useAction();
  return (
    <form className="card" data-testid="new-category" onSubmit={(e) => {
      e.preventDefault();
      void a.run(async () => {
        await api.request('POST', '/categories', { name: form.name, parentId: form.parentId || null, icon: form.icon || null });
        setForm({ name: '', parentId: form.parentId, icon: '' });
        setMade((n) => n + 1);
        onCreated();
      }, '已创建类目');
    }}>
      <h2 style={{ marginTop: 0 }}>新建类目</h2>
      <div className="row">
        <label>名称<input name="category-name" value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} /></label>
        <label>上级类目
          <select name="category-parent" value={form.parentId} onChange={(e) => setForm({ ...form, parentId: e.target.value })}>
            <option value="">（顶级）</option>
            {parents.filter(({ c }) => c.level < 3).map(({ c, depth }) => <option key={c.id} value={c.id}>{'　'.repeat(depth)}{c.name}</option>)}
          </select>
        </label>
      </div>
      <IconInput key={made} value={form.icon} onChange={(icon) => setForm((f) => ({ ...f, icon }))} testId="new-category-icon" />
      <div className="row" style={{ marginTop: 8 }}>
        <button type="submit" disabled={a.busy || !form.name.trim()}>创建类目</button>
        <Status a={a} />
      </div>
    </form>
  );
}

/** Rename and icon in one PATCH; only the fields that changed are sent. */
function CategoryEditor({ c, onDone }: { c: CategoryView; onDone: (changed: boolean) => void }) {
  const [name, setName] = useState(c.name);
  const [icon, setIcon] = useState(c.icon ?? '');
  const a = useAction();
  const patch: Record<string, string | null> = {};
  if (name !== c.name) patch.name = name;
  if (icon !== (c.icon ?? '')) patch.icon = icon || null;
  return (
    <form data-testid="category-editor" className="inset" onSubmit={(e) => {
      e.preventDefault();
      void a.run(async () => {
        await api.request('PATCH', `/categories/${c.id}`, patch);
        onDone(true);
      });
    }}>
      <div className="row">
        <span className="muted">编辑类目 #{c.id}</span>
        <label style={{ flexDirection: 'row', alignItems: 'center' }}>名称<input name="edit-category-name" value={name} onChange={(e) => setName(e.target.value)} autoFocus /></label>
      </div>
      <IconInput value={icon} onChange={setIcon} testId="category-icon" />
      <div className="row" style={{ marginTop: 8 }}>
        <button type="submit" disabled={a.busy || !name.trim() || Object.keys(patch).length === 0}>保存类目</button>
        <button type="button" className="secondary" onClick={() => onDone(false)}>取消</button>
        <Status a={a} />
      </div>
    </form>
  );
}
