import { useMemo, useState, type ReactNode } from 'react';
import type { HistoryItem } from '../../../../../src/contract/history';
import { ErrorLine, Loading } from '../components';
import { fmtTime } from '../format';
import { useLoad } from '../hooks';
import { useNames } from '../names';
import { useActor } from '../people';
import { collapse, describeChanges, describeData, namedIds } from './describe';
import { MEMBER_RECORDS, eventLabel, whyLabel } from './labels';

/** What a history is of: the address of its subject, its word, and how the subject as it was then reads. */
interface Subject<S> {
  /** `family`, `good` or `link`: the table's and the snapshot's test ids */
  kind: string;
  /** `/product-families/1`: the history is at `<path>/history` */
  path: string;
  /** 系列, 商品, 货源 */
  noun: string;
  /** the key of the subject in the `?at=` answer (`family`, `good`, `originGood`) */
  key: string;
  /** the heading of the changes column */
  changesLabel: string;
  /** said of an event that changed nothing of what that column shows */
  unchanged: string;
  /** the subject as it was at a time, from the `?at=` answer */
  snapshot: (s: S) => ReactNode;
}

/**
 * A family's, a good's or a link's history, newest first: who did what, when and why, and what then
 * showed differently (docs/api.md, History); a row opens the subject as it was then. The table
 * stacks its cells when its box is narrow (style.css, .history-box), so no column is cut off.
 */
export function History<S>({ subject }: { subject: Subject<S> }) {
  const { kind, path, noun, key } = subject;
  const h = useLoad<{ items: HistoryItem[]; total: number }>(`${path}/history`);
  const [at, setAt] = useState<string | null>(null);
  const snap = useLoad<{ at: string } & Record<string, S>>(at ? `${path}/history?at=${encodeURIComponent(at)}` : null);
  const actor = useActor();
  const items = h.data?.items ?? [];
  const ids = useMemo(() => namedIds(items), [h.data]);
  const names = { links: useNames('origin-goods', ids.links), goods: useNames('goods', ids.goods) };
  const rows = useMemo(() => collapse(items).reverse(), [h.data]);
  if (h.error) return <ErrorLine error={h.error} />;
  if (!h.data) return <Loading />;
  const columns = ['时间', '操作', '操作人', '原因', subject.changesLabel];
  return (
    <div className="history-box">
      {rows.length === 0 && <p className="muted">还没有历史记录</p>}
      <div className="scroll" tabIndex={0} role="region" aria-label="历史记录">
        <table data-testid={`${kind}-history`} className="history">
          <caption className="visually-hidden">{noun}的历史记录</caption>
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c} scope="col">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map(({ item: e, count }) => {
              const changes = describeChanges(e.changes, names, noun);
              const run = e.runChanges ? describeChanges(e.runChanges, names, noun) : [];
              const data = describeData(e, names.goods);
              return (
                <tr key={e.position} data-testid="history-row" className={e.at === at ? 'selected' : ''}>
                  <td data-label={columns[0]}>
                    <span className="when">{fmtTime(e.at)}</span>{' '}
                    <button type="button" className="link" onClick={() => setAt(e.at)}>
                      查看此时的{noun}
                    </button>
                  </td>
                  <td data-testid="history-type" data-label={columns[1]}>
                    {eventLabel(e)}
                    {count > 1 && <span className="muted"> ×{count}</span>}
                  </td>
                  <td data-testid="history-by" data-label={columns[2]}>
                    {actor(e.by)}
                  </td>
                  <td data-testid="history-why" data-label={columns[3]}>
                    {whyLabel(e.why)}
                  </td>
                  <td data-testid="history-changes" data-label={columns[4]}>
                    {data && <div>{data}</div>}
                    {changes.length > 0 && <div>{changes.join('；')}</div>}
                    {run.length > 0 && <div className="muted">本批合计：{run.join('；')}</div>}
                    {changes.length === 0 && run.length === 0 && (
                      <div className="muted" data-testid="history-nothing-visible">
                        {MEMBER_RECORDS.has(e.type) ? '变化见对应货源的记录' : subject.unchanged}
                      </div>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {at && (
        <div className="card inset" data-testid={`${kind}-snapshot`} role="region" aria-label={`当时的${noun}`}>
          <h2>
            {fmtTime(at)} 时的{noun}
          </h2>
          <ErrorLine error={snap.error} />
          {snap.data && snap.data.at === new Date(at).toISOString() && snap.data[key] ? subject.snapshot(snap.data[key]) : !snap.error && <Loading />}
        </div>
      )}
    </div>
  );
}
