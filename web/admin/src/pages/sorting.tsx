import { useEffect, useMemo, useState } from 'react';
import { api } from '../api';
import type { Page } from '../../../../src/contract/page';
import type { CategoryView, CountryView, TagGroupView, TagView } from '../../../../src/contract/vocabulary';
import { ErrorLine, Loading, Status, Tabs } from '../common/components';
import { useAction, useLoad } from '../common/hooks';
import { bySortOrder, treeOrder } from '../common/order';
import { SortList } from '../common/sort-list';
import { loadTagVocabulary } from '../common/tags';

export function SortingPage() {
  const [tab, setTab] = useState<'countries' | 'categories' | 'tags'>('countries');
  return (
    <>
      <p className="muted">店铺中国家、类目和标签出现的先后顺序。拖动 ⠿ 或用 ↑/↓ 调整，每次调整立即保存。</p>
      <Tabs<'countries' | 'categories' | 'tags'>
        label="排序的内容"
        value={tab}
        onChange={setTab}
        tabs={[
          ['countries', '国家'],
          ['categories', '类目'],
          ['tags', '标签'],
        ]}
      />
      {tab === 'countries' && <CountrySort />}
      {tab === 'categories' && <CategorySort />}
      {tab === 'tags' && <TagSort />}
    </>
  );
}

function CountrySort() {
  const c = useLoad<Page<CountryView>>('/countries?pageSize=1000');
  const a = useAction();
  return (
    <div className="card">
      <ErrorLine error={c.error} />
      <Status a={a} />
      {c.data && (
        <SortList
          testId="sort-countries"
          items={c.data.items}
          busy={a.busy}
          extra={(x) => <span className="muted">{x.code}</span>}
          onOrder={(next) =>
            a
              .run(async () => {
                c.setData({ ...c.data!, items: next });
                await api.request('PATCH', '/countries/sort', { ids: next.map((x) => x.id) });
              }, '顺序已保存')
              .then(c.reload)
          }
        />
      )}
    </div>
  );
}

/**
 * One parent's children in order: the parents to choose from come from the whole tree (read once),
 * the children from `GET /categories?parentId=`.
 */
function CategorySort() {
  const tree = useLoad<Page<CategoryView>>('/categories?pageSize=1000');
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
        <label style={{ flexDirection: 'row', alignItems: 'center' }}>
          上级类目
          <select data-testid="sort-category-parent" value={parent} onChange={(e) => setParent(e.target.value)}>
            <option value="">（大类）</option>
            {parents.map(({ c: p, depth }) => (
              <option key={p.id} value={p.id}>
                {'　'.repeat(depth)}
                {p.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ErrorLine error={tree.error} />
      <CategoryChildren key={parent} parentId={parent || null} onSaved={onSaved} />
    </div>
  );
}

/** A move sends the full new order of the children and shows the order the answer says was saved. */
function CategoryChildren({ parentId, onSaved }: { parentId: string | null; onSaved: (ids: string[]) => void }) {
  const c = useLoad<Page<CategoryView>>(`/categories?parentId=${parentId ?? 'root'}&pageSize=1000`);
  const a = useAction();
  if (c.error) return <ErrorLine error={c.error} />;
  if (!c.data) return <Loading />;
  const shown = c.data;
  const onOrder = (next: CategoryView[]) =>
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
  const [v, setV] = useState<{ tags: TagView[]; groups: TagGroupView[] } | null>(null);
  const [group, setGroup] = useState('');
  const a = useAction();
  const load = () =>
    loadTagVocabulary(true).then((x) => {
      setV(x);
      setGroup((g) => g || x.groups[0]?.id || '');
    });
  useEffect(() => {
    void load();
  }, []);
  if (!v) return <Loading />;
  const sorted = [...v.tags].sort(bySortOrder);
  const inGroup = sorted.filter((t) => (t.groupId ?? '') === group);
  return (
    <div className="card">
      <label style={{ flexDirection: 'row', alignItems: 'center' }}>
        标签组
        <select value={group} onChange={(e) => setGroup(e.target.value)}>
          {v.groups.map((g) => (
            <option key={g.id} value={g.id}>
              {g.name}
            </option>
          ))}
          <option value="">未分组</option>
        </select>
      </label>
      <Status a={a} />
      <SortList
        testId="sort-tags"
        items={inGroup}
        busy={a.busy}
        onOrder={(next) =>
          a
            .run(async () => {
              // One request with the full order of every tag: this group's new order, the rest as they were.
              let k = 0;
              const ids = sorted.map((t) => ((t.groupId ?? '') === group ? next[k++]!.id : t.id));
              await api.request('PATCH', '/tags/sort', { ids });
            }, '顺序已保存')
            .then(load)
        }
      />
    </div>
  );
}
