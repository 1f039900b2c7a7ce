import { useEffect, useRef, useState } from 'react';

/** How long a change can be taken back: long enough to read the toast and reach 撤销. */
const UNDO_MS = 8000;

export interface UndoOffer {
  /** a new one for each change: the time starts again */
  id: number;
  /** what was done, in words */
  text: string;
  undo: () => Promise<unknown>;
}

/**
 * What was just done, with 撤销 for UNDO_MS: a toast in a polite live region (read out when it
 * appears), its button next in the Tab order after the place it speaks of. The time stands still
 * while the pointer or the focus is on it. After 撤销 the focus goes to `back` (the button is gone).
 */
export function UndoToast({ offer, onClose, back }: { offer: UndoOffer | null; onClose: () => void; back: () => HTMLElement | null }) {
  const [held, setHeld] = useState(false);
  const [busy, setBusy] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!offer || held || busy) return;
    const t = setTimeout(onClose, UNDO_MS);
    return () => clearTimeout(t);
  }, [offer, held, busy]);
  useEffect(() => setHeld(false), [offer?.id]);
  const undo = async () => {
    if (!offer) return;
    setBusy(true);
    try {
      await offer.undo();
    } finally {
      setBusy(false);
      onClose();
      back()?.focus();
    }
  };
  return (
    <div className="toast-host" role="status" aria-live="polite">
      {offer && (
        <div
          className="toast"
          ref={box}
          data-testid="undo-toast"
          onFocus={() => setHeld(true)}
          onBlur={(e) => !box.current?.contains(e.relatedTarget as Node | null) && setHeld(false)}
          onMouseEnter={() => setHeld(true)}
          onMouseLeave={() => setHeld(box.current?.contains(document.activeElement) ?? false)}
        >
          <span>{offer.text}</span>
          <button type="button" className="secondary" disabled={busy} onClick={() => void undo()}>
            撤销
          </button>
        </div>
      )}
    </div>
  );
}
