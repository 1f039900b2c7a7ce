import type React from 'react';
import { useEffect, useRef, useState } from 'react';

/**
 * Modal dialogs in the page (never `window.confirm`): a confirmation says what will happen and
 * nothing happens until the administrator agrees. One dialog at a time; Escape or 取消 answers no;
 * focus stays inside while it is open and goes back where it was after.
 */
type Render = (close: (answer: boolean) => void) => React.ReactNode;
interface Open {
  render: Render;
  resolve: (answer: boolean) => void;
  label: string;
}

let show: ((d: Open | null) => void) | null = null;
const queue: Open[] = [];

/** Opens a dialog; answers what it was closed with (false for Escape). */
export function openDialog(label: string, render: Render): Promise<boolean> {
  return new Promise((resolve) => {
    queue.push({ render, resolve, label });
    if (queue.length === 1) show?.(queue[0]!);
  });
}

export interface ConfirmOptions {
  title: string;
  body?: React.ReactNode;
  confirm?: string;
  cancel?: string;
  danger?: boolean;
}

/** A yes/no question: the title, what it will do, and two buttons. */
export function confirmDialog(o: ConfirmOptions): Promise<boolean> {
  return openDialog(o.title, (close) => (
    <>
      <h2 id="dialog-title">{o.title}</h2>
      {o.body && <div className="dialog-body">{o.body}</div>}
      <div className="row dialog-actions">
        <button type="button" className="secondary" data-autofocus onClick={() => close(false)}>
          {o.cancel ?? '取消'}
        </button>
        <button type="button" className={o.danger ? 'danger-solid' : ''} onClick={() => close(true)}>
          {o.confirm ?? '确定'}
        </button>
      </div>
    </>
  ));
}

const FOCUSABLE = 'button:not([disabled]), a[href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Where the dialogs appear: once, at the root of the app. */
export function DialogHost() {
  const [open, setOpen] = useState<Open | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const before = useRef<Element | null>(null);
  useEffect(() => {
    show = setOpen;
    if (queue[0]) setOpen(queue[0]);
    return () => {
      show = null;
    };
  }, []);
  useEffect(() => {
    if (!open) return;
    before.current = document.activeElement;
    const el = box.current;
    (el?.querySelector<HTMLElement>('[data-autofocus]') ?? el?.querySelector<HTMLElement>(FOCUSABLE))?.focus();
  }, [open]);
  if (!open) return null;
  const close = (answer: boolean) => {
    queue.shift();
    open.resolve(answer);
    setOpen(queue[0] ?? null);
    const back = before.current as HTMLElement | null;
    if (!queue.length && back && document.contains(back)) back.focus();
  };
  const onKey = (e: React.KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      close(false);
      return;
    }
    if (e.key !== 'Tab') return;
    const items = [...(box.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])];
    if (!items.length) return;
    const first = items[0]!;
    const last = items[items.length - 1]!;
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };
  return (
    <div className="dialog-backdrop">
      <div className="dialog" role="dialog" aria-modal="true" aria-labelledby="dialog-title" ref={box} onKeyDown={onKey} data-testid="dialog">
        {open.render(close)}
      </div>
    </div>
  );
}
