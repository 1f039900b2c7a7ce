import { useId } from 'react';
import type { Cell } from '../../../../src/contract/families';
import { DIM_LABEL } from '../common/tags';

const SLICE_DIMS = ['printCount', 'craft', 'logistics'] as const;
export type Slice = Pick<Cell, (typeof SLICE_DIMS)[number]>;
export const sliceKey = (s: Slice) => JSON.stringify([s.printCount, s.craft, s.logistics]);
const sliceName = (s: Slice) => SLICE_DIMS.map((d) => s[d]).join(' · ');

/** How many manual prices each slice (print count × craft × logistics) of the table holds. */
export function overridesBySlice(overrides: readonly Cell[]) {
  const by = new Map<string, { slice: Slice; n: number }>();
  for (const o of overrides) {
    const k = sliceKey(o);
    const at = by.get(k);
    by.set(k, { slice: { printCount: o.printCount, craft: o.craft, logistics: o.logistics }, n: (at?.n ?? 0) + 1 });
  }
  return by;
}

/**
 * Which slice of the table shows: a choice per dimension, each option that leads to a slice with
 * manual prices saying 含手动价格; the slice shown marked when it has some; the other slices with
 * manual prices, one button each to show it.
 */
export function SlicePicker({
  dims,
  pick,
  setPick,
  bySlice,
}: {
  dims: Record<(typeof SLICE_DIMS)[number], string[]>;
  pick: Slice;
  setPick: (s: Slice) => void;
  bySlice: Map<string, { slice: Slice; n: number }>;
}) {
  const id = useId();
  const here = bySlice.get(sliceKey(pick))?.n ?? 0;
  const others = [...bySlice.entries()].filter(([k]) => k !== sliceKey(pick));
  return (
    <>
      <div className="row" style={{ margin: '12px 0' }}>
        {SLICE_DIMS.map((d) => (
          <span key={d} className="inline">
            <label htmlFor={`${id}-${d}`} className="inline">
              {DIM_LABEL[d]}
            </label>
            <select id={`${id}-${d}`} data-testid={`matrix-${d}`} value={pick[d]} onChange={(e) => setPick({ ...pick, [d]: e.target.value })}>
              {dims[d].map((v) => (
                <option key={v} value={v}>
                  {bySlice.has(sliceKey({ ...pick, [d]: v })) ? `${v} ● 含手动价格` : v}
                </option>
              ))}
            </select>
          </span>
        ))}
        {here > 0 && (
          <span className="badge amber" data-testid="slice-overrides">
            ● 含手动价格 {here} 个
          </span>
        )}
      </div>
      {others.length > 0 && (
        <div className="row muted" data-testid="override-slices">
          <span>其他含手动价格的组合：</span>
          {others.map(([k, { slice, n }]) => (
            <button key={k} type="button" className="toggle" onClick={() => setPick(slice)} aria-label={`查看 ${sliceName(slice)}（含 ${n} 个手动价格）`}>
              ● {sliceName(slice)}（{n}）
            </button>
          ))}
        </div>
      )}
    </>
  );
}
