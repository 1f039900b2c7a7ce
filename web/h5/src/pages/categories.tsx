import { useState } from 'react';
import type { PublicCategoryNode } from '../../../shared/responses/storefront';
import { Img } from '../common/components';
import { yuan } from '../common/format';
import { useFetch } from '../common/hooks';

export function CategoriesPage() {
  const tree = useFetch<{ items: PublicCategoryNode[] }>('/public/categories/tree');
  const [sel, setSel] = useState<string | null>(null);
  const top = tree.data?.items ?? [];
  const current = top.find((c) => c.id === sel) ?? top[0];
  return (
    <div className="cats" data-testid="h5-categories">
      <aside>
        {top.map((c) => (
          <button key={c.id} className={c === current ? 'on' : ''} onClick={() => setSel(c.id)}>{c.name}</button>
        ))}
      </aside>
      <div className="catbody">
        {current && (
          <>
            <a className="all" href={`#/list?categoryId=${current.id}`}>全部{current.name}（{current.familyCount}）</a>
            {current.children.map((c2) => (
              <div key={c2.id}>
                <h3><a href={`#/list?categoryId=${c2.id}`}>{c2.name}</a> <small>{c2.familyCount} 款 · {yuan(c2.lowestPrice)}起</small></h3>
                <div className="grid3">
                  {c2.children.map((c3) => (
                    <a key={c3.id} href={`#/list?categoryId=${c3.id}`} className="leaf">
                      <Img className="icon" src={c3.icon} alt={c3.name} />
                      <span>{c3.name}</span>
                    </a>
                  ))}
                </div>
              </div>
            ))}
          </>
        )}
      </div>
    </div>
  );
}
