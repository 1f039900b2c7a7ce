import { useEffect, useState } from 'react';
import { api } from '../api';
import type { BulkRun } from '../../../../src/contract/bulk';
import { CODE_TEXT } from './error-text';
import { ProgressBar, StateBadge } from './run-status';

/** How often a running bulk run is read again (GET /bulk-runs/:runId). */
const POLL_MS = 700;
/** The skipped items listed by name of their reason; the rest are counted. */
const SHOWN = 20;

/** A bulk run as it goes: read again until it has ended; `onEnd` once, when it has. */
export function useBulkRun(start: BulkRun | null, onEnd?: (run: BulkRun) => void) {
  const [run, setRun] = useState<BulkRun | null>(start);
  useEffect(() => setRun(start), [start]);
  const running = run?.state === 'running';
  useEffect(() => {
    if (!run) return;
    if (!running) {
      onEnd?.(run);
      return;
    }
    const t = setTimeout(() => {
      api.get<BulkRun>(`/bulk-runs/${run.runId}`).then(setRun, () => setRun({ ...run }));
    }, POLL_MS);
    return () => clearTimeout(t);
  }, [run]);
  return run;
}

const reason = (code: string | undefined) => (code && CODE_TEXT[code]) || '未能完成';

/** What became of the selection: progress while it runs, then done, unchanged and skipped (with why). */
export function BulkRunStatus({ run, unit }: { run: BulkRun; unit: string }) {
  const skipped = run.results.filter((r) => r.outcome === 'skipped');
  const unchanged = run.counts.done - run.counts.changed;
  return (
    <div data-testid="bulk-run" data-state={run.state} aria-live="polite">
      <div className="row">
        <StateBadge s={run.state} />
        <ProgressBar done={run.done} total={run.total} running={run.state === 'running'} testId="bulk-progress" />
      </div>
      <p data-testid="bulk-counts">
        已完成 {run.counts.done} 个{unit}
        {unchanged > 0 && `（其中 ${unchanged} 个原本就是这样）`}，跳过 {run.counts.skipped} 个
      </p>
      {run.error && (
        <p className="error" role="alert" data-testid="bulk-error">
          {reason(run.error.code)}
        </p>
      )}
      {skipped.length > 0 && (
        <ul className="impact" data-testid="bulk-skipped">
          {skipped.slice(0, SHOWN).map((r) => (
            <li key={r.id}>
              第 {r.index + 1} 项：{reason(r.code)}
            </li>
          ))}
          {skipped.length > SHOWN && <li>另有 {skipped.length - SHOWN} 个被跳过</li>}
        </ul>
      )}
    </div>
  );
}
