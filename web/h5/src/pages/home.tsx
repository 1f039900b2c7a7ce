import { useState } from 'react';
import type { PublicCategoryNode, PublicGoodItem } from '../../../shared/responses/storefront';
import { GoodCard, Img } from '../common/components';
import { useFetch } from '../common/hooks';

export function HomePage() {
  const home = useFetch<{ positions: { id: string; name: string; items: PublicGoodItem[] }[] }>('/public/home');
  const tree = useFetch<{ items: PublicCategoryNode[] }>('/public/categories/tree');
  const [kw, setKw] = useState('');
  return (
    <div data-testid="h5-home">
      <form className="search" onSubmit={(e) => { e.preventDefault(); window.location.hash = `#/list?keyword=${encodeURIComponent(kw)}`; }}>
        <input type="search" placeholder="搜索商品" value={kw} onChange={(e) => setKw(e.target.value)} />
      </form>
      <div className="chips">
        {tree.data?.items.map((c) => (
          <a key={c.id} className="chip" href={`#/list?categoryId=${c.id}`}>
            <Img className="icon" src={c.icon} alt={c.name} />
            <span>{c.name}</span>
          </a>
        ))}
      </div>
      {home.error && <p className="error">{home.error}</p>}
      {home.data?.positions.map((p) => (
        <section key={p.id}>
          <h2>{p.name}</h2>
          <div className="grid">{p.items.map((g) => <GoodCard key={g.goodId} g={g} />)}</div>
        </section>
      ))}
      {home.data && home.data.positions.length === 0 && <HomeFallback />}
    </div>
  );
}

/** No curated positions yet: show the newest goods. */
function HomeFallback() {
  const d = useFetch<{ items: PublicGoodItem[] }>('/public/goods?sort=NEWEST&pageSize=10');
  return (
    <section>
      <h2>新品推荐</h2>
      <div className="grid">{d.data?.items.map((g) => <GoodCard key={g.goodId} g={g} />)}</div>
    </section>
  );
}
