import { useEffect, useState } from 'react';
import { openBulkDialog, UNIT, type BulkKind, type BulkTarget, type Selection } from './bulk-dialog';

/**
 * Picking many rows of a list (goods, families) for a bulk change (docs/api.md, Bulk changes): rows
 * one by one, the whole page, or every item the list's current filter matches (sent as the filter,
 * so items the administrator never paged to are included). A new filter or search starts afresh.
 */
export function useBulkSelection(scope: string) {
  const [ids, setIds] = useState<string[]>([]);
  const [all, setAll] = useState(false);
  useEffect(() => {
    setIds([]);
    setAll(false);
  }, [scope]);
  const clear = () => {
    setIds([]);
    setAll(false);
  };
  return { ids, setIds, all, setAll, clear };
}
export type BulkSelection = ReturnType<typeof useBulkSelection>;

/** The `pick` of a MasterList over the selection; `pageIds`: the rows shown. */
export function pickOf<T extends { id: string }>(sel: BulkSelection, pageIds: string[], name: (x: T) => string) {
  return {
    can: () => true,
    has: (x: T) => sel.all || sel.ids.includes(x.id),
    toggle: (x: T, on: boolean) => {
      // Leaving "every match" for single rows keeps the rows shown, less this one.
      const base = sel.all ? pageIds : sel.ids;
      sel.setAll(false);
      sel.setIds(on ? [...new Set([...base, x.id])] : base.filter((i) => i !== x.id));
    },
    name,
  };
}

const ACTIONS: [BulkKind, string][] = [
  ['setCountry', '设置国家'],
  ['setCategory', '设置类目'],
  ['setTags', '增删标签'],
  ['shelfOn', '上架'],
  ['shelfOff', '下架'],
  ['delete', '删除'],
];

/** The bar above the list: how many are picked, picking more, and the changes to make. */
export function BulkBar(props: { target: BulkTarget; sel: BulkSelection; pageIds: string[]; total: number; filter: Record<string, string>; onDone: () => void }) {
  const { target, sel, pageIds, total } = props;
  const unit = UNIT[target];
  const pageAll = pageIds.length > 0 && pageIds.every((i) => sel.ids.includes(i));
  const selection: Selection = sel.all ? { filter: props.filter } : { ids: sel.ids };
  const count = sel.all ? total : sel.ids.length;
  const act = async (kind: BulkKind) => {
    if (await openBulkDialog(target, kind, selection, count)) {
      sel.clear();
      props.onDone();
    }
  };
  return (
    <div className="row bulk-bar" role="group" aria-label="批量操作" data-testid="bulk-bar">
      {count === 0 ? (
        <button type="button" className="secondary" disabled={pageIds.length === 0} onClick={() => sel.setIds(pageIds)} data-testid="bulk-select-page">
          选择本页全部
        </button>
      ) : (
        <>
          <span data-testid="bulk-count">{sel.all ? `已选择全部 ${total} 个符合当前筛选的${unit}` : `已选择 ${count} 个${unit}`}</span>
          {!sel.all && pageAll && total > count && (
            <button type="button" className="link" onClick={() => sel.setAll(true)} data-testid="bulk-select-all">
              选择全部 {total} 个符合当前筛选的{unit}
            </button>
          )}
          <button type="button" className="link" onClick={sel.clear}>
            清除选择
          </button>
          {ACTIONS.map(([kind, label]) => (
            <button key={kind} type="button" className={kind === 'delete' ? 'danger' : 'secondary'} onClick={() => void act(kind)} data-testid={`bulk-${kind}`}>
              {label}
            </button>
          ))}
        </>
      )}
    </div>
  );
}
