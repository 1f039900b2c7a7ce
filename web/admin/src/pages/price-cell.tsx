import { useEffect, useId, useRef, useState } from 'react';
import { confirmDialog } from '../common/dialog';
import { farChange, priceProblem, showPrice, showRatio } from '../common/price';
import { useUnsavedEdits } from '../common/route';

/**
 * One cell of the price table. A price typed in it is saved as the cell's manual price on Enter or
 * when the cell is left; one far from the cell's price and its automatic price (beyond ×3 or ÷3,
 * common/price.ts) is asked about first, and 取消 puts the price back. What cannot be a price is never
 * sent: it says why beside the cell, also when the cell is left. Escape puts the price back.
 */
export function PriceCell({
  price,
  refs,
  overridden,
  disabled,
  onSet,
  onClear,
  testId,
  label,
}: {
  price: string;
  /** the prices a new one is compared with: the cell's own, and its automatic one when known */
  refs: readonly string[];
  overridden: boolean;
  disabled: boolean;
  /** answers null when saved, else why it was not */
  onSet: (p: string) => Promise<string | null>;
  onClear: () => void;
  testId: string;
  label: string;
}) {
  const [v, setV] = useState(price);
  const [msg, setMsg] = useState<string | null>(null);
  const msgId = useId();
  // One commit at a time: Enter, then the blur as the question or a disabled field takes the focus.
  const pending = useRef(false);
  useEffect(() => setV(price), [price]);
  useUnsavedEdits(v !== price);
  const restore = (why: string | null) => {
    setV(price);
    setMsg(why);
  };
  const commit = async () => {
    if (v === price || pending.current) return;
    const problem = priceProblem(v);
    if (problem) {
      setMsg(problem);
      return;
    }
    const next = v.trim();
    setMsg(null);
    pending.current = true;
    try {
      const far = farChange(next, refs);
      if (far && !(await askFar(label, price, next, far))) return restore(null);
      const failure = await onSet(next);
      // The stored price stays: shown again, with why the new one was not kept.
      if (failure !== null) restore(`${failure}；已恢复为 ${showPrice(price)}`);
    } finally {
      pending.current = false;
    }
  };
  return (
    <span style={{ display: 'inline-block' }}>
      <span className="row" style={{ gap: 2, flexWrap: 'nowrap' }}>
        <input
          data-testid={testId}
          aria-label={`${label}，价格${overridden ? '（手动价格）' : ''}`}
          aria-invalid={msg ? true : undefined}
          aria-describedby={msg ? msgId : undefined}
          value={v}
          disabled={disabled}
          inputMode="decimal"
          onChange={(e) => {
            setV(e.target.value);
            if (msg) setMsg(null);
          }}
          onBlur={() => void commit()}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              // The question opens within this key press and focuses its 取消: without this, the
              // same Enter would press 取消 too.
              e.preventDefault();
              void commit();
            }
            if (e.key === 'Escape') restore(null);
          }}
        />
        {overridden && (
          <button type="button" className="link" aria-label={`${label}：恢复自动价格`} title="恢复自动价格" data-testid={`${testId}-clear`} onClick={onClear}>
            ×
          </button>
        )}
      </span>
      {msg && (
        <span id={msgId} className="cell-msg error" role="alert" data-testid={`${testId}-msg`}>
          {msg}
        </span>
      )}
    </span>
  );
}

/** The question before a far price is saved: both prices, how many times, and what 取消 does. */
const askFar = (label: string, from: string, to: string, far: { ref: string; ratio: number }) =>
  confirmDialog({
    title: `新价格 ${showPrice(to)} 是原价 ${showPrice(far.ref)} 的 ${showRatio(far.ratio)} 倍，确定保存？`,
    body: (
      <p data-testid="far-price">
        {label}：{showPrice(from)} → {showPrice(to)}。相差这么大，可能是输错了；取消会恢复原价。
      </p>
    ),
    confirm: '保存新价格',
    cancel: '取消，恢复原价',
  });
