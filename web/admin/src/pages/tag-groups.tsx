import { useEffect, useState } from 'react';
import { api } from '../api';
import type { Page } from '../../../shared/responses/page';
import type { TagGroupView, TagView } from '../../../shared/responses/vocabulary';
import { ErrorLine, Status } from '../common/components';
import { useAction, useLoad } from '../common/hooks';
import { bySortOrder } from '../common/order';
import { DIMENSIONS, DIM_LABEL, loadTagVocabulary } from '../common/tags';

const GROUP_DIMENSIONS: [string, string][] = [['', '无（普通标签）'], ...DIMENSIONS.map((d): [string, string] => [d, DIM_LABEL[d]])];
/** The colours the API takes (docs/http-contract.md, Values the storefront shows): #rgb or #rrggbb. */
const HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

export function TagGroupsPage() {
  const g = useLoad<Page<TagGroupView>>('/tag-groups?pageSize=1000');
  const [v, setV] = useState<{ tags: TagView[] } | null>(null);
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

function TagGroupCard({ grp, tags, onChanged }: { grp: TagGroupView; tags: TagView[]; onChanged: () => void }) {
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
