import type React from 'react';
import { useEffect, useRef, useState } from 'react';
import { api } from '../api';
import type { Family } from '../../../../src/contract/families';
import type { OrganiseReport, OrganiseRunView, OrganiseStatus } from '../../../../src/contract/organise';
import type { Page } from '../../../../src/contract/page';
import { ErrorLine, Pager, Stat, Status } from '../common/components';
import { confirmDialog } from '../common/dialog';
import { fmtTime } from '../common/format';
import { useAction, useLoad } from '../common/hooks';
import { nameProblemText, useNames } from '../common/names';
import { useActor } from '../common/people';
import { hrefOf } from '../common/route';
import { ProgressBar, StateBadge } from '../common/run-status';
import { DIM_LABEL, type Dimension } from '../common/tags';

const PHASE: Record<string, string> = { parse: '识别货源名称、生成规格标签', group: '把货源归入系列', consolidate: '合并零散的系列', recompute: '核对系列数据' };
const KIND: Record<OrganiseRunView['kind'], string> = { organise: '整理货源', auto_group: '仅自动分组' };

/** Why organisation left a family (or a link) for an administrator, and what to look at. */
const REASON: Record<string, [string, string]> = {
  LOCKED: ['系列已锁定', '它与其他系列同名，但锁定的系列整理不会改动。请决定是否手动合并。'],
  MANUAL: ['手动系列', '它与自动整理出的系列同名。请决定是否手动合并。'],
  HAS_GOODS: ['已有商品', '两个同名系列都有商品，店铺链接会变化，整理不会自动合并。'],
  HAS_OVERRIDES: ['有手动价格', '合并会丢失它的手动价格，整理没有自动合并。'],
  CHANGED: ['整理期间被修改', '整理进行时有人修改了它，这次没有合并。再整理一次即可。'],
  MEMBERSHIP_CHANGED: ['货源在整理期间被移动', '整理进行时有人移动了这个货源，整理没有改动它。'],
};

/** A review entry: a family, or (MEMBERSHIP_CHANGED) a link an administrator moved during the run. */
type ReviewEntry = OrganiseReport['review'][number];

/** The report on the page: of the run just started here, or of a recorded run. */
interface Shown {
  runId: string | null;
  report: OrganiseReport;
}

