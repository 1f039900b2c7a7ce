import { useEffect, useState } from 'react';
import { CategoriesPage } from './pages/categories';
import { DetailPage } from './pages/detail';
import { HomePage } from './pages/home';
import { ListPage } from './pages/list';

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
        {route.name === 'home' && <HomePage />}
        {route.name === 'categories' && <CategoriesPage />}
        {route.name === 'list' && <ListPage key={route.params.toString()} params={route.params} />}
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
