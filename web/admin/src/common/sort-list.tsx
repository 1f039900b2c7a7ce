import type React from 'react';
import { useEffect, useRef, useState } from 'react';

export function move<T>(xs: T[], i: number, d: -1 | 1): T[] {
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
 * either way `onOrder` receives the full new order, once per move. A move by button keeps the focus
 * on the moved item (its same button, or the other one at the end of the list), so ↑ can be pressed
 * again; while a move is saved the buttons refuse with aria-disabled rather than `disabled`, which
 * would drop the focus.
 */
export function SortList<T extends { id: string; name: string }>({
  items,
  onOrder,
  busy,
  testId,
  extra,
}: {
  items: T[];
  onOrder: (next: T[], moved: [number, number]) => void;
  busy: boolean;
  testId: string;
  extra?: (x: T) => React.ReactNode;
}) {
  const [dragging, setDragging] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  // A row drags only when the drag began on its handle: the rest of the row stays selectable text.
  const fromHandle = useRef(false);
  const table = useRef<HTMLTableElement>(null);
  // The item last moved by button, and the way: its button gets the focus back after the move.
  const moved = useRef<{ id: string; dir: -1 | 1 } | null>(null);
  useEffect(() => {
    const m = moved.current;
    const el = table.current;
    if (!m || !el) return;
    // Only when the focus was lost (its row moved in the page, its button came to an end of the list):
    // a focus the administrator has put somewhere since, in the list or not, stays where it is.
    const active = document.activeElement;
    if (active && active !== document.body) return;
    const row = [...el.querySelectorAll<HTMLElement>('tr[data-id]')].find((r) => r.dataset.id === m.id);
    const same = row?.querySelector<HTMLButtonElement>(`button[data-dir="${m.dir}"]`);
    const other = row?.querySelector<HTMLButtonElement>(`button[data-dir="${-m.dir}"]`);
    const target = same && !same.disabled ? same : other;
    if (target && active !== target) target.focus();
  }, [items, busy]);
  const byButton = (x: T, i: number, dir: -1 | 1) => {
    if (busy) return;
    moved.current = { id: x.id, dir };
    onOrder(move(items, i, dir), [i, i + dir]);
  };
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
  const end = () => {
    setDragging(null);
    setOver(null);
    fromHandle.current = false;
  };
  const drop = (to: number) => {
    const from = dragging;
    end();
    if (from === null || from === to || busy) return;
    onOrder(moveTo(items, from, to), [from, to]);
  };
  if (items.length === 0)
    return (
      <p className="muted" data-testid={testId}>
        没有可排序的项目
      </p>
    );
  return (
    <table
      data-testid={testId}
      className="sortable"
      ref={table}
      onBlur={(e) => {
        // Gone elsewhere: a later answer must not bring it back.
        if (e.relatedTarget && !table.current?.contains(e.relatedTarget as Node)) moved.current = null;
      }}
    >
      <caption className="visually-hidden">当前顺序</caption>
      <tbody>
        {items.map((x, i) => (
          <tr
            key={x.id}
            data-id={x.id}
            draggable={!busy}
            className={
              [dragging === i ? 'dragging' : '', over === i && dragging !== null && dragging !== i ? (dragging < i ? 'drop-below' : 'drop-above') : ''].join(' ').trim() ||
              undefined
            }
            onDragStart={(e) => {
              if (!fromHandle.current) {
                e.preventDefault();
                return;
              }
              e.dataTransfer.effectAllowed = 'move';
              e.dataTransfer.setData('text/plain', x.id);
              setDragging(i);
            }}
            onDragOver={(e) => {
              if (dragging === null) return;
              e.preventDefault();
              e.dataTransfer.dropEffect = 'move';
              if (over !== i) setOver(i);
            }}
            onDrop={(e) => {
              e.preventDefault();
              drop(i);
            }}
            onDragEnd={end}
          >
            <td style={{ width: 64, whiteSpace: 'nowrap' }} className="muted">
              <span className="handle" data-testid="drag-handle" title="拖动以排序" aria-hidden="true" onMouseDown={() => (fromHandle.current = true)}>
                ⠿
              </span>{' '}
              {i + 1}
            </td>
            <td>
              {x.name} {extra?.(x)}
            </td>
            <td style={{ width: 110, whiteSpace: 'nowrap' }}>
              <button
                type="button"
                className="secondary"
                data-dir={-1}
                aria-label={`上移 ${x.name}`}
                aria-disabled={busy || undefined}
                disabled={i === 0}
                onClick={() => byButton(x, i, -1)}
              >
                ↑
              </button>{' '}
              <button
                type="button"
                className="secondary"
                data-dir={1}
                aria-label={`下移 ${x.name}`}
                aria-disabled={busy || undefined}
                disabled={i === items.length - 1}
                onClick={() => byButton(x, i, 1)}
              >
                ↓
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
