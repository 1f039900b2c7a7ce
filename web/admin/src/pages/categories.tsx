import { useId, useMemo, useRef, useState } from 'react';
import { api } from '../api';
import type { Page } from '../../../../src/contract/page';
import type { CategoryView } from '../../../../src/contract/vocabulary';
import { ErrorLine, FieldError, Loading, Status } from '../common/components';
import { useAction, useLoad } from '../common/hooks';
import { confirmDelete } from '../common/impact';
import { treeOrder } from '../common/order';
import { useUnsavedEdits } from '../common/route';
import { loadPlaces } from '../common/vocab';

const LEVEL = ['', '大类', '中类', '款式'];

/**
 * An icon: a preview, an address (empty is none) and an upload that puts the uploaded file's address
 * in the field. Saved with the category, not on upload.
 */
export function IconInput({ value, onChange, testId, error }: { value: string; onChange: (v: string) => void; testId: string; error?: string | undefined }) {
  const up = useAction();
  const file = useRef<HTMLInputElement>(null);
  const id = useId();
  return (
    <div className="row" data-testid={testId}>
      {value ? <img className="thumb" src={value} alt="图标预览" data-testid={`${testId}-preview`} /> : <div className="thumb" style={{ width: 48, height: 48 }} />}
      <label style={{ flex: 1, minWidth: 200 }}>
        图标地址（留空为无图标，沿用上级的）
        <input name="icon" value={value} onChange={(e) => onChange(e.target.value)} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-err` : undefined} />
      </label>
      <label>
        上传图标
        <input
          ref={file}
          type="file"
          data-testid={`${testId}-upload`}
          accept="image/png,image/jpeg,image/webp,image/gif"
          disabled={up.busy}
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (!f) return;
            void up.run(async () => {
              try {
                onChange((await api.upload('/upload', f)).url);
              } finally {
                if (file.current) file.current.value = '';
              }
            }, '已上传，保存后生效');
          }}
        />
      </label>
      <Status a={up} />
      <FieldError id={`${id}-err`} message={error} />
    </div>
  );
}

/** Administrators' categories: create (under any parent), rename, set or clear the icon, delete. The order is on the sorting page. */
export function CategoriesPage() {
  const list = useLoad<Page<CategoryView>>('/categories?pageSize=1000');
  const rows = useMemo(() => treeOrder(list.data?.items ?? []), [list.data]);
  const [editing, setEditing] = useState<string | null>(null);
  const del = useAction();
  const changed = () => {
    list.reload();
    void loadPlaces(true);
  };
  const remove = async (c: CategoryView) => {
    if (!(await confirmDelete('categories', c.id, c.name, changed))) return;
    await del.run(async () => {
      await api.request('DELETE', `/categories/${c.id}`);
      changed();
    }, `已删除类目「${c.name}」`);
  };
  return (
    <>
      <NewCategory parents={rows} onCreated={changed} />
      <div className="card">
        <ErrorLine error={list.error} />
        <Status a={del} testId="categories-status" />
        {!list.data && !list.error && <Loading />}
        <div className="scroll" tabIndex={0} role="region" aria-label="类目">
          <table data-testid="categories">
            <caption className="visually-hidden">类目</caption>
            <thead>
              <tr>
                <th scope="col">图标</th>
                <th scope="col">类目</th>
                <th scope="col">层级</th>
                <th scope="col">来源</th>
                <th scope="col">
                  <span className="visually-hidden">操作</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data?.items.length === 0 && (
                <tr>
                  <td colSpan={5} className="muted">
                    还没有类目
                  </td>
                </tr>
              )}
              {rows.map(({ c, depth }) =>
                editing === c.id ? (
                  <tr key={c.id} data-testid="category-row" data-id={c.id} className="selected">
                    <td colSpan={5}>
                      <CategoryEditor
                        c={c}
                        parents={rows}
                        onDone={(saved) => {
                          setEditing(null);
                          if (saved) changed();
                        }}
                      />
                    </td>
                  </tr>
                ) : (
                  <tr key={c.id} data-testid="category-row" data-id={c.id}>
                    <td style={{ width: 60 }}>
                      {c.effectiveIcon ? (
                        <img className="thumb" src={c.effectiveIcon} alt={c.icon ? `${c.name}的图标` : `${c.name}沿用上级的图标`} style={{ opacity: c.icon ? 1 : 0.5 }} />
                      ) : (
                        <span className="muted">—</span>
                      )}
                    </td>
                    <td style={{ paddingLeft: 8 + depth * 24 }}>
                      <span data-testid="category-name">{c.name}</span>
                    </td>
                    <td>{LEVEL[c.level] ?? ''}</td>
                    <td>{c.source === 'supplier' ? <span className="badge">供应商</span> : <span className="badge blue">后台创建</span>}</td>
                    <td style={{ width: 150 }}>
                      <div className="row" style={{ justifyContent: 'flex-end' }}>
                        <button type="button" className="secondary" disabled={del.busy} onClick={() => setEditing(c.id)} aria-label={`编辑类目 ${c.name}`}>
                          编辑
                        </button>
                        <button type="button" className="danger" disabled={del.busy} onClick={() => void remove(c)} aria-label={`删除类目 ${c.name}`}>
                          删除
                        </button>
                      </div>
                    </td>
                  </tr>
                ),
              )}
            </tbody>
          </table>
        </div>
      </div>
    </>
  );
}

function NewCategory({ parents, onCreated }: { parents: { c: CategoryView; depth: number }[]; onCreated: () => void }) {
  const [form, setForm] = useState({ name: '', parentId: '', icon: '' });
  // A new icon field after each creation, so the last upload's note goes with it.
  const [made, setMade] = useState(0);
  const a = useAction();
  useUnsavedEdits(form.name.trim() !== '' || form.icon !== '');
  return (
    <form
      className="card"
      data-testid="new-category"
      onSubmit={(e) => {
        e.preventDefault();
        void a.run(async () => {
          await api.request('POST', '/categories', { name: form.name, parentId: form.parentId || null, icon: form.icon || null });
          setForm({ name: '', parentId: form.parentId, icon: '' });
          setMade((n) => n + 1);
          onCreated();
        }, '已创建类目');
      }}
    >
      <h2 style={{ marginTop: 0 }}>新建类目</h2>
      <div className="row">
        <label>
          名称
          <input name="category-name" value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} aria-invalid={a.fields.name ? true : undefined} />
        </label>
        <label>
          上级类目
          <select name="category-parent" value={form.parentId} onChange={(e) => setForm({ ...form, parentId: e.target.value })}>
            <option value="">（作为大类）</option>
            {parents
              .filter(({ c }) => c.level < 3)
              .map(({ c, depth }) => (
                <option key={c.id} value={c.id}>
                  {'　'.repeat(depth)}
                  {c.name}
                </option>
              ))}
          </select>
        </label>
      </div>
      <FieldError id="new-category-name-err" message={a.fields.name} />
      <IconInput key={made} value={form.icon} onChange={(icon) => setForm((f) => ({ ...f, icon }))} testId="new-category-icon" error={a.fields.icon} />
      <div className="row" style={{ marginTop: 8 }}>
        <button type="submit" disabled={a.busy || !form.name.trim()}>
          创建类目
        </button>
        <Status a={a} />
      </div>
    </form>
  );
}

/** Rename, icon and move to another parent in one PATCH; only the fields that changed are sent. */
function CategoryEditor({ c, parents, onDone }: { c: CategoryView; parents: { c: CategoryView; depth: number }[]; onDone: (changed: boolean) => void }) {
  const [name, setName] = useState(c.name);
  const [icon, setIcon] = useState(c.icon ?? '');
  const [parentId, setParentId] = useState(c.parentId ?? '');
  const a = useAction();
  const patch: Record<string, string | null> = {};
  if (name !== c.name) patch.name = name;
  if (icon !== (c.icon ?? '')) patch.icon = icon || null;
  if (parentId !== (c.parentId ?? '')) patch.parentId = parentId || null;
  useUnsavedEdits(Object.keys(patch).length > 0);
  return (
    <form
      data-testid="category-editor"
      className="inset"
      onSubmit={(e) => {
        e.preventDefault();
        void a.run(async () => {
          await api.request('PATCH', `/categories/${c.id}`, patch);
          onDone(true);
        });
      }}
    >
      <div className="row">
        <span className="muted">编辑类目「{c.name}」</span>
        <label style={{ flexDirection: 'row', alignItems: 'center' }}>
          名称
          <input name="edit-category-name" value={name} onChange={(e) => setName(e.target.value)} autoFocus aria-invalid={a.fields.name ? true : undefined} />
        </label>
        <FieldError id={`cat-${c.id}-name-err`} message={a.fields.name} />
        <label style={{ flexDirection: 'row', alignItems: 'center' }}>
          上级类目
          <select name="edit-category-parent" value={parentId} onChange={(e) => setParentId(e.target.value)}>
            <option value="">（作为大类）</option>
            {parents
              .filter((p) => p.c.level < 3 && p.c.id !== c.id)
              .map((p) => (
                <option key={p.c.id} value={p.c.id}>
                  {'　'.repeat(p.depth)}
                  {p.c.name}
                </option>
              ))}
          </select>
        </label>
      </div>
      <IconInput value={icon} onChange={setIcon} testId="category-icon" error={a.fields.icon} />
      <div className="row" style={{ marginTop: 8 }}>
        <button type="submit" disabled={a.busy || !name.trim() || Object.keys(patch).length === 0}>
          保存类目
        </button>
        <button type="button" className="secondary" onClick={() => onDone(false)}>
          取消
        </button>
        <Status a={a} />
      </div>
    </form>
  );
}
