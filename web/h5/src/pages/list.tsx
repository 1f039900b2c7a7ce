import { useEffect, useRef, useState } from 'react';
import type { PublicGoodItem } from '../../../shared/responses/storefront';
import { api } from '../api';
import { GoodCard } from '../common/components';
import { useFetch } from '../common/hooks';

const SORTS: [string, string][] = [['DEFAULT', '综合'], ['NEWEST', '新品'], ['PRICE_ASC', '价格↑'], ['PRICE_DESC', '价格↓']];

export function ListPage({ params }: { params: URLSearchParams }) {
  const set = (k: string, v: string | null) => {
    const p = new URLSearchParams(params);
    if (v) p.set(k, v); else p.delete(k);
    window.location.hash = `#/list?${p.toString()}`;
  };
  const sort = params.get('sort') ?? 'DEFAULT';
  const tagIds = (params.get('tagIds') ?? '').split(',').filter(Boolean);
  const countries = useFetch<{ items: { id: string; name: string }[] }>('/public/countries');
  const groups = useFetch<{ items: { id: string; name: string; tags: { id: string; name: string; familyCount: number }[] }[] }>('/public/tag-groups');
  const [items, setItems] = useState<PublicGoodItem[]>([]);
  const [total, setTotal] = useState<number | null>(null);
  const [page, setPage] = useState(0);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState('');
  const [showFilters, setShowFilters] = useState(false);
  const sentinel = useRef<HTMLDivElement>(null);
  const done = total !== null && items.length >= total;
  const loadMore = () => {
    if (loading || done) return;
    setLoading(true);
    const q = new URLSearchParams(params);
    q.set('page', String(page + 1));
    q.set('pageSize', '20');
    api.get<{ items: PublicGoodItem[]; total: number }>(`/public/goods?${q.toString()}`).then(
      (r) => { setItems((xs) => [...xs, ...r.items]); setTotal(r.total); setPage(page + 1); setLoading(false); if (!r.items.length) setTotal(items.length); },
      (e) => { setError(e.message); setLoading(false); },
    );
  };
  // Infinite scroll: when the sentinel under the list comes into view, load the next page.
  useEffect(() => {
    const el = sentinel.current;
    if (!el) return;
    const io = new IntersectionObserver((es) => { if (es.some((e) => e.isIntersecting)) loadMore(); }, { rootMargin: '200px' });
    io.observe(el);
    return () => io.disconnect();
  });
  return (
    <div data-testid="h5-list">
      <div className="sorts">
        {SORTS.map(([k, l]) => <button key={k} className={k === sort ? 'on' : ''} onClick={() => set('sort', k === 'DEFAULT' ? null : k)}>{l}</button>)}
        <button className={showFilters || tagIds.length || params.get('countryId') ? 'on' : ''} onClick={() => setShowFilters(!showFilters)}>筛选</button>
      </div>
      {params.get('keyword') && <p className="hint">搜索「{params.get('keyword')}」 <a href="#/list">清除</a></p>}
      {showFilters && (
        <div className="filters">
          <h4>国家</h4>
          <div className="opts">
            <button className={!params.get('countryId') ? 'on' : ''} onClick={() => set('countryId', null)}>全部</button>
            {countries.data?.items.map((c) => <button key={c.id} className={params.get('countryId') === c.id ? 'on' : ''} onClick={() => set('countryId', c.id)}>{c.name}</button>)}
          </div>
          {groups.data?.items.map((g) => (
            <div key={g.id}>
              <h4>{g.name}</h4>
              <div className="opts">
                {g.tags.map((t) => {
                  const on = tagIds.includes(t.id);
                  return <button key={t.id} className={on ? 'on' : ''} onClick={() => set('tagIds', (on ? tagIds.filter((x) => x !== t.id) : [...tagIds, t.id]).join(',') || null)}>{t.name}</button>;
                })}
              </div>
            </div>
          ))}
        </div>
      )}
      <div className="grid">{items.map((g) => <GoodCard key={g.goodId} g={g} />)}</div>
      {error && <p className="error">{error} <button onClick={() => { setError(''); loadMore(); }}>重试</button></p>}
      <div ref={sentinel} className="more" data-testid="list-footer">
        {loading ? '加载中…' : done ? (items.length ? `共 ${total} 款，已经到底了` : '没有符合条件的商品') : ''}
      </div>
    </div>
  );
}
