import { useEffect, useMemo, useRef, useState } from 'react';
import { api } from './api';
import type { PublicCategoryNode, PublicCell, PublicGoodDetail, PublicGoodItem } from '../../shared/responses/storefront';

type Route = { name: 'home' } | { name: 'categories' } | { name: 'list'; params: URLSearchParams } | { name: 'detail'; id: string };

function parse(): Route {
  const [p, q] = window.location.hash.replace(/^#\/?/, '').split('?');
  const parts = (p ?? '').split('/');
  if (parts[0] === 'categories') return { name: 'categories' };
  if (parts[0] === 'list') return { name: 'list', params: new URLSearchParams(q ?? '') };
  if (parts[0] === 'goods' && parts[1]) return { name: 'detail', id: decodeURIComponent(parts[1]) };
  return { name: 'home' };
}

export function App() {
  const [route, setRoute] = useState(parse);
  useEffect(() => {
    const on = () => { setRoute(parse()); window.scrollTo(0, 0); };
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return (
    <div className="app">
      <div className="page">
        {route.name === 'home' && <Home />}
        {route.name === 'categories' && <Categories />}
        {route.name === 'list' && <List key={route.params.toString()} params={route.params} />}
        {route.name === 'detail' && <DetailPage key={route.id} id={route.id} />}
      </div>
      {route.name !== 'detail' && (
        <nav className="tabbar">
          <a href="#/" className={route.name === 'home' ? 'on' : ''}>首页</a>
          <a href="#/categories" className={route.name === 'categories' ? 'on' : ''}>分类</a>
          <a href="#/list" className={route.name === 'list' ? 'on' : ''}>全部商品</a>
        </nav>
      )}
    </div>
  );
}

function Img({ src, alt, className }: { src: string | null | undefined; alt: string; className?: string }) {
  const [bad, setBad] = useState(false);
  if (!src || bad) return <div className={`${className ?? ''} noimg`}>{alt.slice(0, 2)}</div>;
  return <img className={className} src={src} alt={alt} loading="lazy" onError={() => setBad(true)} />;
}

const yuan = (p: string | null | undefined) => (p ? `¥${p}` : '暂无报价');

function GoodCard({ g }: { g: PublicGoodItem }) {
  return (
    <a className="good" href={`#/goods/${g.goodId}`} data-testid="good-card">
      <Img className="cover" src={g.image} alt={g.name} />
      <div className="gname">{g.name}</div>
      {/* The good's tags in its tag colour (the name keeps the page's colour). */}
      {g.tags.length > 0 && (
        <div className="gtags" data-testid="good-tags">
          {g.tags.map((t) => <span key={t.id} className="gtag" style={g.tagFontColor ? { color: g.tagFontColor, borderColor: g.tagFontColor } : undefined}>{t.name}</span>)}
        </div>
      )}
      <div className="price">{yuan(g.price)}<small>起</small></div>
    </a>
  );
}

function useFetch<T>(path: string) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    let live = true;
    api.get<T>(path).then((d) => live && setData(d), (e) => live && setError(e.message));
    return () => { live = false; };
  }, [path]);
  return { data, error };
}

