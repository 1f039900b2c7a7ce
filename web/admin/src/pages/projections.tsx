import { useEffect, useState } from 'react';
import { api } from '../api';
import type { ProjectionView } from '../../../../src/contract/projections';
import { ErrorLine, Status } from '../common/components';
import { confirmDialog } from '../common/dialog';
import { fmtTime } from '../common/format';
import { useAction, useLoad } from '../common/hooks';
import { StateBadge } from '../common/run-status';

/**
 * 系统状态: the data the admin and the shop read (the read models, "projections" in the code), each
 * kept up to date from the record of every change. Here an administrator sees whether each is up to
 * date, and can have one generated again from that record.
 */
const PROJECTION_STATE: Record<string, [string, string]> = { running: ['正常', 'green'], rebuilding: ['重新生成中', 'amber'], stopped: ['已停止', ''], failed: ['出错', 'red'] };
/** What each holds, in the words of the pages that show it. */
const PROJECTION_LABEL: Record<string, string> = {
  catalog: '商品、系列与货源',
  catalog_tree: '店铺的类目和国家',
  positions: '首页展示位',
  tags: '标签',
};
const labelOf = (name: string) => PROJECTION_LABEL[name] ?? '其他数据';

/** A projection's lastError as text (the runner records an object with a message): for whoever looks into it. */
const lastErrorText = (e: unknown) =>
  e == null ? '' : typeof e === 'string' ? e : typeof e === 'object' && 'message' in e ? String((e as { message: unknown }).message) : JSON.stringify(e);

/** A rebuild asked for here: the lastRebuildAt it started from, and whether the server has accepted it. */
interface PendingRebuild {
  from: string | null;
  accepted: boolean;
}

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
  const settle = (names: string[]) =>
    setPending((m) => {
      const n = { ...m };
      for (const k of names) delete n[k];
      return n;
    });
  useEffect(() => {
    const items = p.data?.items ?? [];
    const asked = items.filter((x) => pending[x.name]);
    const done = asked.filter((x) => rebuildOutcome(x, pending[x.name]!) === 'done');
    const bad = asked.filter((x) => rebuildOutcome(x, pending[x.name]!) === 'failed');
    if (done.length || bad.length) settle([...done, ...bad].map((x) => x.name));
    if (done.length) setRebuilt(done.map((x) => x.name));
    if (bad.length) setFailed((f) => [...f.filter((y) => !bad.some((x) => x.name === y.name)), ...bad.map((x) => ({ name: x.name, error: lastErrorText(x.lastError) }))]);
    const waiting = items.some((x) => x.state === 'rebuilding' || (pending[x.name] && rebuildOutcome(x, pending[x.name]!) === 'waiting'));
    if (!waiting && !(p.error && Object.keys(pending).length)) return;
    const t = setTimeout(p.reload, 500);
    return () => clearTimeout(t);
  }, [p.data, p.error]);
  const rebuild = async (x: ProjectionView) => {
    const yes = await confirmDialog({
      title: `重新生成「${labelOf(x.name)}」？`,
      body: (
        <p data-testid="rebuild-impact">
          将按记录从头重新处理 {x.eventsApplied} 条更改来生成这份数据。期间后台和店铺继续使用现有数据，完成后自动切换；数据越多用时越长。一般只在数据出错、技术人员建议时使用。
        </p>
      ),
      confirm: '重新生成',
    });
    if (!yes) return;
    await a.run(
      async () => {
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
      },
      `已开始重新生成「${labelOf(x.name)}」`,
    );
  };
  return (
    <>
      <p className="muted">后台和店铺读取的数据由每一次更改的记录生成。「待处理」是还没有反映到数据里的更改；通常几秒内就会处理完。</p>
      <div className="row">
        <button type="button" className="secondary" onClick={p.reload}>
          刷新
        </button>
        <Status a={a} />
        {rebuilt.length > 0 && (
          <span className="ok" data-testid="rebuild-done">
            重新生成完成：{rebuilt.map(labelOf).join('、')}
          </span>
        )}
        {failed.map((f) => (
          <span key={f.name} className="error" role="alert" data-testid="rebuild-failed" data-name={f.name}>
            重新生成失败：{labelOf(f.name)}，请联系技术人员
          </span>
        ))}
      </div>
      <ErrorLine error={p.error} />
      <div className="scroll" tabIndex={0} role="region" aria-label="数据状态">
        <table data-testid="projections">
          <thead>
            <tr>
              <th scope="col">数据</th>
              <th scope="col">状态</th>
              <th scope="col">待处理的更改</th>
              <th scope="col">落后</th>
              <th scope="col">上次重新生成</th>
              <th scope="col">问题</th>
              <th scope="col">
                <span className="visually-hidden">操作</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {p.data?.items.map((x) => (
              <tr key={x.name} data-testid="projection-row" data-name={x.name}>
                <th scope="row">{labelOf(x.name)}</th>
                <td data-testid="projection-state">
                  <StateBadge s={x.state} labels={PROJECTION_STATE} />
                  {x.state === 'rebuilding' && x.rebuild && <span className="muted"> 已处理 {x.rebuild.eventsDone} 条</span>}
                  {x.retrying && <span className="muted"> 正在重试</span>}
                </td>
                <td data-testid="projection-lag" title={x.lagApproximate ? '估计值：超过 10 000 条时不逐一计数' : undefined}>
                  {x.lagApproximate ? `约 ${x.lagEvents}` : x.lagEvents}
                </td>
                <td>{x.lagSeconds > 0 ? `${x.lagSeconds} 秒` : '—'}</td>
                <td data-testid="projection-rebuilt-at">{fmtTime(x.lastRebuildAt)}</td>
                <td>
                  {x.lastError != null ? (
                    <details className="error">
                      <summary>更新出错</summary>
                      <span lang="en">{lastErrorText(x.lastError)}</span>
                    </details>
                  ) : (
                    <span className="muted">无</span>
                  )}
                </td>
                <td>
                  <button
                    type="button"
                    className="secondary"
                    disabled={a.busy || x.state === 'rebuilding' || x.name in pending}
                    onClick={() => void rebuild(x)}
                    aria-label={x.name in pending ? `正在重新生成「${labelOf(x.name)}」` : `重新生成「${labelOf(x.name)}」`}
                  >
                    {x.name in pending ? '重新生成中…' : '重新生成'}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