/** Names of a few families, each read once (the review list is short). */
function useFamilyNames(ids: readonly string[]): Record<string, string> {
  const [names, setNames] = useState<Record<string, string>>({});
  const key = ids.join(',');
  useEffect(() => {
    let live = true;
    const wanted = [...new Set(ids)].slice(0, 100);
    void Promise.allSettled(wanted.map((id) => api.get<Family>(`/product-families/${id}`))).then((rs) => {
      if (!live) return;
      const out: Record<string, string> = {};
      rs.forEach((r, i) => (out[wanted[i]!] = r.status === 'fulfilled' ? r.value.name : '（已删除或合并的系列）'));
      setNames(out);
    });
    return () => {
      live = false;
    };
  }, [key]);
  return names;
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
  const actor = useActor();
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
  const shownRun = shown?.runId ? runs.data?.items.find((r) => r.runId === shown.runId) : undefined;
  return (
    <>
      <div className="card">
        <p className="muted" style={{ marginTop: 0 }}>
          整理货源会识别每个货源的名称、生成规格标签，并把同款货源归入同一个商品系列；已锁定和手动的系列不会被改动。
        </p>
        <div className="row">
          <button type="button" disabled={running || !statusLoaded} onClick={() => start('/product-families/organize', '整理完成')}>
            {running ? '整理中…' : '开始整理'}
          </button>
          <button
            type="button"
            className="secondary"
            disabled={running || !statusLoaded}
            onClick={async () => {
              const yes = await confirmDialog({
                title: '只做自动分组？',
                body: '只把已识别名称的货源归入系列，不重新识别名称、不生成标签，也不合并零散的系列。通常请用「开始整理」。',
                confirm: '只做自动分组',
              });
              if (yes) await start('/product-families/auto-group', '分组完成');
            }}
          >
            仅自动分组
          </button>
          <Status a={a} />
        </div>
      </div>
      {starting ? (
        <div className="card" data-testid="organise-status">
          <h2>
            正在整理… <StateBadge s="running" />
          </h2>
          <div className="muted">等待本次整理开始</div>
        </div>
      ) : (
        status &&
        status.state !== 'idle' && (
          <div className="card" data-testid="organise-status" data-started-at={status.startedAt ?? undefined}>
            <h2>
              {status.state === 'running' ? `正在${PHASE[status.phase ?? ''] ?? '整理'}` : '上次整理'} <StateBadge s={status.state} />
            </h2>
            <ProgressBar done={status.done} total={status.total} running={status.state === 'running'} testId="organise-progress" />
            <div className="muted">
              开始 {fmtTime(status.startedAt)} · 结束 {fmtTime(status.finishedAt)} · 发起 {actor(status.startedBy)}
            </div>
            {status.error && (
              <div className="error" role="alert">
                整理没有完成，请稍后重试
              </div>
            )}
          </div>
        )
      )}
      {shown && <ReportView shown={shown} total={shownRun?.total ?? null} />}
      <section className="card" aria-labelledby="runs-title">
        <h2 id="runs-title">整理记录</h2>
        <ErrorLine error={runs.error} />
        {runs.data && runs.data.items.length === 0 ? (
          <div className="muted">还没有整理过</div>
        ) : (
          <div className="scroll" tabIndex={0} role="region" aria-label="整理记录">
            <table data-testid="organise-runs">
              <thead>
                <tr>
                  <th scope="col">类型</th>
                  <th scope="col">状态</th>
                  <th scope="col">结果</th>
                  <th scope="col">发起</th>
                  <th scope="col">开始</th>
                  <th scope="col">结束</th>
                  <th scope="col">
                    <span className="visually-hidden">报告</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {runs.data?.items.map((r) => (
                  <tr key={r.runId} data-testid="organise-run" data-run-id={r.runId} className={shown?.runId === r.runId ? 'selected' : ''}>
                    <td>{KIND[r.kind] ?? '整理'}</td>
                    <td>
                      <StateBadge s={r.state} />
                      {r.error && <div className="error">没有完成</div>}
                    </td>
                    <td>
                      {r.counts.created !== undefined && <span className="badge">新建系列 {r.counts.created}</span>}
                      {!!r.counts.merged && <span className="badge">合并 {r.counts.merged}</span>}
                      {!!r.counts.review && <span className="badge amber">待确认 {r.counts.review}</span>}
                      {!!r.counts.unparseable && <span className="badge">名称无法识别 {r.counts.unparseable}</span>}
                      {!!r.counts.repaired && <span className="badge">校正系列 {r.counts.repaired}</span>}
                    </td>
                    <td data-testid="organise-run-by">{actor(r.startedBy)}</td>
                    <td>{fmtTime(r.startedAt)}</td>
                    <td>{fmtTime(r.finishedAt)}</td>
                    <td>
                      {r.state === 'succeeded' && (
                        <button type="button" className="secondary" disabled={opening === r.runId} onClick={() => openRun(r.runId)}>
                          查看报告
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}

const PAGE = 20;

/** A long list in a report: folded, and paged when opened. */
function Folded<T>({ title, items, render, testId, open = false }: { title: string; items: T[]; render: (x: T) => React.ReactNode; testId: string; open?: boolean }) {
  const [page, setPage] = useState(1);
  if (items.length === 0) return null;
  const shown = items.slice((page - 1) * PAGE, page * PAGE);
  return (
    <details className="card" data-testid={testId} open={open}>
      <summary>
        <h2 style={{ display: 'inline' }}>
          {title}（{items.length}）
        </h2>
      </summary>
      <ul className="report-list">{shown.map(render)}</ul>
      {items.length > PAGE && <Pager page={page} setPage={setPage} list={{ total: items.length, pageSize: PAGE }} />}
    </details>
  );
}

function ReportView({ shown, total }: { shown: Shown; total: number | null }) {
  const { report } = shown;
  const review = report.review as ReviewEntry[];
  const families = useFamilyNames(review.flatMap((r) => (r.familyId ? [r.familyId] : [])));
  const linkNames = useNames('origin-goods', [...review.flatMap((r) => ('linkId' in r ? [r.linkId] : [])), ...report.lockedSkipped.map((l) => l.id)]);
  const lockedFamilies = useFamilyNames(report.lockedSkipped.map((l) => l.familyId));
  const unparseable = report.unparseable.length;
  // Unparseable links append nothing: they are among the unchanged ones.
  const untouched = Math.max(0, report.unchanged - unparseable);
  return (
    <div data-testid="organise-report" data-run-id={shown.runId ?? undefined}>
      <section className="card" aria-labelledby="report-title">
        <h2 id="report-title">整理报告</h2>
        <p data-testid="report-summary">
          {total !== null && <>共检查 {total} 个货源：</>}
          {total !== null ? `${total - report.unchanged} 个有更新，` : ''}
          {untouched} 个无需改动，{unparseable} 个名称无法识别。
        </p>
        <div className="stats">
          <Stat value={report.created} label="新建的系列" testId="report-created" />
          <Stat value={report.attached} label="加入已有系列的货源" testId="report-attached" />
          <Stat value={report.merged} label="合并的系列" testId="report-merged" />
          <Stat value={report.parsed} label="名称识别有更新的货源" testId="report-parsed" />
          <Stat value={report.derived} label="规格标签有更新的货源" testId="report-derived" />
          {report.repaired > 0 && <Stat value={report.repaired} label="数据已校正的系列" testId="report-repaired" />}
        </div>
      </section>
      <section className="card" aria-labelledby="review-title" data-testid="organise-review-section">
        <h2 id="review-title">待人工确认（{review.length}）</h2>
        {review.length === 0 ? (
          <div className="muted">没有需要确认的系列</div>
        ) : (
          <table data-testid="organise-review">
            <thead>
              <tr>
                <th scope="col">系列或货源</th>
                <th scope="col">原因</th>
                <th scope="col">说明</th>
              </tr>
            </thead>
            <tbody>
              {review.map((r, i) => (
                <tr key={i} data-testid="organise-review-row">
                  <td>
                    {'linkId' in r ? (
                      <a href={hrefOf('links', { id: r.linkId })}>货源「{linkNames[r.linkId] ?? '…'}」</a>
                    ) : (
                      <a href={hrefOf('families', { id: r.familyId })}>{families[r.familyId] ?? '…'}</a>
                    )}
                  </td>
                  <td>{REASON[r.reason]?.[0] ?? '需要确认'}</td>
                  <td className="muted">
                    {REASON[r.reason]?.[1] ?? ''}
                    {'linkId' in r &&
                      (r.familyId ? (
                        <>
                          {' '}
                          它现在在系列 <a href={hrefOf('families', { id: r.familyId })}>{families[r.familyId] ?? '…'}</a>。
                        </>
                      ) : (
                        ' 它现在不属于任何系列。'
                      ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <Folded
        title="名称无法识别的货源"
        testId="report-unparseable"
        items={report.unparseable}
        render={(u) => (
          <li key={u.id} data-testid="unparseable-row">
            <a href={hrefOf('links', { id: u.id })}>{u.name}</a>
            {u.problem && (
              <div className="muted" data-testid="unparseable-why">
                {nameProblemText(u.problem)}
              </div>
            )}
          </li>
        )}
      />
      <Folded
        title="规格不全的货源（无法定价）"
        testId="report-incomplete"
        items={report.incomplete}
        render={(u) => (
          <li key={u.id}>
            <a href={hrefOf('links', { id: u.id })}>{u.name}</a> <span className="muted">缺{u.missing.map((d) => DIM_LABEL[d as Dimension] ?? d).join('、')}</span>
          </li>
        )}
      />
      <Folded
        title="因系列已锁定而没有归入的货源"
        testId="report-locked"
        items={report.lockedSkipped}
        render={(l) => (
          <li key={l.id}>
            <a href={hrefOf('links', { id: l.id })}>{linkNames[l.id] ?? '…'}</a> → <a href={hrefOf('families', { id: l.familyId })}>{lockedFamilies[l.familyId] ?? '…'}</a>
          </li>
        )}
      />
    </div>
  );
}
