import { useState } from 'react';
import { api } from '../api';
import type { LinkDetail as Detail, LinkWithDetail } from '../../../../src/contract/links';
import type { SyncRunView } from '../../../../src/contract/sync';
import { ErrorLine, Loading, Status } from '../common/components';
import { fmtTime } from '../common/format';
import { useAction, useLoad } from '../common/hooks';

/**
 * A link's detail as the supplier last described it (variants, size chart, packaging, options and
 * media by colour), and a synchronisation of this one link's detail, also when already synced
 * (POST /sync/origin-goods/:id/detail answers the finished run, after the read models show it).
 */
export function LinkDetail({ id }: { id: string }) {
  const l = useLoad<LinkWithDetail>(`/origin-goods/${id}`);
  const a = useAction();
  const [run, setRun] = useState<SyncRunView | null>(null);
  const sync = () =>
    a.run(async () => {
      setRun(null);
      setRun(await api.request<SyncRunView>('POST', `/sync/origin-goods/${id}/detail`));
      l.reload();
    });
  if (l.error)
    return (
      <div className="card">
        <ErrorLine error={l.error} />
      </div>
    );
  if (!l.data)
    return (
      <div className="card">
        <Loading text="正在加载供应商详情…" />
      </div>
    );
  const d = l.data.detail;
  const changed = run ? (run.counts.created ?? 0) + (run.counts.changed ?? 0) : 0;
  const byColor = new Map<string, Detail['media']>();
  for (const m of [...(d?.media ?? [])].sort((x, y) => x.sort - y.sort)) byColor.set(m.color, [...(byColor.get(m.color) ?? []), m]);
  const chartColumns = [...new Set((d?.sizeChart ?? []).flatMap((r) => Object.keys(r)))].filter((k) => k !== 'size');
  return (
    <div className="card" data-testid="link-detail">
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <h2 style={{ margin: 0 }}>供应商详情</h2>
        <div className="row">
          <span className="muted" data-testid="detail-synced-at">
            详情同步于 {fmtTime(l.data.detailSyncedAt)}
          </span>
          <button type="button" className="secondary" disabled={a.busy} onClick={sync}>
            {a.busy ? '同步中…' : '重新同步这个货源的详情'}
          </button>
        </div>
      </div>
      <Status a={a} />
      {run && (
        <div data-testid="detail-sync-result" className={run.state === 'succeeded' ? 'ok' : 'error'}>
          {run.state === 'succeeded' ? (changed ? '详情已同步，有变化' : '详情已同步，没有变化') : '同步失败：供应商暂时没有返回这个货源的详情，请稍后重试'}
        </div>
      )}
      {!d ? (
        <p className="muted" data-testid="no-detail">
          还没有同步过详情
        </p>
      ) : (
        <>
          <h2>规格（{d.variants.length}）</h2>
          <div className="scroll" tabIndex={0} role="region" aria-label="规格" style={{ maxHeight: 320 }}>
            <table data-testid="link-variants">
              <thead>
                <tr>
                  <th scope="col">SKU</th>
                  <th scope="col">尺码</th>
                  <th scope="col">颜色</th>
                  <th scope="col">价格</th>
                  <th scope="col">库存</th>
                </tr>
              </thead>
              <tbody>
                {d.variants.length === 0 && (
                  <tr>
                    <td colSpan={5} className="muted">
                      没有规格
                    </td>
                  </tr>
                )}
                {d.variants.map((v, i) => (
                  <tr key={`${v.sku}-${i}`} data-testid="link-variant">
                    <td>{v.sku}</td>
                    <td>{v.size}</td>
                    <td>{v.color}</td>
                    <td>¥{v.price}</td>
                    <td>{v.stock}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <h2>图片（按颜色）</h2>
          <div data-testid="link-media">
            {byColor.size === 0 && <span className="muted">没有图片</span>}
            {[...byColor].map(([color, ms]) => (
              <div key={color} className="row" data-testid="link-media-color" data-color={color} style={{ marginBottom: 6 }}>
                <b style={{ minWidth: 64 }}>{color || '（无颜色）'}</b>
                {ms.map((m) => (
                  <a key={m.url} href={m.url} target="_blank" rel="noreferrer">
                    <img className="thumb" src={m.url} alt={`${color || '无颜色'} 图片 ${m.sort + 1}`} data-testid="link-media-image" />
                  </a>
                ))}
              </div>
            ))}
          </div>
          {d.sizeChart.length > 0 && (
            <>
              <h2>尺码表</h2>
              <table data-testid="link-size-chart">
                <thead>
                  <tr>
                    <th scope="col">尺码</th>
                    {chartColumns.map((c) => (
                      <th scope="col" key={c}>
                        {c}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {d.sizeChart.map((r, i) => (
                    <tr key={`${r.size}-${i}`}>
                      <td>{r.size}</td>
                      {chartColumns.map((c) => (
                        <td key={c}>{r[c] ?? ''}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          )}
          {d.packagingSpecs.length > 0 && (
            <>
              <h2>包装规格</h2>
              <table data-testid="link-packaging">
                <thead>
                  <tr>
                    <th scope="col">名称</th>
                    <th scope="col">重量（克）</th>
                    <th scope="col">尺寸（厘米）</th>
                  </tr>
                </thead>
                <tbody>
                  {d.packagingSpecs.map((p, i) => (
                    <tr key={`${p.name}-${i}`}>
                      <td>{p.name}</td>
                      <td>{p.weightGrams}</td>
                      <td>
                        {p.lengthCm} × {p.widthCm} × {p.heightCm}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          )}
          {d.options.length > 0 && (
            <>
              <h2>选项</h2>
              <ul data-testid="link-options">
                {d.options.map((o) => (
                  <li key={o.name}>
                    {o.name}：{o.values.join('、')}
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </div>
  );
}
