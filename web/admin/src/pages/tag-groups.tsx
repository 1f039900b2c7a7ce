import { useEffect, useId, useState } from 'react';
import { api } from '../api';
import type { Page } from '../../../../src/contract/page';
import type { TagGroupView, TagView } from '../../../../src/contract/vocabulary';
import { ErrorLine, FieldError, Status } from '../common/components';
import { useAction, useLoad } from '../common/hooks';
import { confirmDelete } from '../common/impact';
import { bySortOrder } from '../common/order';
import { useUnsavedEdits } from '../common/route';
import { DIMENSIONS, DIM_LABEL, loadTagVocabulary } from '../common/tags';

const GROUP_DIMENSIONS: [string, string][] = [['', '不是规格（普通标签）'], ...DIMENSIONS.map((d): [string, string] => [d, `规格：${DIM_LABEL[d]}`])];
/** The colours the API takes (docs/http-contract.md, Values the storefront shows): #rgb or #rrggbb. */
const HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** Tag groups and their tags: create, rename, colour; deletes say first what uses them. */
export function TagGroupsPage() {
  const g = useLoad<Page<TagGroupView>>('/tag-groups?pageSize=1000');
  const [v, setV] = useState<{ tags: TagView[] } | null>(null);
  const a = useAction();
  const [name, setName] = useState('');
  const [dimension, setDimension] = useState('');
  const id = useId();
  useUnsavedEdits(name.trim() !== '');
  const refresh = () => {
    g.reload();
    loadTagVocabulary(true).then(setV, () => undefined);
  };
  useEffect(() => {
    loadTagVocabulary().then(setV, () => undefined);
  }, []);
  return (
    <>
      <form
        className="card row"
        aria-label="新建标签组"
        onSubmit={(e) => {
          e.preventDefault();
          if (name.trim())
            void a.run(async () => {
              await api.request('POST', '/tag-groups', { name, dimension: dimension || null });
              setName('');
              refresh();
            }, '已创建标签组');
        }}
      >
        <label htmlFor={`${id}-name`} className="inline">
          标签组名称
        </label>
        <input id={`${id}-name`} name="new-group" placeholder="如 风格" value={name} onChange={(e) => setName(e.target.value)} aria-invalid={a.fields.name ? true : undefined} />
        <label htmlFor={`${id}-dim`} className="inline">
          用途
        </label>
        <select id={`${id}-dim`} value={dimension} onChange={(e) => setDimension(e.target.value)}>
          {GROUP_DIMENSIONS.map(([k, l]) => (
            <option key={k} value={k}>
              {l}
            </option>
          ))}
        </select>
        <button type="submit" disabled={!name.trim() || a.busy}>
          创建标签组
        </button>
        <FieldError id={`${id}-name-err`} message={a.fields.name} />
        <Status a={a} />
      </form>
      <ErrorLine error={g.error} />
      {g.data?.items.map((grp) => (
        <TagGroupCard key={grp.id} grp={grp} groups={g.data?.items ?? []} tags={v?.tags.filter((t) => t.groupId === grp.id).sort(bySortOrder) ?? []} onChanged={refresh} />
      ))}
    </>
  );
}

