import type { LinkStatsCategory, LinkStatsCountry } from '../../../../src/contract/links';
import { ErrorLine, Loading, Stat } from '../common/components';
import { useLoad } from '../common/hooks';

const COLUMNS: [keyof LinkStatsCategory, string][] = [
  ['links', '货源'],
  ['organised', '已整理'],
  ['grouped', '已归入系列'],
  ['delisted', '已下架'],
  ['primaryReferences', '建成商品'],
  ['secondaryReferences', '被合并到商品'],
];

const sum = (xs: LinkStatsCategory[], k: keyof LinkStatsCategory) => xs.reduce((n, x) => n + (x[k] as number), 0);

/**
 * Statistics of the links (GET /origin-goods/tree): by parsed country, then category, how many are
 * organised, grouped, delisted, and referenced by goods, as primary link or merged secondary one.
 */
export function StatsPage() {
  const t = useLoad<{ items: LinkStatsCountry[] }>('/origin-goods/tree');
  const all = t.data?.items.flatMap((c) => c.categories) ?? [];
  return (
    <>
      <ErrorLine error={t.error} />
      {!t.data && !t.error && <Loading />}
      {t.data && (
        <div className="card stats" data-testid="stats-totals">
          {COLUMNS.map(([k, label]) => (
            <Stat key={k} value={sum(all, k)} label={label} testId={`stats-total-${k}`} />
          ))}
        </div>
      )}
      <div className="card tree">
        {t.data?.items.length === 0 && <div className="muted">还没有货源</div>}
        {t.data?.items.map((c) => (
          <details key={String(c.country)} open data-testid="stats-country" data-country={c.country ?? ''}>
            <summary>
              <b>{c.country ?? '名称中没有识别出国家'}</b>{' '}
              <span className="muted">
                {sum(c.categories, 'links')} 个货源，被合并到商品 {sum(c.categories, 'secondaryReferences')} 次
              </span>
            </summary>
            <div className="scroll" tabIndex={0} role="region" aria-label={`${c.country ?? '未识别国家'}的货源统计`}>
              <table style={{ margin: '6px 0 12px' }}>
                <thead>
                  <tr>
                    <th scope="col">类目</th>
                    {COLUMNS.map(([k, l]) => (
                      <th scope="col" key={k}>
                        {l}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {c.categories.map((x) => (
                    <tr key={String(x.categoryId)} data-testid="stats-row" data-category-id={x.categoryId ?? ''}>
                      <th scope="row">{x.categoryName ?? '未设置类目'}</th>
                      {COLUMNS.map(([k]) => (
                        <td key={k} data-testid={`stats-${k}`}>
                          {x[k] as number}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        ))}
      </div>
    </>
  );
}
