import type { LinkStatsCategory, LinkStatsCountry } from '../../../shared/responses/links';
import { ErrorLine } from '../common/components';
import { useLoad } from '../common/hooks';

const COLUMNS: [keyof LinkStatsCategory, string][] = [
  ['links', '链接'],
  ['organised', '已整理'],
  ['grouped', '已归入系列'],
  ['delisted', '已下架'],
  ['primaryReferences', '主链接引用'],
  ['secondaryReferences', '合并引用'],
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
      {!t.data && !t.error && <div className="card muted">加载中…</div>}
      {t.data && (
        <div className="card" data-testid="stats-totals">
          {COLUMNS.map(([k, label]) => (
            <span key={k} className="stat" data-testid={`stats-total-${k}`}><b>{sum(all, k)}</b>{label}</span>
          ))}
        </div>
      )}
      <div className="card tree">
        {t.data?.items.length === 0 && <div className="muted">还没有链接</div>}
        {t.data?.items.map((c) => (
          <details key={String(c.country)} open data-testid="stats-country" data-country={c.country ?? ''}>
            <summary><b>{c.country ?? '未解析国家'}</b> <span className="muted">{sum(c.categories, 'links')} 个链接，合并引用 {sum(c.categories, 'secondaryReferences')}</span></summary>
            <table style={{ margin: '6px 0 12px', tableLayout: 'fixed' }}>
              <thead><tr><th>类目</th>{COLUMNS.map(([k, l]) => <th key={k}>{l}</th>)}</tr></thead>
              <tbody>
                {c.categories.map((x) => (
                  <tr key={String(x.categoryId)} data-testid="stats-row" data-category-id={x.categoryId ?? ''}>
                    <td>{x.categoryName ?? '未分类'}</td>
                    {COLUMNS.map(([k]) => <td key={k} data-testid={`stats-${k}`}>{x[k] as number}</td>)}
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        ))}
      </div>
    </>
  );
}
