import { useEffect, useRef, useState } from 'react';
import { api } from '../api';
import type { OrganiseReport, OrganiseRunView, OrganiseStatus } from '../../../shared/responses/organise';
import type { Page } from '../../../shared/responses/page';
import { ErrorLine, Status } from '../common/components';
import { fmtTime } from '../common/format';
import { useAction, useLoad } from '../common/hooks';
import { ProgressBar, StateBadge } from '../common/run-status';
import { DIM_LABEL, type Dimension } from '../common/tags';

const PHASE: Record<string, string> = { parse: '解析链接名称、派生标签', group: '自动分组', consolidate: '合并碎片系列', recompute: '重算系列' };
const KIND: Record<OrganiseRunView['kind'], string> = { organise: '整理', auto_group: '仅自动分组' };
const REASON: Record<string, string> = { LOCKED: '系列已锁定', MANUAL: '手工系列', HAS_GOODS: '已有商品', HAS_OVERRIDES: '有覆盖价', CHANGED: '整理期间被修改' };

/** The report on the page: of the run just started here, or of a recorded run. */
interface Shown {
  runId: string | null;
  report: OrganiseReport;
}

export function OrganisePage() {
  const [shown, setShown] = useState<Shown | null>(null);
  const [status, setStatus] = useState<OrganiseStatus | null>(null);
  const [statusLoaded, setStatusLoaded] = useState(false);
  // After a click: the startedAt of the run the page knew then. A status of that run (or older) is
  // not the run just asked for, however late it arrives; meanwhile the card says the run is starting.
  const previous = useRef<{ startedAt: string | null } | null>(null);
  const [starting, setStarting] = useState(false);
  const a = useAction();
  const runs = useLoad<Page<OrganiseRunView>>('/product-families/organize/runs?pageSize=20');
  const [opening, setOpening] = useState('');
  // The report comes with the answer to the POST; meanwhile (and when the page opens on a run
  // started elsewhere) the status endpoint gives the phase and the progress.
  const running = a.busy || starting || status?.state === 'running';
  const runningNow = useRef(running);
  runningNow.current = running;
  const kick = useRef<() => void>(() => undefined);
  // One status request at a time for as long as the page is open: the next 500 ms after the
  // previous answer while a run goes, otherwise when a run is started here (kick).
  useEffect(() => {
    let open = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let next: () => void = () => undefined;
    void (async () => {
      while (open) {
        // A failed request keeps the last known status; the next one tries again.
        const st = await api.get<OrganiseStatus>('/product-families/organize/status').catch(() => null);
        if (!open) return;
        const p = previous.current;
        const stale = !st || (p !== null && (!st.startedAt || (p.startedAt !== null && new Date(st.startedAt) <= new Date(p.startedAt))));
        if (!stale) {
          previous.current = null;
          setStarting(false);
          setStatus(st);
        }
        setStatusLoaded(true);
        await new Promise<void>((r) => {
          next = r;
          if (runningNow.current) timer = setTimeout(r, 500);
        });
      }
    })();
    kick.current = () => next();
    return () => {
      open = false;
      clearTimeout(timer);
      next();
    };
  }, []);
  // The list of runs follows the status: a run that starts or ends (here or in another process) shows.
  useEffect(() => {
    if (status) runs.reload();
  }, [status?.runId, status?.state]);
  // Opened without a run of its own, the page shows the report of the latest run that has one; a
  // report that arrives after this page's own run answered is not shown over it.
  const latest = runs.data?.items.find((r) => r.state === 'succeeded');
  useEffect(() => {
    if (!latest || shown) return;
    let live = true;
    api
      .get<{ report: OrganiseReport | null }>(`/product-families/organize/runs/${latest.runId}`)
      .then((r) => live && r.report && setShown((cur) => cur ?? { runId: latest.runId, report: r.report! }))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [latest?.runId]);
  const openRun = (runId: string) =>
    a.run(async () => {
      setOpening(runId);
      try {
        const r = await api.get<{ report: OrganiseReport | null }>(`/product-families/organize/runs/${runId}`);
        if (r.report) setShown({ runId, report: r.report });
      } finally {
        setOpening('');
      }
    });
  const start = (path: string, ok: string) => {
    previous.current = { startedAt: status?.startedAt ?? null };
    setStarting(true);
    kick.current();
    return a.run(async () => {
      try {
        const { runId, ...report } = await api.request<OrganiseReport & { runId?: string }>('POST', path);
        setShown({ runId: runId ?? null, report });
        runs.reload();
      } catch (e) {
        // No run of ours to wait for.
        previous.current = null;
        setStarting(false);
        throw e;
      }
    }, ok);
  };
  return (
    <>
      <div className="card row">
        <button disabled={running || !statusLoaded} onClick={() => start('/product-families/organize', '整理完成')}>
          {running ? '整理中…' : '开始整理'}
        </button>
        <button className="secondary" disabled={running || !statusLoaded} onClick={() => start('/product-families/auto-group', '分组完成')}>
          仅自动分组
        </button>
        <Status a={a} />
      </div>
      {starting ? (
        <div className="card" data-testid="organise-status">
          <h2>正在整理… <StateBadge s="running" /></h2>
          <div className="muted">等待本次整理开始</div>
        </div>
      ) : status && status.state !== 'idle' && (
        <div className="card" data-testid="organise-status" data-started-at={status.startedAt ?? undefined}>
          <h2>
            {status.state === 'running' ? `正在${PHASE[status.phase ?? ''] ?? '整理'}` : '上次整理'} <StateBadge s={status.state} />
          </h2>
          <ProgressBar done={status.done} total={status.total} running={status.state === 'running'} testId="organise-progress" />
          <div className="muted">开始 {fmtTime(status.startedAt)} · 结束 {fmtTime(status.finishedAt)}</div>
          {status.error && <div className="error" role="alert">{status.error}</div>}
        </div>
      )}
      <div className="card">
        <h2>整理记录</h2>
        <ErrorLine error={runs.error} />
        {runs.data && runs.data.items.length === 0 ? <div className="muted">还没有整理过</div> : (
          <table data-testid="organise-runs">
            <thead><tr><th>类型</th><th>状态</th><th>进度</th><th>结果</th><th>发起人</th><th>开始</th><th>结束</th><th></th></tr></thead>
            <tbody>
              {runs.data?.items.map((r) => (
                <tr key={r.runId} data-testid="organise-run" data-run-id={r.runId} className={shown?.runId === r.runId ? 'selected' : ''}>
                  <td>{KIND[r.kind] ?? r.kind}</td>
                  <td><StateBadge s={r.state} />{r.error && <div className="error">{r.error}</div>}</td>
                  <td>{r.done}/{r.total}</td>
                  <td>
                    {r.counts.parsed !== undefined && <span className="badge">解析 {r.counts.parsed}</span>}
                    {r.counts.created !== undefined && <span className="badge">新建 {r.counts.created}</span>}
                    {r.counts.merged !== undefined && <span className="badge">合并 {r.counts.merged}</span>}
                    {!!r.counts.repaired && <span className="badge amber">修复聚合 {r.counts.repaired}</span>}
                    {!!r.counts.review && <span className="badge amber">复核 {r.counts.review}</span>}
                    {!!r.counts.unparseable && <span className="badge">无法解析 {r.counts.unparseable}</span>}
                  </td>
                  <td>{r.startedBy}</td>
                  <td>{fmtTime(r.startedAt)}</td>
                  <td>{fmtTime(r.finishedAt)}</td>
                  <td>
                    {r.state === 'succeeded' && (
                      <button className="secondary" disabled={opening === r.runId} onClick={() => openRun(r.runId)}>查看报告</button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      {shown && <ReportView shown={shown} />}
    </>
  );
}

function ReportView({ shown }: { shown: Shown }) {
  const { report } = shown;
  const stats: [keyof OrganiseReport, string][] = [['parsed', '已解析'], ['derived', '已派生标签'], ['attached', '已归入系列'], ['created', '新建系列'], ['merged', '合并'], ['unchanged', '未变'], ['repaired', '修复聚合']];
  return (
    <div data-testid="organise-report" data-run-id={shown.runId ?? undefined}>
      <div className="card">
        <h2>整理报告 {shown.runId && <span className="muted">#{shown.runId}</span>}</h2>
        {stats.filter(([k]) => report[k] !== undefined).map(([k, l]) => (
          <span className="stat" key={k}><b>{report[k] as number}</b>{l}</span>
        ))}
      </div>
      <div className="card">
        <h2>无法解析的链接（{report.unparseable.length}）</h2>
        {report.unparseable.length === 0 ? <div className="muted">无</div> : (
          <table><thead><tr><th>链接 ID</th><th>名称</th></tr></thead><tbody>
            {report.unparseable.map((u) => <tr key={u.id}><td><a href={`#/links?id=${u.id}`}>{u.id}</a></td><td>{u.name}</td></tr>)}
          </tbody></table>
        )}
        {report.incomplete && report.incomplete.length > 0 && (
          <>
            <h2>标签不完整（{report.incomplete.length}）</h2>
            <table><thead><tr><th>链接 ID</th><th>名称</th><th>缺少维度</th></tr></thead><tbody>
              {report.incomplete.map((u) => <tr key={u.id}><td><a href={`#/links?id=${u.id}`}>{u.id}</a></td><td>{u.name}</td><td>{u.missing.map((d) => DIM_LABEL[d as Dimension] ?? d).join('、')}</td></tr>)}
            </tbody></table>
          </>
        )}
      </div>
      <div className="card">
        <h2>人工复核（{report.review.length}）</h2>
        {report.review.length === 0 ? <div className="muted">无</div> : (
          <table data-testid="organise-review"><thead><tr><th>对象</th><th>原因</th></tr></thead><tbody>
            {report.review.map((r, i) =>
              'linkId' in r ? (
                <tr key={i} data-testid="organise-review-row">
                  <td>链接 <a href={`#/links?id=${r.linkId}`}>{r.linkId}</a></td>
                  <td>
                    整理期间已被管理员移动，本次整理未改动它；现在{r.familyId ? <>在系列 <a href={`#/families?id=${r.familyId}`}>{r.familyId}</a></> : '不属于任何系列'}
                  </td>
                </tr>
              ) : (
                <tr key={i} data-testid="organise-review-row">
                  <td>系列 <a href={`#/families?id=${r.familyId}`}>{r.familyId}</a></td>
                  <td>{REASON[r.reason] ?? r.reason} <span className="muted">{r.reason}</span></td>
                </tr>
              ),
            )}
          </tbody></table>
        )}
        {report.lockedSkipped && report.lockedSkipped.length > 0 && (
          <>
            <h2>因系列锁定而跳过（{report.lockedSkipped.length}）</h2>
            <table><thead><tr><th>链接 ID</th><th>系列</th></tr></thead><tbody>
              {report.lockedSkipped.map((l) => (
                <tr key={l.id}><td><a href={`#/links?id=${l.id}`}>{l.id}</a></td><td><a href={`#/families?id=${l.familyId}`}>{l.familyId}</a></td></tr>
              ))}
            </tbody></table>
          </>
        )}
      </div>
    </div>
  );
}
