import { useEffect, useState } from 'react';
import { api } from '../api';
import type { ScheduledTick, SyncRunView, SyncSchedule } from '../../../../src/contract/sync';
import { ErrorLine, Status } from '../common/components';
import { confirmDialog } from '../common/dialog';
import { fmtTime } from '../common/format';
import { useAction, useLoad } from '../common/hooks';
import { useActor } from '../common/people';
import { ProgressBar, StateBadge } from '../common/run-status';
import { scheduleText, whenText } from '../common/schedule';

const KIND: Record<string, string> = { categories: '类目', origin_goods: '货源', details: '货源详情' };

const RunProgress = ({ run }: { run: SyncRunView }) => <ProgressBar done={run.progress.done} total={run.progress.total} running={run.state === 'running'} testId="run-progress" />;

const SCHEDULE_LABEL: Record<keyof SyncSchedule, string> = { categories: '类目', goods: '货源', details: '货源详情（有变化或还没同步过的）' };

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
  'the worker was busy past the next tick': '后台任务繁忙，错过了这次运行',
  'no worker claimed it': '没有正在运行的后台任务进程',
};

/**
 * The scheduled synchronisations (run by the worker), in words: when each runs next, its last run and
 * how that went, and every recent tick that did not run (missed, or failed to start and being retried).
 */