function Home() {
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

function Categories() {
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

const SORTS: [string, string][] = [['DEFAULT', '综合'], ['NEWEST', '新品'], ['PRICE_ASC', '价格↑'], ['PRICE_DESC', '价格↓']];

function List({ params }: { params: URLSearchParams }) {
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

const DIMS: [keyof Omit<PublicCell, 'price'>, keyof PublicGoodDetail['priceMatrix'], string][] = [
  ['size', 'sizes', '尺码'], ['color', 'colors', '颜色'], ['printCount', 'printCounts', '印花'], ['craft', 'crafts', '工艺'], ['logistics', 'logistics', '物流'],
];
type Choice = Omit<PublicCell, 'price'>;

function DetailPage({ id }: { id: string }) {
  const d = useFetch<PublicGoodDetail>(`/public/goods/${id}`);
  const [choice, setChoice] = useState<Partial<Choice>>({});
  const m = d.data?.priceMatrix;
  // Start on the cell the link names (#/goods/:id?size=…&color=…), else on the cheapest cell.
  useEffect(() => {
    if (!m?.cells.length) return;
    const q = new URLSearchParams(window.location.hash.split('?')[1] ?? '');
    const named = m.cells.find((c) => DIMS.every(([k]) => q.get(k) === c[k]));
    const start = named ?? [...m.cells].sort((a, b) => Number(a.price) - Number(b.price))[0]!;
    const { price: _p, ...k } = start;
    setChoice(k);
  }, [d.data]);
  const cell = useMemo(() => m?.cells.find((c) => DIMS.every(([k]) => c[k] === choice[k])), [m, choice]);
  /** Is value `v` of dimension `k` available together with the other current choices? */
  const available = (k: keyof Choice, v: string) => !!m?.cells.some((c) => c[k] === v && DIMS.every(([k2]) => k2 === k || choice[k2] === undefined || c[k2] === choice[k2]));
  const pick = (k: keyof Choice, v: string) => {
    const next = { ...choice, [k]: v };
    if (!m!.cells.some((c) => DIMS.every(([k2]) => c[k2] === next[k2]))) {
      // Not a cell: keep the new value, take the cheapest cell having it for the rest.
      const fit = m!.cells.filter((c) => c[k] === v).sort((a, b) => Number(a.price) - Number(b.price))[0];
      if (fit) { const { price: _p, ...kk } = fit; setChoice(kk); return; }
    }
    setChoice(next);
  };
  if (d.error) return <div className="page"><a href="#/list">‹ 返回</a><p className="error">{d.error}</p></div>;
  if (!d.data || !m) return <p className="hint">加载中…</p>;
  const g = d.data;
  const media = (choice.color && g.mediaByColor[choice.color]) || [];
  return (
    <div className="detail" data-testid="h5-detail">
      <div className="topbar"><a href="#/list" onClick={(e) => { e.preventDefault(); history.length > 1 ? history.back() : (window.location.hash = '#/list'); }}>‹ 返回</a></div>
      <div className="gallery" data-testid="gallery">
        {media.length ? media.map((x) => <Img key={x.id} className="slide" src={x.url} alt={`${g.name} ${choice.color}`} />) : <Img className="slide" src={g.image} alt={g.name} />}
      </div>
      {media.length > 0 && <div className="hint" data-testid="media-color">{choice.color} · {media.length} 张图</div>}
      <div className="info">
        <div className="bigprice" data-testid="cell-price">{cell ? `¥${cell.price}` : '该组合暂无报价'}</div>
        <h1>{g.name}</h1>
        {g.lowestPrice && <div className="hint">最低 ¥{g.lowestPrice} 起</div>}
      </div>
      <div className="selectors">
        {DIMS.map(([k, list, label]) => (
          <div key={k} className="sel" data-testid={`sel-${k}`}>
            <h4>{label}</h4>
            <div className="opts">
              {(m[list] as string[]).map((v) => (
                <button key={v} className={`${choice[k] === v ? 'on' : ''} ${available(k, v) ? '' : 'off'}`} onClick={() => pick(k, v)}>{v}</button>
              ))}
            </div>
          </div>
        ))}
      </div>
      {g.description && <div className="desc">{g.description}</div>}
      <SpecTable title="尺码表" data={g.sizeChart} />
      <SpecTable title="包装规格" data={g.packagingSpecs} />
    </div>
  );
}

/** Size charts and packaging specs arrive as rows of objects (or nothing); shown as a table. */
function SpecTable({ title, data }: { title: string; data: unknown }) {
  const rows = Array.isArray(data) ? (data as Record<string, unknown>[]).filter((r) => r && typeof r === 'object') : [];
  if (!rows.length) return null;
  const cols = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const label = (c: string) => SPEC_LABEL[c] ?? c;
  return (
    <div className="spec">
      <h4>{title}</h4>
      <table><thead><tr>{cols.map((c) => <th key={c}>{label(c)}</th>)}</tr></thead>
        <tbody>{rows.map((r, i) => <tr key={i}>{cols.map((c) => <td key={c}>{typeof r[c] === 'object' ? JSON.stringify(r[c]) : String(r[c] ?? '')}</td>)}</tr>)}</tbody></table>
    </div>
  );
}

const SPEC_LABEL: Record<string, string> = {
  size: '尺码', chest: '胸围(cm)', length: '衣长(cm)', sleeve: '袖长(cm)', shoulder: '肩宽(cm)', waist: '腰围(cm)', hip: '臀围(cm)',
  name: '规格', widthCm: '宽(cm)', heightCm: '高(cm)', lengthCm: '长(cm)', weightGrams: '重量(g)', quantity: '数量',
};
