import { useState, type ReactNode } from 'react';

/**
 * "历史" under a detail, folded: a history is replayed from the event log (docs/api.md, History), so
 * it is asked for only once the administrator opens it.
 */
export function HistorySection({ testId, children }: { testId: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="history-section" data-testid={testId} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>历史</summary>
      {open && children}
    </details>
  );
}
