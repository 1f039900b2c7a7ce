import { useEffect, useState } from 'react';
import { api } from '../api';
import type { ScheduledTick, SyncRunView, SyncSchedule } from '../../../shared/responses/sync';
import { ErrorLine, Status } from '../common/components';
import { fmtTime } from '../common/format';
import { useAction, useLoad } from '../common/hooks';
import { ProgressBar, StateBadge } from '../common/run-status';

const KIND: Record<string, string> = { categories: '类目', origin_goods: '商品链接', details: '链接详情' };

const RunProgress = ({ run }: { run: SyncRunView }) => <ProgressBar done={run.progress.done} total={run.progress.total} running={run.state === 'running'} testId="run-progress" />;

const SCHEDULE_LABEL: Record<keyof SyncSchedule, string> = { categories: '类目', goods: '商品链接', details: '链接详情（变更或未同步）' };

/** What became of a tick, as a badge. */
const TICK: Record<ScheduledTick['outcome'], [string, string]> = {
  starting: ['启动中', 'blue'],
  started: ['已启动', 'green'],
  skipped: ['已跳过', ''],
  failed: ['启动失败', 'red'],
  missed: ['错过', 'red'],
};
/** The reasons the service gives, in the administrator's words. */
const DETAIL: Record<string, string> = {
  'previous run still going': '上一次仍在运行',
  'the worker was busy past the next tick': '工作进程繁忙，错过了这次运行',
  'no worker claimed it': '没有运行中的工作进程（worker）',
};

/**
 * The scheduled synchronisations (run by the worker): when each runs next, its last run and how that
 * went, and every recent tick that did not run (missed, or failed to start and being retried).
 */
function ScheduleCard() {
  const schedule = useLoad<SyncSchedule>('/sync/schedule');
  return (
    <div className="card" data-testid="sync-schedule">
      <h2>定时同步</h2>
      <ErrorLine error={schedule.error} />
      {schedule.data && (
        <table>
          <thead>
            <tr><th>类型</th><th>计划</th><th>上次运行</th><th>下次运行</th></tr>
          </thead>
          <tbody>
            {(Object.keys(SCHEDULE_LABEL) as (keyof SyncSchedule)[]).map((k) => {
              const job = schedule.data![k];
              const notRun = job.recent.filter((t) => t.outcome === 'missed' || t.outcome === 'failed');
              return (
                <tr key={k} data-testid={`schedule-${k}`}>
                  <td>{SCHEDULE_LABEL[k]}</td>
                  <td><code>{job.cron ?? '关闭'}</code></td>
                  <td data-testid={`schedule-${k}-last`}>
                    {job.lastRun ? <>{fmtTime(job.lastRun.dueAt)} {job.lastRun.runState && <StateBadge s={job.lastRun.runState} />}</> : '—'}
                    {notRun.map((t) => (
                      <div key={t.dueAt} data-testid={`schedule-${k}-not-run`}>
                        <StateBadge s={t.outcome} labels={TICK} /> {fmtTime(t.dueAt)}
                        {t.detail && <span className="muted">（{DETAIL[t.detail] ?? t.detail}{t.outcome === 'failed' ? '，将自动重试' : ''}）</span>}
                      </div>
                    ))}
                  </td>
                  <td data-testid={`schedule-${k}-next`}>{job.next ? fmtTime(job.next) : '—'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </div>
  );
}

export function SyncPage() {
  const runs = useLoad<{ items: SyncRunView[] }>('/sync/runs');
  const [live, setLive] = useState<SyncRunView | null>(null);
  const a = useAction();
  // Poll the started run until it finishes.
  useEffect(() => {
    if (!live || live.state !== 'running') return;
    const t = setTimeout(async () => {
      try {
        const r = await api.get<SyncRunView>(`/sync/runs/${live.runId}`);
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
      setLive(await api.get<SyncRunView>(`/sync/runs/${runId}`));
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
