import { useEffect, useState } from 'react';
import { api } from '../api';
import type { ProjectionView } from '../../../shared/responses/projections';
import { ErrorLine, Status } from '../common/components';
import { fmtTime } from '../common/format';
import { useAction, useLoad } from '../common/hooks';
import { StateBadge } from '../common/run-status';

const PROJECTION_STATE: Record<string, [string, string]> = { running: ['运行中', 'green'], rebuilding: ['重建中', 'amber'], stopped: ['已停止', ''], failed: ['失败', 'red'] };

/** A projection's lastError as text (the runner records an object with a message). */
const lastErrorText = (e: unknown) => (e == null ? '' : typeof e === 'string' ? e : typeof e === 'object' && 'message' in e ? String((e as { message: unknown }).message) : JSON.stringify(e));

/** A rebuild asked for here: the lastRebuildAt it started from, and whether the server has accepted it. */
interface PendingRebuild { from: string | null; accepted: boolean }

/**
 * How a rebuild asked for here stands (docs/api.md, Shapes: Projections): finished when the projection runs again
 * with a newer lastRebuildAt; failed when it stopped or failed instead (or carries an error);
 * otherwise still going. Nothing is judged before the server has accepted the request.
 */
function rebuildOutcome(x: ProjectionView, p: PendingRebuild): 'waiting' | 'done' | 'failed' {
  if (!p.accepted || x.state === 'rebuilding') return 'waiting';
  if (x.state === 'failed' || x.state === 'stopped' || x.lastError != null) return 'failed';
  if (x.state === 'running' && x.lastRebuildAt !== null && (p.from === null || new Date(x.lastRebuildAt) > new Date(p.from))) return 'done';
  return 'waiting';
}

export function ProjectionsPage() {
  const p = useLoad<{ items: ProjectionView[] }>('/projections');
  const a = useAction();
  const [pending, setPending] = useState<Record<string, PendingRebuild>>({});
  const [rebuilt, setRebuilt] = useState<string[]>([]);
  const [failed, setFailed] = useState<{ name: string; error: string }[]>([]);
  const settle = (names: string[]) => setPending((m) => { const n = { ...m }; for (const k of names) delete n[k]; return n; });
  useEffect(() => {
    const items = p.data?.items ?? [];
    const asked = items.filter((x) => pending[x.name]);
    const done = asked.filter((x) => rebuildOutcome(x, pending[x.name]!) === 'done');
    const bad = asked.filter((x) => rebuildOutcome(x, pending[x.name]!) === 'failed');
    if (done.length || bad.length) settle([...done, ...bad].map((x) => x.name));
    if (done.length) setRebuilt(done.map((x) => x.name));
    if (bad.length) setFailed((f) => [...f.filter((y) => !bad.some((x) => x.name === y.name)), ...bad.map((x) => ({ name: x.name, error: lastErrorText(x.lastError) || (PROJECTION_STATE[x.state]?.[0] ?? x.state) }))]);
    const waiting = items.some((x) => x.state === 'rebuilding' || (pending[x.name] && rebuildOutcome(x, pending[x.name]!) === 'waiting'));
    if (!waiting && !(p.error && Object.keys(pending).length)) return;
    const t = setTimeout(p.reload, 500);
    return () => clearTimeout(t);
  }, [p.data, p.error]);
  return (
    <>
      <div className="row">
        <button className="secondary" onClick={p.reload}>刷新</button>
        <Status a={a} />
        {rebuilt.length > 0 && <span className="ok" data-testid="rebuild-done">重建完成：{rebuilt.join('、')}</span>}
        {failed.map((f) => <span key={f.name} className="error" role="alert" data-testid="rebuild-failed">重建失败：{f.name}（{f.error}）</span>)}
      </div>
      <ErrorLine error={p.error} />
      <table data-testid="projections">
        <thead><tr><th>投影</th><th>状态</th><th>位置</th><th>延迟（事件）</th><th>延迟（秒）</th><th>上次重建</th><th>错误</th><th></th></tr></thead>
        <tbody>
          {p.data?.items.map((x) => (
            <tr key={x.name} data-testid="projection-row" data-name={x.name}>
              <td>{x.name}</td>
              <td data-testid="projection-state">
                <StateBadge s={x.state} labels={PROJECTION_STATE} />
                {x.state === 'rebuilding' && x.rebuild && <span className="muted"> 已处理 {x.rebuild.eventsDone} 个事件</span>}
              </td>
              <td>{String(x.position ?? '—')}</td>
              <td data-testid="projection-lag" title={x.lagApproximate ? '估计值：超过 10 000 个事件时不逐一计数' : undefined}>{x.lagApproximate ? `约 ${x.lagEvents}` : x.lagEvents}</td>
              <td>{x.lagSeconds}</td>
              <td data-testid="projection-rebuilt-at">{fmtTime(x.lastRebuildAt)}</td>
              <td className="error">{lastErrorText(x.lastError)}</td>
              <td>
                <button className="secondary" disabled={a.busy || x.state === 'rebuilding' || x.name in pending}
                  onClick={() => a.run(async () => {
                    setRebuilt([]);
                    setFailed((f) => f.filter((y) => y.name !== x.name));
                    setPending((m) => ({ ...m, [x.name]: { from: x.lastRebuildAt, accepted: false } }));
                    try {
                      await api.request('POST', `/projections/${encodeURIComponent(x.name)}/rebuild`);
                    } catch (e) {
                      settle([x.name]);
                      throw e;
                    }
                    setPending((m) => ({ ...m, [x.name]: { from: x.lastRebuildAt, accepted: true } }));
                    p.reload();
                  }, `已开始重建 ${x.name}`)}>
                  {x.name in pending ? '重建中…' : '重建'}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
