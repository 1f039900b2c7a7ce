import { useId } from 'react';

/** 上架 / 下架 (docs/domain.md, Public catalog): a family's or a good's shelf state. */
type Shelf = 'on' | 'off';

export const SHELF_LABEL: Record<Shelf, string> = { on: '上架', off: '下架' };

/** The state as a badge: 下架 stands out, 上架 is quiet. */
export function ShelfBadge({ shelf, testId }: { shelf: Shelf; testId?: string }) {
  return (
    <span className={shelf === 'off' ? 'badge red' : 'badge green'} data-testid={testId} data-shelf={shelf}>
      {shelf === 'off' ? '已下架' : '已上架'}
    </span>
  );
}

/** The lists' filter by shelf state: all, on, off (the address keeps it as `shelf`). */
export function ShelfFilter({ value, onChange, testId }: { value: string; onChange: (v: string) => void; testId: string }) {
  const id = useId();
  return (
    <span className="inline">
      <label htmlFor={id} className="inline">
        上架状态
      </label>
      <select id={id} data-testid={testId} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">全部</option>
        <option value="on">上架</option>
        <option value="off">下架</option>
      </select>
    </span>
  );
}
