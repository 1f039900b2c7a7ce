import { useEffect, useState } from 'react';
import { routeOf, type Route } from './common/address';
import { markEntry } from './common/page-memory';
import { CategoriesPage } from './pages/categories';
import { DetailPage } from './pages/detail';
import { HomePage } from './pages/home';
import { ListPage } from './pages/list';

interface Shown {
  route: Route;
  /** the history entry shown: a page is drawn afresh for each entry, and keeps its state per entry */
  entry: string;
}

const current = (): Shown => ({ route: routeOf(window.location.hash), entry: String((history.state as { key?: string } | null)?.key) });

export function App() {
  const [shown, setShown] = useState<Shown>(() => {
    markEntry(false);
    return current();
  });
  useEffect(() => {
    const on = () => {
      // A new entry (a tapped link) gets its key here; an entry gone back to has its own already.
      markEntry(true);
      setShown(current());
    };
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  const { route, entry } = shown;
  return (
    <div className="app">
      {/* Before the page in the document (it shows fixed at the bottom): reachable from the keyboard
          without tabbing past a list that grows as it is scrolled. */}
      {route.name !== 'detail' && (
        <nav className="tabbar" aria-label="主导航">
          <a href="#/" aria-current={route.name === 'home' ? 'page' : undefined}>
            首页
          </a>
          <a href="#/categories" aria-current={route.name === 'categories' ? 'page' : undefined}>
            分类
          </a>
          <a href="#/list" aria-current={route.name === 'list' ? 'page' : undefined}>
            全部商品
          </a>
        </nav>
      )}
      <main className="page">
        {route.name === 'home' && <HomePage key={entry} />}
        {route.name === 'categories' && <CategoriesPage key={entry} />}
        {route.name === 'list' && <ListPage key={entry} filters={route.filters} />}
        {route.name === 'detail' && <DetailPage key={entry} id={route.id} query={route.query} />}
      </main>
    </div>
  );
}
