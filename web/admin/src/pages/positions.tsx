import { useState } from 'react';
import { api } from '../api';
import type { Good } from '../../../../src/contract/goods';
import type { Page } from '../../../../src/contract/page';
import type { PositionView } from '../../../../src/contract/vocabulary';
import { ErrorLine, SearchPicker, Status } from '../common/components';
import { confirmDialog } from '../common/dialog';
import { onEnter, useAction, useLoad } from '../common/hooks';
import { useUnsavedEdits } from '../common/route';
import { rememberName, useNames } from '../common/names';
import { move } from '../common/sort-list';

/** The goods of a position: search and add, reorder, remove. */
function GoodsPicker({ value, onChange }: { value: string[]; onChange: (ids: string[]) => void }) {
  const names = useNames('goods', value);
  return (
    <div data-testid="position-goods">
      <table className="sortable">
        <caption className="visually-hidden">展示位中的商品，按展示顺序</caption>
        <tbody>
          {value.length === 0 && (
            <tr>
              <td className="muted">还没有商品：在下面搜索并添加</td>
            </tr>
          )}
          {value.map((id, i) => (
            <tr key={id} data-testid="position-good" data-id={id}>
              <td style={{ width: 40 }} className="muted">
                {i + 1}
              </td>
              <td>{names[id] ?? '…'}</td>
              <td style={{ width: 170, whiteSpace: 'nowrap' }}>
                <button type="button" className="secondary" aria-label={`上移 ${names[id] ?? id}`} disabled={i === 0} onClick={() => onChange(move(value, i, -1))}>
                  ↑
                </button>{' '}
                <button type="button" className="secondary" aria-label={`下移 ${names[id] ?? id}`} disabled={i === value.length - 1} onClick={() => onChange(move(value, i, 1))}>
                  ↓
                </button>{' '}
                <button type="button" className="danger" aria-label={`移除 ${names[id] ?? id}`} onClick={() => onChange(value.filter((x) => x !== id))}>
                  移除
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <SearchPicker<Good>
        testId="position-good-search"
        label="搜索要展示的商品"
        placeholder="搜索商品名称"
        exclude={value}
        search={async (k) => (await api.get<Page<Good>>(`/goods?pageSize=30${k ? `&keyword=${encodeURIComponent(k)}` : ''}`)).items}
        render={(g) => (
          <>
            {g.name}
            {!g.familyId && (
              <span className="badge amber" title="首页只展示属于商品系列的商品">
                不属于任何系列，首页不会显示
              </span>
            )}
          </>
        )}
        onPick={(g) => {
          rememberName('goods', g.id, g.name);
          onChange([...value, g.id]);
        }}
      />
    </div>
  );
}

const emptyDraft = () => ({ name: '', sortOrder: '0', goodIds: [] as string[] }) as { id?: string; name: string; sortOrder: string; goodIds: string[] };

export function PositionsPage() {
  const p = useLoad<Page<PositionView>>('/positions?pageSize=1000');
  const a = useAction();
  const del = useAction();
  const [draft, setDraft] = useState(emptyDraft);
  const original = draft.id ? p.data?.items.find((x) => x.id === draft.id) : undefined;
  useUnsavedEdits(
    draft.id
      ? !!original && (original.name !== draft.name || String(original.sortOrder) !== draft.sortOrder || original.goodIds.join(',') !== draft.goodIds.join(','))
      : draft.name.trim() !== '' || draft.goodIds.length > 0,
  );
  const remove = async (x: PositionView) => {
    const yes = await confirmDialog({
      title: `删除展示位「${x.name}」？`,
      body: <p data-testid="impact-lines">首页将不再显示这个展示位；其中的 {x.goodIds.length} 个商品不会被删除。</p>,
      confirm: '确认删除',
      danger: true,
    });
    if (yes)
      await del.run(async () => {
        await api.request('DELETE', `/positions/${x.id}`);
        if (draft.id === x.id) setDraft(emptyDraft());
        p.reload();
      }, '已删除');
  };
  const save = () =>
    draft.name.trim() &&
    !a.busy &&
    a.run(async () => {
      const body = { name: draft.name, sortOrder: Number(draft.sortOrder) || 0, goodIds: draft.goodIds };
      if (draft.id) await api.request('PATCH', `/positions/${draft.id}`, body);
      else await api.request('POST', '/positions', body);
      setDraft(emptyDraft());
      p.reload();
    }, '已保存');
  return (
    <>
      <div className="card" data-testid="position-editor">
        <h2>{draft.id ? `编辑展示位「${original?.name ?? ''}」` : '新建展示位'}</h2>
        <div className="row">
          <label style={{ flexDirection: 'row', alignItems: 'center' }}>
            名称
            <input name="position-name" placeholder="名称" value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} onKeyDown={onEnter(save)} />
          </label>
          <label style={{ flexDirection: 'row', alignItems: 'center' }}>
            排序
            <input
              name="position-sort"
              placeholder="排序"
              type="number"
              value={draft.sortOrder}
              onChange={(e) => setDraft({ ...draft, sortOrder: e.target.value })}
              onKeyDown={onEnter(save)}
              style={{ width: 80 }}
            />
          </label>
        </div>
        <h3>商品（按顺序展示）</h3>
        <GoodsPicker value={draft.goodIds} onChange={(goodIds) => setDraft((d) => ({ ...d, goodIds }))} />
        <div className="row" style={{ marginTop: 12 }}>
          <button type="button" disabled={!draft.name.trim() || a.busy} onClick={save}>
            保存
          </button>
          {draft.id && (
            <button type="button" className="secondary" onClick={() => setDraft(emptyDraft())}>
              取消
            </button>
          )}
          <Status a={a} />
        </div>
      </div>
      <ErrorLine error={p.error} />
      <Status a={del} />
      <table data-testid="positions">
        <caption className="visually-hidden">首页展示位</caption>
        <thead>
          <tr>
            <th scope="col">名称</th>
            <th scope="col">排序</th>
            <th scope="col">商品</th>
            <th scope="col">
              <span className="visually-hidden">操作</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {p.data?.items.length === 0 && (
            <tr>
              <td colSpan={4} className="muted">
                还没有展示位
              </td>
            </tr>
          )}
          {p.data?.items.map((x) => (
            <tr key={x.id} data-testid="position-row" className={draft.id === x.id ? 'selected' : ''}>
              <td>{x.name}</td>
              <td>{x.sortOrder}</td>
              <td>{x.goodIds.length} 个</td>
              <td className="row">
                <button type="button" className="secondary" onClick={() => setDraft({ id: x.id, name: x.name, sortOrder: String(x.sortOrder), goodIds: x.goodIds })}>
                  编辑
                </button>
                <button type="button" className="danger" disabled={del.busy} onClick={() => void remove(x)}>
                  删除
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
