import { useEffect, useState } from 'react';
import { api, type Page } from '../api';
import { ErrorLine, Status, fmtTime, useAction, useLoad } from './common';

interface Run {
  runId: string;
  kind: string;
  state: 'running' | 'succeeded' | 'failed' | 'held';
  /** a listing pass that would have delisted too many links: what it held back */
  held?: { wouldDelist: number; listed: number; maxShare: number } | null;
  startedAt: string;
  finishedAt: string | null;
  progress: { done: number; total: number };
  counts: Record<string, number>;
  errors: { message: string; item?: unknown }[];
}

const KIND: Record<string, string> = { categories: '类目', origin_goods: '商品链接', details: '链接详情' };
const STATE: Record<string, [string, string]> = {
  running: ['进行中', 'blue'],
  succeeded: ['成功', 'green'],
  failed: ['失败', 'red'],
  held: ['待确认下架', 'amber'],
  rebuilding: ['重建中', 'amber'],
  stopped: ['已停止', ''],
};

export function StateBadge({ s, labels = STATE }: { s: string; labels?: Record<string, [string, string]> }) {
  const [label, cls] = labels[s] ?? STATE[s] ?? [s, ''];
  return <span className={`badge ${cls}`}>{label}</span>;
}

export function ProgressBar({ done, total, running, testId }: { done: number; total: number; running: boolean; testId: string }) {
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

const RunProgress = ({ run }: { run: Run }) => <ProgressBar done={run.progress.done} total={run.progress.total} running={run.state === 'running'} testId="run-progress" />;

type Schedule = Record<'categories' | 'goods' | 'details', { cron: string | null; next: string | null }>;
const SCHEDULE_LABEL: Record<keyof Schedule, string> = { categories: '类目', goods: '商品链接', details: '链接详情（变更或未同步）' };

/** The scheduled synchronisations (run by the worker) and when each runs next. */
function ScheduleCard() {
  const schedule = useLoad<Schedule>('/sync/schedule');
  return (
    <div className="card" data-testid="sync-schedule">
      <h2>定时同步</h2>
      <ErrorLine error={schedule.error} />
      {schedule.data && (
        <table>
          <thead>
            <tr><th>类型</th><th>计划</th><th>下次运行</th></tr>
          </thead>
          <tbody>
            {(Object.keys(SCHEDULE_LABEL) as (keyof Schedule)[]).map((k) => (
              <tr key={k} data-testid={`schedule-${k}`}>
                <td>{SCHEDULE_LABEL[k]}</td>
                <td><code>{schedule.data![k].cron ?? '关闭'}</code></td>
                <td data-testid={`schedule-${k}-next`}>{schedule.data![k].next ? fmtTime(schedule.data![k].next) : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

export function SyncPage() {
  const runs = useLoad<{ items: Run[] }>('/sync/runs');
  const [live, setLive] = useState<Run | null>(null);
  const a = useAction();
  // Poll the started run until it finishes.
  useEffect(() => {
    if (!live || live.state !== 'running') return;
    const t = setTimeout(async () => {
      try {
        const r = await api.get<Run>(`/sync/runs/${live.runId}`);
        setLive(r);
        if (r.state !== 'running') runs.reload();
      } catch {
        /* keep the last known state; the next tick tries again */
        setLive({ ...live });
      }
    }, 500);
    return () => clearTimeout(t);
  }, [live]);
  const start = (path: string, body?: unknown) =>
    a.run(async () => {
      const { runId } = await api.request<{ runId: string }>('POST', path, body);
      setLive(await api.get<Run>(`/sync/runs/${runId}`));
    });
  return (
    <>
      <div className="card row">
        <button disabled={a.busy || live?.state === 'running'} onClick={() => start('/sync/categories')}>同步类目</button>
        <button disabled={a.busy || live?.state === 'running'} onClick={() => start('/sync/origin-goods')}>同步商品链接</button>
        <button disabled={a.busy || live?.state === 'running'} onClick={() => start('/sync/details')}>同步链接详情</button>
        <Status a={a} />
      </div>
      <ScheduleCard />
      {live && (
        <div className="card" data-testid="live-run">
          <h2>
            当前任务：{KIND[live.kind] ?? live.kind} <StateBadge s={live.state} />
          </h2>
          <RunProgress run={live} />
          <Counts counts={live.counts} />
          {live.state === 'held' && live.held && (
            <p data-testid="held-delisting">
              本次列表缺少 {live.held.wouldDelist} / {live.held.listed} 个在售链接，超过 {Math.round(live.held.maxShare * 100)}%，未下架任何链接。
              <button className="danger" disabled={a.busy} onClick={() => start('/sync/origin-goods', { confirmDelist: true })}>确认下架</button>
            </p>
          )}
          {live.errors.length > 0 && (
            <ul className="error">
              {live.errors.slice(0, 20).map((e, i) => (
                <li key={i}>{e.message}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      <h2>最近的同步</h2>
      <ErrorLine error={runs.error} />
      <table>
        <thead>
          <tr><th>类型</th><th>状态</th><th>进度</th><th>结果</th><th>开始</th><th>结束</th></tr>
        </thead>
        <tbody>
          {runs.data?.items.map((r) => (
            <tr key={r.runId}>
              <td>{KIND[r.kind] ?? r.kind}</td>
              <td><StateBadge s={r.state} /></td>
              <td>{r.progress.done}/{r.progress.total}</td>
              <td><Counts counts={r.counts} /></td>
              <td>{fmtTime(r.startedAt)}</td>
              <td>{fmtTime(r.finishedAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

const COUNT_LABEL: Record<string, string> = { created: '新增', changed: '变更', unchanged: '未变', delisted: '下架', relisted: '重新上架', failed: '失败' };
function Counts({ counts }: { counts: Record<string, number> }) {
  return (
    <span>
      {Object.entries(counts).map(([k, v]) => (
        <span key={k} className="badge">{COUNT_LABEL[k] ?? k} {v}</span>
      ))}
    </span>
  );
}

interface Projection {
  name: string; state: string; position: string | number | null; lagEvents: number; lagSeconds: number;
  lastError: unknown; lastRebuildAt: string | null; rebuild?: { eventsDone: number; startedAt: string } | null;
}

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
function rebuildOutcome(x: Projection, p: PendingRebuild): 'waiting' | 'done' | 'failed' {
  if (!p.accepted || x.state === 'rebuilding') return 'waiting';
  if (x.state === 'failed' || x.state === 'stopped' || x.lastError != null) return 'failed';
  if (x.state === 'running' && x.lastRebuildAt !== null && (p.from === null || new Date(x.lastRebuildAt) > new Date(p.from))) return 'done';
  return 'waiting';
}

export function ProjectionsPage() {
  const p = useLoad<{ items: Projection[] }>('/projections');
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
              <td>{x.lagEvents}</td>
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
export type { Page };
