/** The states of runs and projections, as their badges show them. */
const STATE: Record<string, [string, string]> = {
  running: ['进行中', 'blue'],
  succeeded: ['成功', 'green'],
  failed: ['失败', 'red'],
  held: ['待确认下架', 'amber'],
  rebuilding: ['重新生成中', 'amber'],
  stopped: ['已停止', ''],
};

export function StateBadge({ s, labels = STATE }: { s: string; labels?: Record<string, [string, string]> }) {
  const [label, cls] = labels[s] ?? STATE[s] ?? ['状态未知', ''];
  return <span className={`badge ${cls}`}>{label}</span>;
}

export function ProgressBar({ done, total, running, testId }: { done: number; total: number | null; running: boolean; testId: string }) {
  const pct = total ? Math.round((done / total) * 100) : running ? 0 : 100;
  return (
    <div className="row">
      <div className="progress">
        <div style={{ width: `${pct}%` }} />
      </div>
      <span data-testid={testId}>
        {done}/{total}
      </span>
    </div>
  );
}
