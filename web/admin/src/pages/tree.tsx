import type { TreeItem, TreeCountry } from '../../../../src/contract/goods';
import { ErrorLine, Loading } from '../common/components';
import { useLoad } from '../common/hooks';
import { hrefOf } from '../common/route';

const goodCount = (items: TreeItem[]) => items.reduce((n, it) => n + (it.kind === 'family' ? 1 : it.goods.length), 0);

/**
 * The goods by country and category: each family with its number of goods on sale there (its
 * configuration count, as the specification has it; the data also carries memberCount), and goods
 * without a family.
 */
export function GoodsTreePage() {
  const t = useLoad<{ items: TreeCountry[] }>('/goods/tree');
  return (
    <div className="card tree">
      <p className="muted" style={{ marginTop: 0 }}>
        按国家和类目列出商品系列；每个系列后面是它在这里在售的商品数。
      </p>
      <ErrorLine error={t.error} />
      {!t.data && !t.error && <Loading />}
      {t.data?.items.length === 0 && <p className="muted">还没有商品</p>}
      {t.data?.items.map((c) => (
        <details key={String(c.id)} open>
          <summary>
            <b>{c.name ?? '未设置国家'}</b> <span className="muted">{c.categories.length} 个类目</span>
          </summary>
          <ul>
            {c.categories.map((cat) => (
              <li key={String(cat.id)}>
                <details>
                  <summary>
                    {cat.name ?? '未设置类目'} <span className="muted">（{goodCount(cat.items)}）</span>
                  </summary>
                  <ul>
                    {cat.items.flatMap((it) =>
                      it.kind === 'family'
                        ? [
                            <li key={`family-${it.id}`} data-testid="tree-family">
                              <span className="badge blue">系列</span> <a href={hrefOf('families', { id: it.id })}>{it.name}</a>{' '}
                              <span className="muted" data-testid="tree-configurations">
                                在售商品 {it.configurationCount} 个
                              </span>
                            </li>,
                          ]
                        : it.goods.map((g) => (
                            <li key={`good-${g.id}`} data-testid="tree-good">
                              <span className="badge">商品</span> <a href={hrefOf('goods', { id: g.id })}>{g.name}</a>{' '}
                              <span className="muted">（不属于任何系列，店铺中不显示）</span>
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
