import type { TreeItem, TreeCountry } from '../../../shared/responses/goods';
import { ErrorLine } from '../common/components';
import { useLoad } from '../common/hooks';

const goodCount = (items: TreeItem[]) => items.reduce((n, it) => n + (it.kind === 'family' ? 1 : it.goods.length), 0);

export function GoodsTreePage() {
  const t = useLoad<{ items: TreeCountry[] }>('/goods/tree');
  return (
    <div className="card tree">
      <ErrorLine error={t.error} />
      {!t.data && !t.error && <div className="muted">加载中…</div>}
      {t.data?.items.map((c) => (
        <details key={String(c.id)} open>
          <summary><b>{c.name ?? '未知国家'}</b> <span className="muted">{c.categories.length} 个类目</span></summary>
          <ul>
            {c.categories.map((cat) => (
              <li key={String(cat.id)}>
                <details>
                  <summary>{cat.name ?? '未分类'} <span className="muted">（{goodCount(cat.items)}）</span></summary>
                  <ul>
                    {cat.items.flatMap((it) =>
                      it.kind === 'family'
                        ? [
                            <li key={`family-${it.id}`} data-testid="tree-family">
                              <span className="badge blue">系列</span> <a href={`#/families?id=${it.id}`}>{it.name}</a>{' '}
                              <span className="muted">{it.configurationCount} 个配置</span>
                            </li>,
                          ]
                        : it.goods.map((g) => (
                            <li key={`good-${g.id}`} data-testid="tree-good">
                              <span className="badge">商品</span> <a href={`#/goods?id=${g.id}`}>{g.name}</a>
                            </li>
                          )),
                    )}
                  </ul>
                </details>
              </li>
            ))}
          </ul>
        </details>
      ))}
    </div>
  );
}
