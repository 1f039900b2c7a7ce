import { useEffect, useState } from 'react';
import { api, type Page } from '../api';
import { ErrorLine, Status, useAction, useLoad } from './common';
import { loadTagVocabulary, type Tag, type TagGroup } from './tags';

function move<T>(xs: T[], i: number, d: -1 | 1): T[] {
  const j = i + d;
  if (j < 0 || j >= xs.length) return xs;
  const out = [...xs];
  [out[i], out[j]] = [out[j]!, out[i]!];
  return out;
}

/** A list with up/down buttons; `onOrder` receives the full new order. */
function SortList<T extends { id: string; name: string }>({ items, onOrder, busy, testId, extra }: { items: T[]; onOrder: (next: T[], moved: [number, number]) => void; busy: boolean; testId: string; extra?: (x: T) => React.ReactNode }) {
  return (
    <table data-testid={testId}>
      <tbody>
        {items.map((x, i) => (
          <tr key={x.id}>
            <td style={{ width: 40 }} className="muted">{i + 1}</td>
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
interface Category { id: string; parentId: string | null; name: string; sortOrder: number; level: number }

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

function CategorySort() {
  const c = useLoad<Page<Category>>('/categories?pageSize=1000');
  const [parent, setParent] = useState<string>('');
  const a = useAction();
  const all = c.data?.items ?? [];
  const siblings = all.filter((x) => (x.parentId ?? '') === parent).sort((x, y) => x.sortOrder - y.sortOrder || Number(x.id) - Number(y.id));
  const parents = all.filter((x) => all.some((y) => y.parentId === x.id));
  return (
    <div className="card">
      <label style={{ flexDirection: 'row', alignItems: 'center' }}>上级类目
        <select value={parent} onChange={(e) => setParent(e.target.value)}>
          <option value="">（顶级）</option>
          {parents.map((p) => <option key={p.id} value={p.id}>{'　'.repeat(p.level - 1)}{p.name}</option>)}
        </select>
      </label>
      <ErrorLine error={c.error} />
      <Status a={a} />
      <SortList testId="sort-categories" items={siblings} busy={a.busy}
        onOrder={(next) => a.run(async () => {
          // Categories have no bulk sort route: give each sibling whose position changed its new sortOrder.
          const changed = next.map((x, i) => ({ x, i })).filter(({ x, i }) => x.sortOrder !== i + 1);
          for (const { x, i } of changed) await api.request('PATCH', `/categories/${x.id}`, { sortOrder: i + 1 });
        }, '顺序已保存').then(c.reload)} />
    </div>
  );
}

function TagSort() {
  const [v, setV] = useState<{ tags: Tag[]; groups: TagGroup[] } | null>(null);
  const [group, setGroup] = useState('');
  const a = useAction();
  const load = () => loadTagVocabulary(true).then((x) => { setV(x); setGroup((g) => g || x.groups[0]?.id || ''); });
  useEffect(() => { void load(); }, []);
  if (!v) return <div className="muted">加载中…</div>;
  const sorted = [...v.tags].sort((x, y) => x.sortOrder - y.sortOrder || Number(x.id) - Number(y.id));
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

const DIMENSIONS: [string, string][] = [['', '无（普通标签）'], ['size', '尺码'], ['color', '颜色'], ['printCount', '印花面数'], ['craft', '工艺'], ['logistics', '物流']];

export function TagGroupsPage() {
  const g = useLoad<Page<TagGroup>>('/tag-groups?pageSize=1000');
  const [v, setV] = useState<{ tags: Tag[] } | null>(null);
  const a = useAction();
  const [name, setName] = useState('');
  const [dimension, setDimension] = useState('');
  const [tagName, setTagName] = useState<Record<string, string>>({});
  const refresh = () => { g.reload(); loadTagVocabulary(true).then(setV, () => undefined); };
  useEffect(() => { loadTagVocabulary().then(setV, () => undefined); }, []);
  return (
    <>
      <div className="card row">
        <input placeholder="新标签组名称" value={name} onChange={(e) => setName(e.target.value)} />
        <select value={dimension} onChange={(e) => setDimension(e.target.value)}>{DIMENSIONS.map(([k, l]) => <option key={k} value={k}>{l}</option>)}</select>
        <button disabled={!name || a.busy} onClick={() => a.run(async () => { await api.request('POST', '/tag-groups', { name, dimension: dimension || null }); setName(''); refresh(); }, '已创建')}>创建标签组</button>
        <Status a={a} />
      </div>
      <ErrorLine error={g.error} />
      {g.data?.items.map((grp) => (
        <div className="card" key={grp.id}>
          <div className="row">
            <b>{grp.name}</b>
            <span className="badge">{DIMENSIONS.find(([k]) => k === (grp.dimension ?? ''))?.[1]}</span>
            <span className="muted">{grp.tagCount} 个标签</span>
            <button className="danger" disabled={a.busy} onClick={() => confirm(`删除标签组「${grp.name}」？`) && a.run(async () => { await api.request('DELETE', `/tag-groups/${grp.id}`); refresh(); }, '已删除')}>删除</button>
          </div>
          <div style={{ margin: '8px 0' }}>
            {v?.tags.filter((t) => t.groupId === grp.id).sort((x, y) => x.sortOrder - y.sortOrder).map((t) => (
              <span key={t.id} className="badge">{t.name} <button className="link" aria-label={`删除标签 ${t.name}`} onClick={() => a.run(async () => { await api.request('DELETE', `/tags/${t.id}`); refresh(); })}>×</button></span>
            ))}
          </div>
          <div className="row">
            <input placeholder="新标签" value={tagName[grp.id] ?? ''} onChange={(e) => setTagName({ ...tagName, [grp.id]: e.target.value })} />
            <button className="secondary" disabled={!tagName[grp.id] || a.busy} onClick={() => a.run(async () => { await api.request('POST', '/tags', { name: tagName[grp.id], groupId: grp.id }); setTagName({ ...tagName, [grp.id]: '' }); refresh(); }, '已添加标签')}>添加标签</button>
          </div>
        </div>
      ))}
    </>
  );
}

interface Position { id: string; name: string; sortOrder: number; goodIds: string[] }

export function PositionsPage() {
  const p = useLoad<Page<Position>>('/positions?pageSize=1000');
  const a = useAction();
  const [draft, setDraft] = useState<{ id?: string; name: string; sortOrder: string; goodIds: string }>({ name: '', sortOrder: '0', goodIds: '' });
  const save = () => a.run(async () => {
    const body = { name: draft.name, sortOrder: Number(draft.sortOrder) || 0, goodIds: draft.goodIds.split(/[\s,，]+/).filter(Boolean) };
    if (draft.id) await api.request('PATCH', `/positions/${draft.id}`, body);
    else await api.request('POST', '/positions', body);
    setDraft({ name: '', sortOrder: '0', goodIds: '' });
    p.reload();
  }, '已保存');
  return (
    <>
      <div className="card">
        <h2>{draft.id ? `编辑展示位 #${draft.id}` : '新建展示位'}</h2>
        <div className="row">
          <input placeholder="名称" value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} />
          <input placeholder="排序" type="number" value={draft.sortOrder} onChange={(e) => setDraft({ ...draft, sortOrder: e.target.value })} style={{ width: 80 }} />
          <input placeholder="商品系列 ID，逗号分隔" value={draft.goodIds} onChange={(e) => setDraft({ ...draft, goodIds: e.target.value })} style={{ flex: 1 }} />
          <button disabled={!draft.name || a.busy} onClick={save}>保存</button>
          {draft.id && <button className="secondary" onClick={() => setDraft({ name: '', sortOrder: '0', goodIds: '' })}>取消</button>}
          <Status a={a} />
        </div>
      </div>
      <ErrorLine error={p.error} />
      <table>
        <thead><tr><th>名称</th><th>排序</th><th>商品数</th><th></th></tr></thead>
        <tbody>
          {p.data?.items.length === 0 && <tr><td colSpan={4} className="muted">还没有展示位</td></tr>}
          {p.data?.items.map((x) => (
            <tr key={x.id}>
              <td>{x.name}</td><td>{x.sortOrder}</td><td>{x.goodIds.length}</td>
              <td className="row">
                <button className="secondary" onClick={() => setDraft({ id: x.id, name: x.name, sortOrder: String(x.sortOrder), goodIds: x.goodIds.join(', ') })}>编辑</button>
                <button className="danger" onClick={() => confirm(`删除展示位「${x.name}」？`) && a.run(async () => { await api.request('DELETE', `/positions/${x.id}`); p.reload(); }, '已删除')}>删除</button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
