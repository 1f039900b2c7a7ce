import { useState } from 'react';
import type { PublicCategoryNode } from '../../../../src/contract/storefront';
import { listHref } from '../common/address';
import { EmptyState, Img, ResourceError, SkeletonLines } from '../common/components';
import { categorySummary } from '../common/format';
import { usePageTitle, useResource } from '../common/hooks';
import { usePageMemory } from '../common/page-memory';

/** The category tree: top categories on the side, the chosen one's subcategories beside them. */
export function CategoriesPage() {
  const tree = useResource<{ items: PublicCategoryNode[] }>('/public/categories/tree');
  usePageTitle('商品分类');
  const memory = usePageMemory<{ selected: string | null }>(tree.data !== null);
  const [sel, setSel] = useState<string | null>(memory.restored?.selected ?? null);
  const top = tree.data?.items ?? [];
  const current = top.find((c) => c.id === sel) ?? top[0];
  const choose = (id: string) => {
    setSel(id);
    memory.remember({ selected: id });
  };
  if (tree.failure && !tree.data)
    return (
      <div data-testid="h5-categories">
        <h1 className="sr-only">商品分类</h1>
        <ResourceError of={tree} subject="分类" more={[{ label: '返回首页', href: '#/' }]} />
      </div>
    );
  if (!tree.data)
    return (
      <div className="cats" data-testid="h5-categories">
        <h1 className="sr-only">商品分类</h1>
        <p className="sr-only" role="status">
          正在加载分类
        </p>
        <div className="cats-side" data-testid="skeleton">
          <SkeletonLines lines={['side', 'side', 'side', 'side']} />
        </div>
        <div className="catbody">
          <SkeletonLines lines={['', 'short', '', 'short', '']} />
        </div>
      </div>
    );
  if (!current)
    return (
      <div data-testid="h5-categories">
        <h1 className="sr-only">商品分类</h1>
        <EmptyState title="暂无分类" hint="商品还在上架中" actions={[{ label: '逛逛全部商品', href: '#/list', primary: true }]} />
      </div>
    );
  return (
    <div className="cats" data-testid="h5-categories">
      <h1 className="sr-only">商品分类</h1>
      <nav className="cats-side" aria-label="一级分类">
        {top.map((c) => (
          <button key={c.id} type="button" aria-pressed={c === current} onClick={() => choose(c.id)}>
            {c.name}
          </button>
        ))}
      </nav>
      <section className="catbody" aria-label={current.name}>
        <a className="all" href={listHref({ categoryId: current.id })}>
          全部{current.name}
          <small>{categorySummary(current.familyCount, current.lowestPrice)}</small>
        </a>
        {current.children.map((c2) => (
          <div key={c2.id}>
            <h2>
              <a href={listHref({ categoryId: c2.id })}>{c2.name}</a> <small>{categorySummary(c2.familyCount, c2.lowestPrice)}</small>
            </h2>
            {c2.children.length > 0 && (
              <div className="grid3">
                {c2.children.map((c3) => (
                  <a key={c3.id} href={listHref({ categoryId: c3.id })} className="leaf">
                    <Img className="icon" src={c3.icon} alt="" tile={c3.name.slice(0, 1)} />
                    <span>{c3.name}</span>
                  </a>
                ))}
              </div>
            )}
          </div>
        ))}
      </section>
    </div>
  );
}
