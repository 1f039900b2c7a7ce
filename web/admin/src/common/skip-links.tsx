import type React from 'react';
import { useEffect, useSyncExternalStore } from 'react';

/**
 * Skip links: the first stops of the Tab order, hidden until focused, that take the keyboard past the
 * menu and the list to the place of the work. 跳到正文 is always there; a page adds its own while it
 * shows the place (跳到价格矩阵, 跳到保存), with useSkipLink. Following one focuses its target.
 */
interface Skip {
  id: number;
  label: string;
  target: () => HTMLElement | null;
}

let skips: readonly Skip[] = [];
let lastId = 0;
const listeners = new Set<() => void>();
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};
const publish = (next: readonly Skip[]) => {
  skips = next;
  for (const l of listeners) l();
};

/** Offers a skip link named `label` to what `target` holds, while `on`. */
export function useSkipLink(label: string, target: React.RefObject<HTMLElement | null>, on = true) {
  useEffect(() => {
    if (!on) return;
    const s: Skip = { id: ++lastId, label, target: () => target.current };
    publish([...skips, s]);
    return () => publish(skips.filter((x) => x !== s));
  }, [label, on]);
}

const go = (e: React.MouseEvent, el: HTMLElement | null) => {
  e.preventDefault();
  el?.focus();
};

export function SkipLinks() {
  const list = useSyncExternalStore(subscribe, () => skips);
  return (
    <div className="skips" data-testid="skip-links">
      <a className="skip" href="#main" onClick={(e) => go(e, document.getElementById('main'))}>
        跳到正文
      </a>
      {list.map((s) => (
        <a key={s.id} className="skip" href="#main" onClick={(e) => go(e, s.target())}>
          {s.label}
        </a>
      ))}
    </div>
  );
}