function TagGroupCard({ grp, groups, tags, onChanged }: { grp: TagGroupView; groups: TagGroupView[]; tags: TagView[]; onChanged: () => void }) {
  const a = useAction();
  const [renaming, setRenaming] = useState<string | null>(null);
  const [newTag, setNewTag] = useState('');
  const [editing, setEditing] = useState<{ id: string; name: string; color: string; groupId: string } | null>(null);
  const id = useId();
  const colorOk = editing ? editing.color === '' || HEX.test(editing.color) : true;
  const editedTag = editing ? tags.find((t) => t.id === editing.id) : undefined;
  useUnsavedEdits(
    newTag.trim() !== '' ||
      (renaming !== null && renaming !== grp.name) ||
      (!!editing && !!editedTag && (editing.name !== editedTag.name || editing.color !== (editedTag.color ?? '') || editing.groupId !== grp.id)),
  );
  const removeTag = async (t: TagView) => {
    if (!(await confirmDelete('tags', t.id, t.name, onChanged))) return;
    await a.run(async () => {
      await api.request('DELETE', `/tags/${t.id}`);
      if (editing?.id === t.id) setEditing(null);
      onChanged();
    }, `已删除标签「${t.name}」`);
  };
  const removeGroup = async () => {
    if (!(await confirmDelete('tag-groups', grp.id, grp.name))) return;
    await a.run(async () => {
      await api.request('DELETE', `/tag-groups/${grp.id}`);
      onChanged();
    }, `已删除标签组「${grp.name}」`);
  };
  return (
    <section className="card" data-testid="tag-group" data-group-id={grp.id} aria-labelledby={`${id}-title`}>
      <div className="row">
        {renaming === null ? (
          <>
            <h2 id={`${id}-title`} style={{ margin: 0 }}>
              <span data-testid="tag-group-name">{grp.name}</span>
            </h2>
            <span className="badge">{GROUP_DIMENSIONS.find(([k]) => k === (grp.dimension ?? ''))?.[1]}</span>
            <span className="muted">{grp.tagCount} 个标签</span>
            <button type="button" className="secondary" disabled={a.busy} onClick={() => setRenaming(grp.name)}>
              重命名
            </button>
          </>
        ) : (
          <form
            className="row"
            onSubmit={(e) => {
              e.preventDefault();
              void a.run(async () => {
                await api.request('PATCH', `/tag-groups/${grp.id}`, { name: renaming });
                setRenaming(null);
                onChanged();
              }, '已重命名');
            }}
          >
            <h2 id={`${id}-title`} className="visually-hidden">
              {grp.name}
            </h2>
            <label htmlFor={`${id}-rename`} className="visually-hidden">
              标签组名称
            </label>
            <input id={`${id}-rename`} name="group-name" value={renaming} onChange={(e) => setRenaming(e.target.value)} autoFocus />
            <button type="submit" disabled={a.busy || !renaming.trim() || renaming === grp.name}>
              保存名称
            </button>
            <button type="button" className="secondary" onClick={() => setRenaming(null)}>
              取消
            </button>
          </form>
        )}
        <button type="button" className="danger" disabled={a.busy} onClick={() => void removeGroup()} aria-label={`删除标签组 ${grp.name}`}>
          删除
        </button>
        <Status a={a} />
      </div>
      <div style={{ margin: '8px 0' }}>
        {tags.length === 0 ? (
          <span className="muted">还没有标签</span>
        ) : (
          <span className="muted" style={{ marginRight: 6 }}>
            点击标签修改名称、颜色或所在的组：
          </span>
        )}
        {tags.map((t) => (
          <span key={t.id} className={`badge tag${editing?.id === t.id ? ' editing' : ''}`} data-testid="tag" data-tag-id={t.id}>
            {t.color && <span className="swatch" style={{ background: t.color }} />}
            <button
              type="button"
              className="link"
              style={{ color: '#1f2933', textDecoration: 'none' }}
              aria-pressed={editing?.id === t.id}
              title="修改名称、颜色和所在的组"
              onClick={() => setEditing({ id: t.id, name: t.name, color: t.color ?? '', groupId: grp.id })}
            >
              {t.name}
            </button>{' '}
            <button type="button" className="link" aria-label={`删除标签 ${t.name}`} disabled={a.busy} onClick={() => void removeTag(t)}>
              ×
            </button>
          </span>
        ))}
      </div>
      {editing && (
        <form
          className="row inset"
          data-testid="tag-editor"
          aria-label="修改标签"
          onSubmit={(e) => {
            e.preventDefault();
            void a.run(async () => {
              // A move to another group is the same PATCH (groupId), sent only when it changed.
              const move = editing.groupId !== grp.id ? { groupId: editing.groupId } : {};
              await api.request('PATCH', `/tags/${editing.id}`, { name: editing.name, color: editing.color || null, ...move });
              setEditing(null);
              onChanged();
            }, '标签已保存');
          }}
        >
          <span className="muted">修改标签「{editedTag?.name ?? ''}」</span>
          <label className="inline">
            名称
            <input name="tag-name" value={editing.name} onChange={(e) => setEditing({ ...editing, name: e.target.value })} aria-invalid={a.fields.name ? true : undefined} />
          </label>
          <span className="inline">
            <input
              type="color"
              aria-label="选择颜色"
              value={HEX.test(editing.color) && editing.color.length === 7 ? editing.color : '#000000'}
              onChange={(e) => setEditing({ ...editing, color: e.target.value })}
              style={{ padding: 0, width: 36, height: 32 }}
            />
            <label className="inline">
              颜色
              <input
                name="tag-color"
                placeholder="#ff0000，留空为无颜色"
                value={editing.color}
                onChange={(e) => setEditing({ ...editing, color: e.target.value.trim() })}
                style={{ width: 150 }}
                aria-invalid={!colorOk ? true : undefined}
                aria-describedby={!colorOk ? `${id}-colour-err` : undefined}
              />
            </label>
          </span>
          <label className="inline">
            所在的组
            <select name="tag-group" value={editing.groupId} onChange={(e) => setEditing({ ...editing, groupId: e.target.value })}>
              {groups.map((x) => (
                <option key={x.id} value={x.id}>
                  {x.name}
                </option>
              ))}
            </select>
          </label>
          <FieldError id={`${id}-colour-err`} message={!colorOk ? '颜色须为 #rgb 或 #rrggbb，如 #d81b60' : a.fields.color} />
          <FieldError id={`${id}-tagname-err`} message={a.fields.name} />
          <button type="submit" disabled={a.busy || !editing.name.trim() || !colorOk}>
            保存标签
          </button>
          <button type="button" className="secondary" onClick={() => setEditing(null)}>
            取消
          </button>
        </form>
      )}
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          if (newTag.trim())
            void a.run(async () => {
              await api.request('POST', '/tags', { name: newTag, groupId: grp.id });
              setNewTag('');
              onChanged();
            }, '已添加标签');
        }}
      >
        <label htmlFor={`${id}-new`} className="visually-hidden">
          新标签名称
        </label>
        <input id={`${id}-new`} name="new-tag" placeholder="新标签" value={newTag} onChange={(e) => setNewTag(e.target.value)} />
        <button type="submit" className="secondary" disabled={!newTag.trim() || a.busy}>
          添加标签
        </button>
      </form>
    </section>
  );
}
