import { useMemo, useRef, useState } from 'react';
import { api } from '../api';
import type { Cell, Family } from '../../../../src/contract/families';
import { Status } from '../common/components';
import { errorText, fieldErrors } from '../common/error-text';
import { useAction } from '../common/hooks';
import { showPrice } from '../common/price';
import { useSkipLink } from '../common/skip-links';
import { DIM_LABEL } from '../common/tags';
import { UndoToast, type UndoOffer } from '../common/undo-toast';
import { overridesBySlice, SlicePicker, sliceKey, type Slice } from './matrix-slices';
import { PriceCell } from './price-cell';

type Key = Omit<Cell, 'price'>;
const uniq = (xs: string[]) => [...new Set(xs)];
const keyOf = (c: Key) => JSON.stringify([c.size, c.color, c.printCount, c.craft, c.logistics]);
let offers = 0;

/**
 * A family's price table (the price matrix): sizes down, colours across, for the print count, craft
 * and logistics chosen above it (matrix-slices.tsx). A price typed in a cell is the cell's manual
 * price (an override) once Enter is pressed or the cell is left (price-cell.tsx); each change, and
 * each return to the automatic price, can be taken back for a few seconds with 撤销, which puts the
 * override back as it was through the same API (docs/api.md, PUT/DELETE price-overrides).
 */
export function FamilyMatrix({ fam, onChanged }: { fam: Family; onChanged: () => Promise<unknown> | void }) {
  const cells = fam.priceMatrix?.cells ?? [];
  const dims = useMemo(() => {
    const m = fam.priceMatrix ?? { cells };
    return {
      size: m.sizes ?? uniq(cells.map((c) => c.size)),
      color: m.colors ?? uniq(cells.map((c) => c.color)),
      printCount: m.printCounts ?? uniq(cells.map((c) => c.printCount)),
      craft: m.crafts ?? uniq(cells.map((c) => c.craft)),
      logistics: m.logistics ?? uniq(cells.map((c) => c.logistics)),
    };
  }, [fam]);
  // Opens on a combination the family has (the first dimension values need not go together).
  const first = cells[0];
  const [pick, setPick] = useState<Slice>({ printCount: first?.printCount ?? '', craft: first?.craft ?? '', logistics: first?.logistics ?? '' });
  const overrides = new Map((fam.overrides ?? []).map((o) => [keyOf(o), o.price]));
  const bySlice = useMemo(() => overridesBySlice(fam.overrides ?? []), [fam]);
  const byKey = new Map(cells.map((c) => [keyOf(c), c]));
  // The admin API gives a cell's effective price only: its automatic price is known while it has no
  // manual one, and remembered from then on while the page is open.
  const automatic = useRef(new Map<string, string>()).current;
  for (const c of cells) if (!overrides.has(keyOf(c))) automatic.set(keyOf(c), c.price);
  const a = useAction();
  const [offer, setOffer] = useState<UndoOffer | null>(null);
  const region = useRef<HTMLDivElement>(null);
  useSkipLink('跳到价格矩阵', region, cells.length > 0);
  if (!cells.length) return <p className="muted">这个系列还没有价格：系列中的货源要有尺码、颜色、工艺和物流，才会生成价格。</p>;
  const label = (s: string, c: string) => `${DIM_LABEL.size} ${s}，${DIM_LABEL.color} ${c}`;
  const url = `/product-families/${fam.id}/price-overrides`;
  // null: back to the automatic price.
  const send = (k: Key, price: string | null) => (price === null ? api.request('DELETE', url, k) : api.request('PUT', url, { ...k, price }));
  /** Sets or clears a cell's manual price, then offers to put back what it was; answers why not, or null. */
  const change = async (k: Key, price: string | null, done: string) => {
    const before = overrides.get(keyOf(k)) ?? null;
    let failure = '';
    const ok = await a.run(async () => {
      try {
        await send(k, price);
      } catch (e) {
        failure = fieldErrors(e).price ?? errorText(e);
        throw e;
      }
      await onChanged();
    });
    const back = before === null ? '自动价格' : `手动价格 ${showPrice(before)}`;
    if (ok) setOffer({ id: ++offers, text: done, undo: () => a.run(() => send(k, before).then(onChanged), `已撤销：${k.size} / ${k.color} 恢复为${back}`) });
    return ok ? null : failure;
  };
  const here = bySlice.get(sliceKey(pick))?.n ?? 0;
  return (
    <div>
      <SlicePicker dims={dims} pick={pick} setPick={setPick} bySlice={bySlice} />
      <Status a={a} testId="matrix-status" />
      <p className="muted">
        在格子里改价后按回车（或点到别处）即保存为手动价格；与原价相差 3 倍以上会先确认。橙色格子是手动价格，点 × 恢复自动计算的价格，按 Esc
        取消正在输入的内容；保存后几秒内可撤销。
      </p>
      <div className="scroll" tabIndex={0} role="region" aria-label="价格表" ref={region} data-testid="matrix-region">
        <table className="matrix">
          <caption className="visually-hidden">
            价格表：{pick.printCount} · {pick.craft} · {pick.logistics}
            {here > 0 ? `（含 ${here} 个手动价格）` : ''}
          </caption>
          <thead>
            <tr>
              <th scope="col">尺码 \ 颜色</th>
              {dims.color.map((c) => (
                <th scope="col" key={c}>
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {dims.size.map((s) => (
              <tr key={s}>
                <th scope="row">{s}</th>
                {dims.color.map((c) => {
                  const k: Key = { size: s, color: c, ...pick };
                  const cell = byKey.get(keyOf(k));
                  const ov = overrides.get(keyOf(k));
                  const auto = automatic.get(keyOf(k));
                  return (
                    <td key={c} className={ov !== undefined ? 'overridden' : ''}>
                      {cell ? (
                        <PriceCell
                          key={keyOf(k)}
                          testId={`cell-${s}-${c}`}
                          label={label(s, c)}
                          price={cell.price}
                          refs={auto === undefined ? [cell.price] : [cell.price, auto]}
                          overridden={ov !== undefined}
                          disabled={a.busy}
                          onSet={(price) => change(k, price, `已保存 ${s} / ${c} 的手动价格 ${showPrice(price)}`)}
                          onClear={() => void change(k, null, `已恢复 ${s} / ${c} 的自动价格`)}
                        />
                      ) : (
                        <span className="muted" aria-label={`${label(s, c)}：没有这个规格`}>
                          —
                        </span>
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <UndoToast offer={offer} onClose={() => setOffer(null)} back={() => region.current} />
      {(fam.invalidOverrides?.length ?? 0) > 0 && (
        <p className="error">
          失效的手动价格（对应的规格已不存在）：
          {fam.invalidOverrides!.map((o) => `${o.size} / ${o.color} / ${o.printCount} / ${o.craft} / ${o.logistics} ${showPrice(o.price)}`).join('；')}
        </p>
      )}
    </div>
  );
}