function ScheduleCard() {
  const schedule = useLoad<SyncSchedule>('/sync/schedule');
  return (
    <section className="card" data-testid="sync-schedule" aria-labelledby="schedule-title">
      <h2 id="schedule-title">自动同步计划</h2>
      <ErrorLine error={schedule.error} />
      {schedule.data && (
        <div className="scroll" tabIndex={0} role="region" aria-label="自动同步计划">
          <table>
            <thead>
              <tr>
                <th scope="col">同步内容</th>
                <th scope="col">计划</th>
                <th scope="col">上次运行</th>
                <th scope="col">下次运行</th>
              </tr>
            </thead>
            <tbody>
              {(Object.keys(SCHEDULE_LABEL) as (keyof SyncSchedule)[]).map((k) => {
                const job = schedule.data![k];
                const notRun = job.recent.filter((t) => t.outcome === 'missed' || t.outcome === 'failed');
                return (
                  <tr key={k} data-testid={`schedule-${k}`}>
                    <th scope="row">{SCHEDULE_LABEL[k]}</th>
                    <td data-testid={`schedule-${k}-when`}>{scheduleText(job.cron)}</td>
                    <td data-testid={`schedule-${k}-last`}>
                      {job.lastRun ? (
                        <>
                          {fmtTime(job.lastRun.dueAt)} {job.lastRun.runState && <StateBadge s={job.lastRun.runState} />}
                        </>
                      ) : (
                        '—'
                      )}
                      {notRun.map((t) => (
                        <div key={t.dueAt} data-testid={`schedule-${k}-not-run`}>
                          <StateBadge s={t.outcome} labels={TICK} /> {fmtTime(t.dueAt)}
                          {t.detail && (
                            <span className="muted">
                              （{DETAIL[t.detail] ?? t.detail}
                              {t.outcome === 'failed' ? '，将自动重试' : ''}）
                            </span>
                          )}
                        </div>
                      ))}
                    </td>
                    <td data-testid={`schedule-${k}-next`}>{job.next ? whenText(job.next) : '—'}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export function SyncPage() {
  const runs = useLoad<{ items: SyncRunView[] }>('/sync/runs');
  const [live, setLive] = useState<SyncRunView | null>(null);
  const a = useAction();
  const actor = useActor();
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
      // The list shows the new run at once; a run that is over before this first read (a short one)
      // is never polled, so this is also the only reload it gets.
      runs.reload();
    });
  const confirmDelist = async (held: NonNullable<SyncRunView['held']>) => {
    const yes = await confirmDialog({
      title: `确认下架 ${held.wouldDelist} 个货源？`,
      body: (
        <p>
          供应商这次的列表里少了 {held.wouldDelist} 个货源（在售 {held.listed} 个，超过 {Math.round(held.maxShare * 100)}%
          的保护线）。确认后会重新同步，并把这些货源下架；它们的商品会从店铺中消失。
        </p>
      ),
      confirm: '确认下架',
      danger: true,
    });
    if (yes) await start('/sync/origin-goods', { confirmDelist: true });
  };
  return (
    <>
      <div className="card">
        <p className="muted" style={{ marginTop: 0 }}>
          同步会从供应商读取最新的类目、货源和货源详情；只有变化的内容会被更新。
        </p>
        <div className="row">
          <button type="button" disabled={a.busy || live?.state === 'running'} onClick={() => start('/sync/categories')}>
            同步类目
          </button>
          <button type="button" disabled={a.busy || live?.state === 'running'} onClick={() => start('/sync/origin-goods')}>
            同步货源
          </button>
          <button type="button" disabled={a.busy || live?.state === 'running'} onClick={() => start('/sync/details')}>
            同步货源详情
          </button>
          <Status a={a} />
        </div>
      </div>
      {live && (
        <section className="card" data-testid="live-run" aria-live="polite" aria-label={live.state === 'running' ? '当前同步' : '上次同步'}>
          {/* 正在同步 only while it runs: a run that has ended says so, and when. */}
          <h2 data-testid="live-run-title">
            {live.state === 'running' ? '正在同步' : '上次同步'}：{KIND[live.kind] ?? '数据'} <StateBadge s={live.state} />
            {live.state !== 'running' && live.finishedAt && <span className="muted title-note"> · 结束于 {fmtTime(live.finishedAt)}</span>}
          </h2>
          <RunProgress run={live} />
          <Counts counts={live.counts} />
          {live.state === 'held' && live.held && (
            <p data-testid="held-delisting">
              供应商这次的列表缺少 {live.held.wouldDelist} / {live.held.listed} 个在售货源，超过 {Math.round(live.held.maxShare * 100)}%，为防误操作没有下架任何货源。
              <button type="button" className="danger" disabled={a.busy} onClick={() => void confirmDelist(live.held!)}>
                确认下架
              </button>
            </p>
          )}
          {live.errors.length > 0 && <RunErrors errors={live.errors} />}
        </section>
      )}
      <ScheduleCard />
      <section className="card" aria-labelledby="recent-title">
        <h2 id="recent-title">最近的同步</h2>
        <ErrorLine error={runs.error} />
        <div className="scroll" tabIndex={0} role="region" aria-label="最近的同步">
          <table data-testid="sync-runs">
            <thead>
              <tr>
                <th scope="col">内容</th>
                <th scope="col">状态</th>
                <th scope="col">进度</th>
                <th scope="col">结果</th>
                <th scope="col">发起</th>
                <th scope="col">开始</th>
                <th scope="col">结束</th>
              </tr>
            </thead>
            <tbody>
              {runs.data?.items.length === 0 && (
                <tr>
                  <td colSpan={7} className="muted">
                    还没有同步过
                  </td>
                </tr>
              )}
              {runs.data?.items.map((r) => (
                <tr key={r.runId} data-testid="sync-run">
                  <td>{KIND[r.kind] ?? '数据'}</td>
                  <td>
                    <StateBadge s={r.state} />
                  </td>
                  <td>
                    {r.progress.done}/{r.progress.total ?? '?'}
                  </td>
                  <td>
                    <Counts counts={r.counts} />
                    {r.errors.length > 0 && <span className="badge red">{r.errors.length} 项出错</span>}
                  </td>
                  <td data-testid="sync-run-by">{actor(r.startedBy)}</td>
                  <td>{fmtTime(r.startedAt)}</td>
                  <td>{fmtTime(r.finishedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}

/** A run's failures: how many, in words; the supplier's own messages folded away for whoever looks into them. */
function RunErrors({ errors }: { errors: SyncRunView['errors'] }) {
  return (
    <div className="error" role="alert">
      {errors.length} 项没有同步成功，下次同步会再试。
      <details>
        <summary>技术信息（供排查问题）</summary>
        <ul lang="en">
          {errors.slice(0, 20).map((e, i) => (
            <li key={i}>{e.message}</li>
          ))}
        </ul>
      </details>
    </div>
  );
}

const COUNT_LABEL: Record<string, string> = { created: '新增', changed: '变更', unchanged: '未变', delisted: '下架', relisted: '重新上架', failed: '失败' };
function Counts({ counts }: { counts: Record<string, number> }) {
  return (
    <span>
      {Object.entries(counts)
        .filter(([k]) => COUNT_LABEL[k])
        .map(([k, v]) => (
          <span key={k} className="badge">
            {COUNT_LABEL[k]} {v}
          </span>
        ))}
    </span>
  );
}
