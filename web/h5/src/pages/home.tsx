import type { PublicCategoryNode, PublicGoodItem } from '../../../../src/contract/storefront';
import { listHref } from '../common/address';
import { EmptyState, GoodCard, GridSkeleton, Img, ResourceError, SearchBox } from '../common/components';
import { SHOP_NAME, usePageTitle, useResource } from '../common/hooks';
import { firstPage, homeGoodsPath, MoreGoods, type HomeGoods } from './home-more';
import { usePageMemory } from '../common/page-memory';

interface Home {
  positions: { id: string; name: string; items: PublicGoodItem[] }[];
}

/**
 * Home: search, the top categories, the curated positions, and below them the whole catalogue,
 * newest first, a page at a time (./home-more.tsx; while no position is curated, it is all there is,
 * as 新品推荐). Its three reads start together: the first page of goods is asked for before the
 * positions have answered, since waiting for them first would double the blank time on a slow
 * network, and the read is a cached public one.
 */
export function HomePage() {
  const home = useResource<Home>('/public/home');
  const tree = useResource<{ items: PublicCategoryNode[] }>('/public/categories/tree');
  const newest = useResource<{ items: PublicGoodItem[]; total: number }>(homeGoodsPath(1));
  usePageTitle(SHOP_NAME);
  const curated = home.data?.positions.filter((p) => p.items.length > 0) ?? null;
  const fallback = curated !== null && curated.length === 0;
  // Nothing listed yet (a new shop, or the demo still being set up): said, with a way to look again.
  const nothing = fallback && newest.data !== null && newest.data.items.length === 0;
  const memory = usePageMemory<HomeGoods>(curated !== null && (newest.data !== null || newest.failure !== null));
  const again = () => {
    home.retry();
    tree.retry();
    newest.retry();
  };
  const more = (title: string) =>
    newest.data ? (
      <MoreGoods title={title} start={memory.restored ?? firstPage(newest.data)} onLoaded={memory.remember} />
    ) : newest.failure ? (
      <ResourceError of={newest} subject={title} more={[{ label: '逛逛全部商品', href: '#/list' }]} />
    ) : (
      <GridSkeleton count={6} />
    );
  return (
    <div data-testid="h5-home">
      <h1 className="sr-only">商城首页</h1>
      <SearchBox initial="" onSearch={(keyword) => (window.location.hash = listHref({ keyword }))} />
      {tree.data?.items.length !== 0 && (
        <nav className="chips" aria-label="商品分类">
          {tree.data ? (
            tree.data.items.map((c) => (
              <a key={c.id} className="chip" href={listHref({ categoryId: c.id })}>
                <Img className="icon" src={c.icon} alt="" tile={c.name.slice(0, 1)} />
                <span>{c.name}</span>
              </a>
            ))
          ) : tree.failure ? (
            <ResourceError compact of={tree} subject="分类" testId="home-categories-error" />
          ) : (
            <div className="chips-skeleton" data-testid="skeleton" aria-hidden="true">
              {[0, 1, 2, 3, 4].map((i) => (
                <div key={i} className="chip">
                  <div className="sk icon" />
                  <div className="sk sk-line tiny" />
                </div>
              ))}
            </div>
          )}
        </nav>
      )}
      {curated === null ? (
        home.failure ? (
          <ResourceError of={home} subject="首页商品" more={[{ label: '逛逛全部商品', href: '#/list' }]} />
        ) : (
          <GridSkeleton count={6} />
        )
      ) : nothing ? (
        <EmptyState title="暂时还没有商品" hint="商品正在上架中，晚些再来看看" actions={[{ label: '刷新', run: again, primary: true }]} />
      ) : fallback ? (
        more('新品推荐')
      ) : (
        <>
          {curated.map((p) => (
            <section key={p.id} aria-labelledby={`position-${p.id}`}>
              <h2 id={`position-${p.id}`}>{p.name}</h2>
              <div className="grid">
                {p.items.map((g) => (
                  <GoodCard key={g.goodId} g={g} />
                ))}
              </div>
            </section>
          ))}
          {more('全部商品')}
        </>
      )}
    </div>
  );
}
