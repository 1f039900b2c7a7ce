import type React from 'react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { api, type Page } from '../api';
import { ErrorLine, SearchPicker, Status, bySortOrder, rememberName, useAction, useLoad, useNames } from './common';
import { DIMENSIONS, DIM_LABEL, loadTagVocabulary, type Tag, type TagGroup } from './tags';
import { treeOrder } from './categories';

function move<T>(xs: T[], i: number, d: -1 | 1): T[] {
  const j = i + d;
  if (j < 0 || j >= xs.length) return xs;
  const out = [...xs];
  [out[i], out[j]] = [out[j]!, out[i]!];
  return out;
}

/** `xs` with the item at `from` taken out and put at `to` (an index of the result). */
function moveTo<T>(xs: T[], from: number, to: number): T[] {
  const out = [...xs];
  const [x] = out.splice(from, 1);
  out.splice(to, 0, x!);
  return out;
}

/**
 * A list reordered with the ↑/↓ buttons or by dragging a row by its handle (HTML5 drag and drop);
 * either way `onOrder` receives the full new order, once per move.
 */
function SortList<T extends { id: string; name: string }>({ items, onOrder, busy, testId, extra }: { items: T[]; onOrder: (next: T[], moved: [number, number]) => void; busy: boolean; testId: string; extra?: (x: T) => React.ReactNode }) {
  const [dragging, setDragging] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  // A row drags only when the drag began on its handle: the rest of the row stays selectable text.
  const fromHandle = useRef(false);
  // Released anywhere (also off the handle, with no drag begun): the next drag must start on a handle again.
  useEffect(() => {
    const release = () => (fromHandle.current = false);
    document.addEventListener('pointerup', release);
    document.addEventListener('mouseup', release);
    return () => {
      document.removeEventListener('pointerup', release);
      document.removeEventListener('mouseup', release);
    };
  }, []);
  const end = () => { setDragging(null); setOver(null); fromHandle.current = false; };
  const drop = (to: number) => {
    const from = dragging;
    end();
    if (from === null || from === to || busy) return;
    onOrder(moveTo(items, from, to), [from, to]);
  };
  if (items.length === 0) return <p className="muted" data-testid={testId}>没有可排序的项目</p>;
  return (
    <table data-testid={testId} className="sortable">
      <tbody>
        {items.map((x, i) => (
          <tr
            key={x.id}
            data-id={x.id}
            draggable={!busy}
            className={[dragging === i ? 'dragging' : '', over === i && dragging !== null && dragging !== i ? (dragging < i ? 'drop-below' : 'drop-above') : ''].join(' ').trim() || undefined}
            onDragStart={(e) => {
              if (!fromHandle.current) { e.preventDefault(); return; }
              e.dataTransfer.effectAllowed = 'move';
              e.dataTransfer.setData('text/plain', x.id);
              setDragging(i);
            }}
            onDragOver={(e) => { if (dragging === null) return; e.preventDefault(); e.dataTransfer.dropEffect = 'move'; if (over !== i) setOver(i); }}
            onDrop={(e) => { e.preventDefault(); drop(i); }}
            onDragEnd={end}
          >
            <td style={{ width: 64, whiteSpace: 'nowrap' }} className="muted">
              <span className="handle" data-testid="drag-handle" title="拖动以排序" onMouseDown={() => (fromHandle.current = true)}>⠿</span> {i + 1}
            </td>
            <td>{x.name} {extra?.(x)}</td>
            <td style={{ width: 110, whiteSpace: 'nowrap' }}>
              <button className="secondary" aria-label={`上移 ${x.name}`} disabled={busy || i === 0} onClick={() => onOrder(move(items, i, -1), [i, i - 1])}>↑</button>{' '}
              <button className="secondary" aria-label={`下移 ${x.name}`} disabled={busy || i === items.length - 1} onClick={() => onOrder(move(items, i, 1), [i, i + 1])}>↓</button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

interface Country { id: string; name: string; code: string; sortOrder: number }
interface Category { id: string; parentId: string | null; name: string; sortOrder: number }

export function SortingPage() {
  const [tab, setTab] = useState<'countries' | 'categories' | 'tags'>('countries');
  return (
    <>
      <div className="row" style={{ marginBottom: 12 }}>
        <button className={tab === 'countries' ? '' : 'secondary'} onClick={() => setTab('countries')}>国家</button>
        <button className={tab === 'categories' ? '' : 'secondary'} onClick={() => setTab('categories')}>类目</button>
        <button className={tab === 'tags' ? '' : 'secondary'} onClick={() => setTab('tags')}>标签</button>
      </div>
      {tab === 'countries' && <CountrySort />}
      {tab === 'categories' && <CategorySort />}
      {tab === 'tags' && <TagSort />}
    </>
  );
}

function CountrySort() {
  const c = useLoad<Page<Country>>('/countries?pageSize=1000');
  const a = useAction();
  return (
    <div className="card">
      <ErrorLine error={c.error} />
      <Status a={a} />
      {c.data && (
        <SortList testId="sort-countries" items={c.data.items} busy={a.busy} extra={(x) => <span className="muted">{x.code}</span>}
          onOrder={(next) => a.run(async () => {
            c.setData({ ...c.data!, items: next });
            await api.request('PATCH', '/countries/sort', { ids: next.map((x) => x.id) });
          }, '顺序已保存').then(c.reload)} />
      )}
    </div>
  );
}

/**
 * One parent's children in order: the parents to choose from come from the whole tree (read once),
 * the children from `GET /categories?parentId=`.
 */
function CategorySort() {
  const tree = useLoad<Page<Category>>('/categories?pageSize=1000');
  const [parent, setParent] = useState<string>('');
  // Parents (categories with children) in tree order, indented by depth.
  const parents = useMemo(() => {
    const items = tree.data?.items ?? [];
    const withChildren = new Set(items.map((x) => x.parentId).filter((id): id is string => !!id));
    return treeOrder(items).filter(({ c }) => withChildren.has(c.id));
  }, [tree.data]);
  // A saved order: the parents list follows it too.
  const onSaved = (ids: string[]) => {
    const at = new Map(ids.map((id, k) => [id, k]));
    tree.setData((t) => t && { ...t, items: t.items.map((x) => (at.has(x.id) ? { ...x, sortOrder: at.get(x.id)! } : x)) });
  };
  return (
    <div className="card">
      <div className="row">
        <label style={{ flexDirection: 'row', alignItems: 'center' }}>上级类目
          <select data-testid="sort-category-parent" value={parent} onChange={(e) => setParent(e.target.value)}>
            <option value="">（顶级）</option>
            {parents.map(({ c: p, depth }) => <option key={p.id} value={p.id}>{'　'.repeat(depth)}{p.name}</option>)}
          </select>
        </label>
        <span className="muted">拖动 ⠿ 或用 ↑/↓ 调整顺序，每次调整即保存。</span>
      </div>
      <ErrorLine error={tree.error} />
      <CategoryChildren key={parent} parentId={parent || null} onSaved={onSaved} />
    </div>
  );
}

/** A move sends the full new order of the children and shows the order the answer says was saved. */
function CategoryChildren({ parentId, onSaved }: { parentId: string | null; onSaved: (ids: string[]) => void }) {
  const c = useLoad<Page<Category>>(`/categories?parentId=${parentId ?? 'root'}&pageSize=1000`);
  const a = useAction();
  if (c.error) return <ErrorLine error={c.error} />;
  if (!c.data) return <p className="muted">加载中…</p>;
  const shown = c.data;
  const onOrder = (next: Category[]) =>
    void a.run(async () => {
      c.setData({ ...shown, items: next });
      try {
        const saved = await api.request<{ parentId: string | null; ids: string[] }>('PATCH', '/categories/sort', { parentId, ids: next.map((x) => x.id) });
        const byId = new Map(shown.items.map((x) => [x.id, x]));
        const items = saved.ids.flatMap((id, k) => {
          const x = byId.get(id);
          return x ? [{ ...x, sortOrder: k }] : [];
        });
        // A child made elsewhere meanwhile, which this page does not know: read the list again.
        if (items.length !== saved.ids.length) c.reload();
        else c.setData({ ...shown, items, total: items.length });
        onSaved(saved.ids);
      } catch (e) {
        c.setData(shown);
        throw e;
      }
    }, '顺序已保存');
  return (
    <>
      <Status a={a} />
      <SortList testId="sort-categories" items={c.data.items} busy={a.busy} onOrder={onOrder} />
    </>
  );
}

function TagSort() {
  const [v, setV] = useState<{ tags: Tag[]; groups: TagGroup[] } | null>(null);
  const [group, setGroup] = useState('');
  const a = useAction();
  const load = () => loadTagVocabulary(true).then((x) => { setV(x); setGroup((g) => g || x.groups[0]?.id || ''); });
  useEffect(() => { void load(); }, []);
  if (!v) return <div className="muted">加载中…</div>;
  const sorted = [...v.tags].sort(bySortOrder);
  const inGroup = sorted.filter((t) => (t.groupId ?? '') === group);
  return (
    <div className="card">
      <label style={{ flexDirection: 'row', alignItems: 'center' }}>标签组
        <select value={group} onChange={(e) => setGroup(e.target.value)}>
          {v.groups.map((g) => <option key={g.id} value={g.id}>{g.name}</option>)}
          <option value="">未分组</option>
        </select>
      </label>
      <Status a={a} />
      <SortList testId="sort-tags" items={inGroup} busy={a.busy}
        onOrder={(next) => a.run(async () => {
          // One request with the full order of every tag: this group's new order, the rest as they were.
          let k = 0;
          const ids = sorted.map((t) => ((t.groupId ?? '') === group ? next[k++]!.id : t.id));
          await api.request('PATCH', '/tags/sort', { ids });
        }, '顺序已保存').then(load)} />
    </div>
  );
}

const GROUP_DIMENSIONS: [string, string][] = [['', '无（普通标签）'], ...DIMENSIONS.map((d): [string, string] => [d, DIM_LABEL[d]])];
/** The colours the API takes (docs/http-contract.md, Values the storefront shows): #rgb or #rrggbb. */
const HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

export function TagGroupsPage() {
  const g = useLoad<Page<TagGroup>>('/tag-groups?pageSize=1000');
  const [v, setV] = useState<{ tags: Tag[] } | null>(null);
  const a = useAction();
  const [name, setName] = useState('');
  const [dimension, setDimension] = useState('');
  const refresh = () => { g.reload(); loadTagVocabulary(true).then(setV, () => undefined); };
  useEffect(() => { loadTagVocabulary().then(setV, () => undefined); }, []);
  return (
    <>
      <form className="card row" onSubmit={(e) => { e.preventDefault(); if (name.trim()) void a.run(async () => { await api.request('POST', '/tag-groups', { name, dimension: dimension || null }); setName(''); refresh(); }, '已创建'); }}>
        <input name="new-group" placeholder="新标签组名称" value={name} onChange={(e) => setName(e.target.value)} />
        <select value={dimension} onChange={(e) => setDimension(e.target.value)}>{GROUP_DIMENSIONS.map(([k, l]) => <option key={k} value={k}>{l}</option>)}</select>
        <button type="submit" disabled={!name.trim() || a.busy}>创建标签组</button>
        <Status a={a} />
      </form>
      <ErrorLine error={g.error} />
      {g.data?.items.map((grp) => (
        <TagGroupCard key={grp.id} grp={grp} tags={v?.tags.filter((t) => t.groupId === grp.id).sort(bySortOrder) ?? []} onChanged={refresh} />
      ))}
    </>
  );
}

function TagGroupCard({ grp, tags, onChanged }: { grp: TagGroup; tags: Tag[]; onChanged: () => void }) {
  const a = useAction();
  const [renaming, setRenaming] = useState<string | null>(null);
  const [newTag, setNewTag] = useState('');
  const [editing, setEditing] = useState<{ id: string; name: string; color: string } | null>(null);
  const colorOk = editing ? editing.color === '' || HEX.test(editing.color) : true;
  return (
    <div className="card" data-testid="tag-group" data-group-id={grp.id}>
      <div className="row">
        {renaming === null ? (
          <>
            <b data-testid="tag-group-name">{grp.name}</b>
            <span className="badge">{GROUP_DIMENSIONS.find(([k]) => k === (grp.dimension ?? ''))?.[1]}</span>
            <span className="muted">{grp.tagCount} 个标签</span>
            <button className="secondary" disabled={a.busy} onClick={() => setRenaming(grp.name)}>重命名</button>
          </>
        ) : (
          <form className="row" onSubmit={(e) => {
            e.preventDefault();
            void a.run(async () => { await api.request('PATCH', `/tag-groups/${grp.id}`, { name: renaming }); setRenaming(null); onChanged(); }, '已重命名');
          }}>
            <input name="group-name" value={renaming} onChange={(e) => setRenaming(e.target.value)} autoFocus />
            <button type="submit" disabled={a.busy || !renaming.trim() || renaming === grp.name}>保存名称</button>
            <button type="button" className="secondary" onClick={() => setRenaming(null)}>取消</button>
          </form>
        )}
        <button className="danger" disabled={a.busy} onClick={() => confirm(`删除标签组「${grp.name}」？`) && a.run(async () => { await api.request('DELETE', `/tag-groups/${grp.id}`); onChanged(); }, '已删除')}>删除</button>
        <Status a={a} />
      </div>
      <div style={{ margin: '8px 0' }}>
        {tags.length === 0 ? <span className="muted">还没有标签</span> : <span className="muted" style={{ marginRight: 6 }}>点击标签修改名称和颜色：</span>}
        {tags.map((t) => (
          <span key={t.id} className={`badge tag${editing?.id === t.id ? ' editing' : ''}`} data-testid="tag" data-tag-id={t.id}>
            {t.color && <span className="swatch" style={{ background: t.color }} />}
            <button className="link" style={{ color: t.color ?? 'inherit' }} title="编辑名称和颜色" onClick={() => setEditing({ id: t.id, name: t.name, color: t.color ?? '' })}>{t.name}</button>{' '}
            <button className="link" aria-label={`删除标签 ${t.name}`} disabled={a.busy} onClick={() => a.run(async () => { await api.request('DELETE', `/tags/${t.id}`); if (editing?.id === t.id) setEditing(null); onChanged(); }, `已删除标签 ${t.name}`)}>×</button>
          </span>
        ))}
      </div>
      {editing && (
        <form className="row inset" data-testid="tag-editor" onSubmit={(e) => {
          e.preventDefault();
          void a.run(async () => {
            await api.request('PATCH', `/tags/${editing.id}`, { name: editing.name, color: editing.color || null });
            setEditing(null);
            onChanged();
          }, '标签已保存');
        }}>
          <span className="muted">编辑标签 #{editing.id}</span>
          <label style={{ flexDirection: 'row', alignItems: 'center' }}>名称<input name="tag-name" value={editing.name} onChange={(e) => setEditing({ ...editing, name: e.target.value })} /></label>
          <label style={{ flexDirection: 'row', alignItems: 'center' }}>颜色
            <input type="color" aria-label="选择颜色" value={HEX.test(editing.color) && editing.color.length === 7 ? editing.color : '#000000'} onChange={(e) => setEditing({ ...editing, color: e.target.value })} style={{ padding: 0, width: 36, height: 32 }} />
            <input name="tag-color" placeholder="#ff0000，留空为无颜色" value={editing.color} onChange={(e) => setEditing({ ...editing, color: e.target.value.trim() })} style={{ width: 150 }} />
          </label>
          {!colorOk && <span className="error">颜色须为 #rgb、#rrggbb 或 #rrggbbaa</span>}
          <button type="submit" disabled={a.busy || !editing.name.trim() || !colorOk}>保存标签</button>
          <button type="button" className="secondary" onClick={() => setEditing(null)}>取消</button>
        </form>
      )}
      <form className="row" onSubmit={(e) => {
        e.preventDefault();
        if (newTag.trim()) void a.run(async () => { await api.request('POST', '/tags', { name: newTag, groupId: grp.id }); setNewTag(''); onChanged(); }, '已添加标签');
      }}>
        <input name="new-tag" placeholder="新标签" value={newTag} onChange={(e) => setNewTag(e.target.value)} />
        <button type="submit" className="secondary" disabled={!newTag.trim() || a.busy}>添加标签</button>
      </form>
    </div>
  );
}

interface Position { id: string; name: string; sortOrder: number; goodIds: string[] }
interface GoodHit { id: string; name: string; originGoodId: string | null; familyId: string | null }

/** The goods of a position: search and add, reorder, remove. */
function GoodsPicker({ value, onChange }: { value: string[]; onChange: (ids: string[]) => void }) {
  const names = useNames('goods', value);
  return (
    <div data-testid="position-goods">
      <table className="sortable">
        <tbody>
          {value.length === 0 && <tr><td className="muted">还没有商品：在下面搜索并添加</td></tr>}
          {value.map((id, i) => (
            <tr key={id} data-testid="position-good">
              <td style={{ width: 40 }} className="muted">{i + 1}</td>
              <td>{names[id] ?? '…'} <span className="muted">#{id}</span></td>
              <td style={{ width: 170, whiteSpace: 'nowrap' }}>
                <button type="button" className="secondary" aria-label={`上移 ${names[id] ?? id}`} disabled={i === 0} onClick={() => onChange(move(value, i, -1))}>↑</button>{' '}
                <button type="button" className="secondary" aria-label={`下移 ${names[id] ?? id}`} disabled={i === value.length - 1} onClick={() => onChange(move(value, i, 1))}>↓</button>{' '}
                <button type="button" className="danger" aria-label={`移除 ${names[id] ?? id}`} onClick={() => onChange(value.filter((x) => x !== id))}>移除</button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <SearchPicker<GoodHit>
        testId="position-good-search"
        placeholder="搜索商品名称"
        exclude={value}
        search={async (k) => (await api.get<Page<GoodHit>>(`/goods?pageSize=30${k ? `&keyword=${encodeURIComponent(k)}` : ''}`)).items}
        render={(g) => <>{g.name} <span className="muted">#{g.id}</span>{!g.familyId && <span className="badge amber" title="首页只展示属于商品系列的商品">无系列</span>}</>}
        onPick={(g) => { rememberName('goods', g.id, g.name); onChange([...value, g.id]); }}
      />
    </div>
  );
}

const emptyDraft = () => ({ name: '', sortOrder: '0', goodIds: [] as string[] }) as { id?: string; name: string; sortOrder: string; goodIds: string[] };

export function PositionsPage() {
  const p = useLoad<Page<Position>>('/positions?pageSize=1000');
  const a = useAction();
  const del = useAction();
  const [draft, setDraft] = useState(emptyDraft);
  const save = () => a.run(async () => {
    const body = { name: draft.name, sortOrder: Number(draft.sortOrder) || 0, goodIds: draft.goodIds };
    if (draft.id) await api.request('PATCH', `/positions/${draft.id}`, body);
    else await api.request('POST', '/positions', body);
    setDraft(emptyDraft());
    p.reload();
  }, '已保存');
  return (
    <>
      <div className="card" data-testid="position-editor">
        <h2>{draft.id ? `编辑展示位 #${draft.id}` : '新建展示位'}</h2>
        <div className="row">
          <label style={{ flexDirection: 'row', alignItems: 'center' }}>名称<input name="position-name" placeholder="名称" value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} /></label>
          <label style={{ flexDirection: 'row', alignItems: 'center' }}>排序<input name="position-sort" placeholder="排序" type="number" value={draft.sortOrder} onChange={(e) => setDraft({ ...draft, sortOrder: e.target.value })} style={{ width: 80 }} /></label>
        </div>
        <h2>商品（按顺序展示）</h2>
        <GoodsPicker value={draft.goodIds} onChange={(goodIds) => setDraft((d) => ({ ...d, goodIds }))} />
        <div className="row" style={{ marginTop: 12 }}>
          <button disabled={!draft.name.trim() || a.busy} onClick={save}>保存</button>
          {draft.id && <button className="secondary" onClick={() => setDraft(emptyDraft())}>取消</button>}
          <Status a={a} />
        </div>
      </div>
      <ErrorLine error={p.error} />
      <Status a={del} />
      <table data-testid="positions">
        <thead><tr><th>名称</th><th>排序</th><th>商品</th><th></th></tr></thead>
        <tbody>
          {p.data?.items.length === 0 && <tr><td colSpan={4} className="muted">还没有展示位</td></tr>}
          {p.data?.items.map((x) => (
            <tr key={x.id} data-testid="position-row" className={draft.id === x.id ? 'selected' : ''}>
              <td>{x.name}</td><td>{x.sortOrder}</td><td>{x.goodIds.length} 个</td>
              <td className="row">
                <button className="secondary" onClick={() => setDraft({ id: x.id, name: x.name, sortOrder: String(x.sortOrder), goodIds: x.goodIds })}>编辑</button>
                <button className="danger" disabled={del.busy} onClick={() => confirm(`删除展示位「${x.name}」？`) && del.run(async () => { await api.request('DELETE', `/positions/${x.id}`); if (draft.id === x.id) setDraft(emptyDraft()); p.reload(); }, '已删除')}>删除</button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
