import { useState } from 'react';
import { api } from '../api';
import type { Page } from '../../../shared/responses/page';
import type { CountryView } from '../../../shared/responses/vocabulary';
import { ErrorLine, RowActions, Status } from '../common/components';
import { useAction, useLoad } from '../common/hooks';

/** A code as the API takes it: two letters, stored upper-case (docs/domain.md, Countries). */
const CODE = /^[A-Za-z]{2}$/;

/** Administrators' countries: create, rename (name and code), delete. The order is on the sorting page. */
export function CountriesPage() {
  const list = useLoad<Page<CountryView>>('/countries?pageSize=1000');
  const [form, setForm] = useState({ name: '', code: '' });
  const [editing, setEditing] = useState<{ id: string; name: string; code: string } | null>(null);
  const a = useAction();
  const row = useAction();
  return (
    <>
      <form className="card row" data-testid="new-country" onSubmit={(e) => {
        e.preventDefault();
        void a.run(async () => {
          await api.request('POST', '/countries', { name: form.name, code: form.code.trim() });
          setForm({ name: '', code: '' });
          list.reload();
        }, '已创建国家');
      }}>
        <label style={{ flexDirection: 'row', alignItems: 'center' }}>名称<input name="country-name" value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} /></label>
        <label style={{ flexDirection: 'row', alignItems: 'center' }}>代码<input name="country-code" placeholder="两个字母，如 US" value={form.code} maxLength={2} onChange={(e) => setForm({ ...form, code: e.target.value })} style={{ width: 130 }} /></label>
        <button type="submit" disabled={a.busy || !form.name.trim() || !CODE.test(form.code.trim())}>创建国家</button>
        <Status a={a} />
      </form>
      <div className="card">
        <ErrorLine error={list.error} />
        <Status a={row} />
        <table data-testid="countries">
          <thead><tr><th>名称</th><th>代码</th><th></th></tr></thead>
          <tbody>
            {list.data?.items.length === 0 && <tr><td colSpan={3} className="muted">还没有国家</td></tr>}
            {list.data?.items.map((c) =>
              editing?.id === c.id ? (
                <tr key={c.id} data-testid="country-row" data-id={c.id} className="selected">
                  <td><input name="edit-country-name" value={editing.name} onChange={(e) => setEditing({ ...editing, name: e.target.value })} autoFocus /></td>
                  <td><input name="edit-country-code" value={editing.code} maxLength={2} onChange={(e) => setEditing({ ...editing, code: e.target.value })} style={{ width: 60 }} /></td>
                  <td style={{ width: 150 }}><div className="row" style={{ justifyContent: 'flex-end' }}>
                    <button disabled={row.busy || !editing.name.trim() || !CODE.test(editing.code.trim())} onClick={() => row.run(async () => {
                      // Only what changed: an unchanged code is not checked against the others again.
                      const patch: Record<string, string> = {};
                      if (editing.name !== c.name) patch.name = editing.name;
                      if (editing.code.trim().toUpperCase() !== c.code) patch.code = editing.code.trim();
                      if (Object.keys(patch).length) await api.request('PATCH', `/countries/${c.id}`, patch);
                      setEditing(null);
                      list.reload();
                    }, '已保存国家')}>保存</button>
                    <button className="secondary" onClick={() => setEditing(null)}>取消</button>
                  </div></td>
                </tr>
              ) : (
                <tr key={c.id} data-testid="country-row" data-id={c.id}>
                  <td data-testid="country-name">{c.name} <span className="muted">#{c.id}</span></td>
                  <td>{c.code}</td>
                  <RowActions busy={row.busy} onEdit={() => setEditing({ id: c.id, name: c.name, code: c.code })} confirmText={`删除国家「${c.name}」？`} onDelete={() => row.run(async () => {
                    await api.request('DELETE', `/countries/${c.id}`);
                    list.reload();
                  }, `已删除国家 ${c.name}`)} />
                </tr>
              ),
            )}
          </tbody>
        </table>
      </div>
    </>
  );
}
