import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { api } from '../api';
import type { Cell, Family } from '../../../../src/contract/families';
import { Status } from '../common/components';
import { errorText, fieldErrors } from '../common/error-text';
import { useAction } from '../common/hooks';
import { priceProblem, showPrice } from '../common/price';
import { useUnsavedEdits } from '../common/route';
import { DIM_LABEL } from '../common/tags';

type Key = Omit<Cell, 'price'>;
const uniq = (xs: string[]) => [...new Set(xs)];
const keyOf = (c: Key) => JSON.stringify([c.size, c.color, c.printCount, c.craft, c.logistics]);

/**
 * A family's price table (the price matrix): sizes down, colours across, for the print count, craft
 * and logistics chosen above it. A price typed in a cell is the cell's manual price (an override)
 * once Enter is pressed or the cell is left; what cannot be a price says why beside the cell, and a
 * save the server refuses puts the stored price back, saying so.
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
  const [pick, setPick] = useState({ printCount: first?.printCount ?? '', craft: first?.craft ?? '', logistics: first?.logistics ?? '' });
  const overrides = new Map((fam.overrides ?? []).map((o) => [keyOf(o), o.price]));
  const byKey = new Map(cells.map((c) => [keyOf(c), c]));
  const a = useAction();
  const selectId = useId();
  if (!cells.length) return <p className="muted">这个系列还没有价格：系列中的货源要有尺码、颜色、工艺和物流，才会生成价格。</p>;
  const label = (s: string, c: string) => `${DIM_LABEL.size} ${s}，${DIM_LABEL.color} ${c}`;
  return (
    <div>
      <div className="row" style={{ margin: '12px 0' }}>
        {(['printCount', 'craft', 'logistics'] as const).map((d) => (
          <span key={d} className="inline">
            <label htmlFor={`${selectId}-${d}`} className="inline">
              {DIM_LABEL[d]}
            </label>
            <select id={`${selectId}-${d}`} data-testid={`matrix-${d}`} value={pick[d]} onChange={(e) => setPick({ ...pick, [d]: e.target.value })}>
              {dims[d].map((v) => (
                <option key={v}>{v}</option>
              ))}
            </select>
          </span>
        ))}
        <Status a={a} testId="matrix-status" />
      </div>
      <p className="muted">在格子里改价后按回车（或点到别处）即保存为手动价格；橙色格子是手动价格，点 × 恢复自动计算的价格，按 Esc 取消正在输入的内容。</p>
      <div className="scroll" tabIndex={0} role="region" aria-label="价格表">
        <table className="matrix">
          <caption className="visually-hidden">
            价格表：{pick.printCount} · {pick.craft} · {pick.logistics}
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
                  return (
                    <td key={c} className={ov !== undefined ? 'overridden' : ''}>
                      {cell ? (
                        <PriceCell
                          key={keyOf(k)}
                          testId={`cell-${s}-${c}`}
                          label={label(s, c)}
                          price={cell.price}
                          overridden={ov !== undefined}
                          disabled={a.busy}
                          onSet={async (price) => {
                            let failure = '';
                            const ok = await a.run(
                              async () => {
                                try {
                                  await api.request('PUT', `/product-families/${fam.id}/price-overrides`, { ...k, price });
                                } catch (e) {
                                  failure = fieldErrors(e).price ?? errorText(e);
                                  throw e;
                                }
                                await onChanged();
                              },
                              `已保存 ${s} / ${c} 的手动价格 ${showPrice(price)}`,
                            );
                            return ok ? null : failure;
                          }}
                          onClear={() =>
                            a.run(async () => {
                              await api.request('DELETE', `/product-families/${fam.id}/price-overrides`, k);
                              await onChanged();
                            }, `已恢复 ${s} / ${c} 的自动价格`)
                          }
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
      {(fam.invalidOverrides?.length ?? 0) > 0 && (
        <p className="error">
          失效的手动价格（对应的规格已不存在）：
          {fam.invalidOverrides!.map((o) => `${o.size} / ${o.color} / ${o.printCount} / ${o.craft} / ${o.logistics} ${showPrice(o.price)}`).join('；')}
        </p>
      )}
    </div>
  );
}

function PriceCell({
  price,
  overridden,
  disabled,
  onSet,
  onClear,
  testId,
  label,
}: {
  price: string;
  overridden: boolean;
  disabled: boolean;
  /** answers null when saved, else why it was not */
  onSet: (p: string) => Promise<string | null>;
  onClear: () => void;
  testId: string;
  label: string;
}) {
  const [v, setV] = useState(price);
  const [msg, setMsg] = useState<{ kind: 'error' | 'ok'; text: string } | null>(null);
  const msgId = useId();
  // Enter, then the blur of a disabled field: one save.
  const saving = useRef(false);
  useEffect(() => setV(price), [price]);
  useUnsavedEdits(v !== price);
  const commit = async () => {
    if (v === price || saving.current) return;
    const problem = priceProblem(v);
    if (problem) {
      setMsg({ kind: 'error', text: problem });
      return;
    }
    setMsg(null);
    saving.current = true;
    const failure = await onSet(v.trim()).finally(() => (saving.current = false));
    if (failure !== null) {
      // The stored price stays: shown again, with why the new one was not kept.
      setV(price);
      setMsg({ kind: 'error', text: `${failure}；已恢复为 ${showPrice(price)}` });
    }
  };
  return (
    <span style={{ display: 'inline-block' }}>
      <span className="row" style={{ gap: 2, flexWrap: 'nowrap' }}>
        <input
          data-testid={testId}
          aria-label={`${label}，价格`}
          aria-invalid={msg?.kind === 'error' ? true : undefined}
          aria-describedby={msg ? msgId : undefined}
          value={v}
          disabled={disabled}
          inputMode="decimal"
          onChange={(e) => {
            setV(e.target.value);
            if (msg?.kind === 'error') setMsg(null);
          }}
          onBlur={() => void commit()}
          onKeyDown={(e) => {
            if (e.key === 'Enter') void commit();
            if (e.key === 'Escape') {
              setV(price);
              setMsg(null);
            }
          }}
        />
        {overridden && (
          <button type="button" className="link" aria-label={`${label}：恢复自动价格`} title="恢复自动价格" data-testid={`${testId}-clear`} onClick={onClear}>
            ×
          </button>
        )}
      </span>
      {msg && (
        <span id={msgId} className={`cell-msg ${msg.kind}`} role={msg.kind === 'error' ? 'alert' : undefined} data-testid={`${testId}-msg`}>
          {msg.text}
        </span>
      )}
    </span>
  );
}
