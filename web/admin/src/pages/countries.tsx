import { useState } from 'react';
import { api } from '../api';
import type { Page } from '../../../../src/contract/page';
import type { CountryView } from '../../../../src/contract/vocabulary';
import { ErrorLine, FieldError, Status } from '../common/components';
import { useAction, useLoad } from '../common/hooks';
import { confirmDelete } from '../common/impact';
import { useUnsavedEdits } from '../common/route';
import { loadPlaces } from '../common/vocab';

/** A code as the API takes it: two letters, stored upper-case (docs/domain.md, Countries). */
const CODE = /^[A-Za-z]{2}$/;

/** Administrators' countries: create, rename (name and code), delete. The order is on the sorting page. */
export function CountriesPage() {
  const list = useLoad<Page<CountryView>>('/countries?pageSize=1000');
  const [form, setForm] = useState({ name: '', code: '' });
  const [editing, setEditing] = useState<{ id: string; name: string; code: string } | null>(null);
  const a = useAction();
  const row = useAction();
  const changed = () => {
    list.reload();
    void loadPlaces(true);
  };
  const editedFrom = editing ? list.data?.items.find((c) => c.id === editing.id) : undefined;
  useUnsavedEdits(
    form.name.trim() !== '' || form.code.trim() !== '' || (!!editing && !!editedFrom && (editing.name !== editedFrom.name || editing.code.toUpperCase() !== editedFrom.code)),
  );
  const codeHint = form.code.trim() !== '' && !CODE.test(form.code.trim()) ? '代码须为两个英文字母，如 US' : a.fields.code;
  const remove = async (c: CountryView) => {
    if (!(await confirmDelete('countries', c.id, c.name, changed))) return;
    await row.run(async () => {
      await api.request('DELETE', `/countries/${c.id}`);
      changed();
    }, `已删除国家「${c.name}」`);
  };
  return (
    <>
      <form
        className="card row"
        data-testid="new-country"
        aria-label="新建国家"
        onSubmit={(e) => {
          e.preventDefault();
          void a.run(async () => {
            await api.request('POST', '/countries', { name: form.name, code: form.code.trim() });
            setForm({ name: '', code: '' });
            changed();
          }, '已创建国家');
        }}
      >
        <label className="inline">
          名称
          <input name="country-name" value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} aria-invalid={a.fields.name ? true : undefined} />
        </label>
        <label className="inline">
          代码
          <input
            name="country-code"
            placeholder="两个字母，如 US"
            value={form.code}
            maxLength={2}
            onChange={(e) => setForm({ ...form, code: e.target.value })}
            style={{ width: 130 }}
            aria-invalid={codeHint ? true : undefined}
            aria-describedby={codeHint ? 'new-country-code-err' : undefined}
          />
        </label>
        <button type="submit" disabled={a.busy || !form.name.trim() || !CODE.test(form.code.trim())}>
          创建国家
        </button>
        <FieldError id="new-country-code-err" message={codeHint} />
        <FieldError id="new-country-name-err" message={a.fields.name} />
        <Status a={a} />
      </form>
      <div className="card">
        <ErrorLine error={list.error} />
        <Status a={row} testId="countries-status" />
        <table data-testid="countries">
          <caption className="visually-hidden">国家</caption>
          <thead>
            <tr>
              <th scope="col">名称</th>
              <th scope="col">代码</th>
              <th scope="col">
                <span className="visually-hidden">操作</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.data?.items.length === 0 && (
              <tr>
                <td colSpan={3} className="muted">
                  还没有国家
                </td>
              </tr>
            )}
            {list.data?.items.map((c) =>
              editing?.id === c.id ? (
                <tr key={c.id} data-testid="country-row" data-id={c.id} className="selected">
                  <td>
                    <input
                      name="edit-country-name"
                      aria-label="国家名称"
                      value={editing.name}
                      onChange={(e) => setEditing({ ...editing, name: e.target.value })}
                      autoFocus
                      aria-invalid={row.fields.name ? true : undefined}
                    />
                    <FieldError id={`country-${c.id}-name-err`} message={row.fields.name} />
                  </td>
                  <td>
                    <input
                      name="edit-country-code"
                      aria-label="国家代码"
                      value={editing.code}
                      maxLength={2}
                      onChange={(e) => setEditing({ ...editing, code: e.target.value })}
                      style={{ width: 60 }}
                      aria-invalid={!CODE.test(editing.code.trim()) || row.fields.code ? true : undefined}
                    />
                    <FieldError id={`country-${c.id}-code-err`} message={!CODE.test(editing.code.trim()) ? '两个英文字母' : row.fields.code} />
                  </td>
                  <td style={{ width: 150 }}>
                    <div className="row" style={{ justifyContent: 'flex-end' }}>
                      <button
                        type="button"
                        disabled={row.busy || !editing.name.trim() || !CODE.test(editing.code.trim())}
                        onClick={() =>
                          row.run(async () => {
                            // Only what changed: an unchanged code is not checked against the others again.
                            const patch: Record<string, string> = {};
                            if (editing.name !== c.name) patch.name = editing.name;
                            if (editing.code.trim().toUpperCase() !== c.code) patch.code = editing.code.trim();
                            if (Object.keys(patch).length) await api.request('PATCH', `/countries/${c.id}`, patch);
                            setEditing(null);
                            changed();
                          }, '已保存国家')
                        }
                      >
                        保存
                      </button>
                      <button
                        type="button"
                        className="secondary"
                        onClick={() => {
                          setEditing(null);
                          row.clear();
                        }}
                      >
                        取消
                      </button>
                    </div>
                  </td>
                </tr>
              ) : (
                <tr key={c.id} data-testid="country-row" data-id={c.id}>
                  <td data-testid="country-name">{c.name}</td>
                  <td>{c.code}</td>
                  <td style={{ width: 150 }}>
                    <div className="row" style={{ justifyContent: 'flex-end' }}>
                      <button
                        type="button"
                        className="secondary"
                        disabled={row.busy}
                        onClick={() => setEditing({ id: c.id, name: c.name, code: c.code })}
                        aria-label={`编辑国家 ${c.name}`}
                      >
                        编辑
                      </button>
                      <button type="button" className="danger" disabled={row.busy} onClick={() => void remove(c)} aria-label={`删除国家 ${c.name}`}>
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
    </>
  );
}
