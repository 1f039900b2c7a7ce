import type React from 'react';
import { useEffect, useState } from 'react';
import { api, setOnLoggedOut } from './api';
import { ApiError } from '../../shared/http';
import type { User } from '../../shared/responses/auth';
import { SyncPage } from './pages/sync';
import { OrganisePage } from './pages/organise';
import { GoodsTreePage } from './pages/tree';
import { GoodsPage } from './pages/goods';
import { BatchGoodsPage } from './pages/batch-goods';
import { LinksPage } from './pages/links';
import { StatsPage } from './pages/stats';
import { FamiliesPage } from './pages/families';
import { CategoriesPage } from './pages/categories';
import { CountriesPage } from './pages/countries';
import { SortingPage } from './pages/sorting';
import { TagGroupsPage } from './pages/tag-groups';
import { PositionsPage } from './pages/positions';
import { ProjectionsPage } from './pages/projections';

const PAGES: { path: string; label: string; el: () => React.ReactElement }[] = [
  { path: 'sync', label: '同步', el: () => <SyncPage /> },
  { path: 'organise', label: '整理', el: () => <OrganisePage /> },
  { path: 'tree', label: '商品树', el: () => <GoodsTreePage /> },
  { path: 'goods', label: '商品编辑', el: () => <GoodsPage /> },
  { path: 'batch-goods', label: '批量创建商品', el: () => <BatchGoodsPage /> },
  { path: 'links', label: '链接标签', el: () => <LinksPage /> },
  { path: 'stats', label: '链接统计', el: () => <StatsPage /> },
  { path: 'families', label: '商品系列', el: () => <FamiliesPage /> },
  { path: 'categories', label: '类目', el: () => <CategoriesPage /> },
  { path: 'countries', label: '国家', el: () => <CountriesPage /> },
  { path: 'sorting', label: '排序', el: () => <SortingPage /> },
  { path: 'tag-groups', label: '标签组', el: () => <TagGroupsPage /> },
  { path: 'positions', label: '展示位', el: () => <PositionsPage /> },
  { path: 'projections', label: '投影', el: () => <ProjectionsPage /> },
];

function useHashRoute(): string {
  const read = () => window.location.hash.replace(/^#\/?/, '').split('?')[0] || 'sync';
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const on = () => setRoute(read());
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return route;
}

export function App() {
  const [user, setUser] = useState<User | null | undefined>(undefined);
  const route = useHashRoute();
  useEffect(() => {
    setOnLoggedOut(() => setUser(null));
    api
      .get<{ user: User }>('/auth/me')
      .then((r) => setUser(r.user))
      .catch(() => setUser(null));
  }, []);
  if (user === undefined) return <div className="center muted">正在恢复会话…</div>;
  if (user === null) return <Login onLoggedIn={setUser} />;
  const page = PAGES.find((p) => p.path === route) ?? PAGES[0]!;
  return (
    <div className="layout">
      <nav className="side">
        <div className="brand">商品目录后台</div>
        {PAGES.map((p) => (
          <a key={p.path} href={`#/${p.path}`} className={p === page ? 'active' : ''} data-testid={`nav-${p.path}`}>
            {p.label}
          </a>
        ))}
        <div className="who">
          <span data-testid="current-user">{user.username}</span>
          <button
            className="link"
            onClick={async () => {
              await api.request('POST', '/auth/logout').catch(() => undefined);
              setUser(null);
            }}
          >
            退出
          </button>
        </div>
      </nav>
      <main className="content" data-testid={`page-${page.path}`}>
        <h1>{page.label}</h1>
        {page.el()}
      </main>
    </div>
  );
}

function Login({ onLoggedIn }: { onLoggedIn: (u: User) => void }) {
  const [mode, setMode] = useState<'login' | 'register'>('login');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);
  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setError('');
    setBusy(true);
    try {
      if (mode === 'register') {
        await api.request('POST', '/auth/register', { username, password });
        setNotice('管理员已创建，请登录');
        setMode('login');
      } else {
        const r = await api.request<{ user: User }>('POST', '/auth/login', { username, password });
        onLoggedIn(r.user);
      }
    } catch (err) {
      const e2 = err as ApiError;
      setError(
        e2.code === 'AUTH.INVALID_CREDENTIALS'
          ? '用户名或密码错误'
          : e2.code === 'AUTH.REGISTRATION_CLOSED'
            ? '已存在管理员，注册已关闭'
            : e2.message,
      );
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="center">
      <form className="card login" onSubmit={submit}>
        <h2>{mode === 'login' ? '管理员登录' : '首次使用：创建管理员'}</h2>
        {notice && <div className="ok">{notice}</div>}
        <label>
          用户名
          <input name="username" value={username} onChange={(e) => setUsername(e.target.value)} autoComplete="username" required />
        </label>
        <label>
          密码{mode === 'register' && '（至少 12 个字符）'}
          <input
            name="password"
            type="password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoComplete={mode === 'login' ? 'current-password' : 'new-password'}
            minLength={mode === 'register' ? 12 : undefined}
            required
          />
        </label>
        {error && <div className="error" role="alert">{error}</div>}
        <button type="submit" disabled={busy}>
          {mode === 'login' ? '登录' : '注册'}
        </button>
        <button type="button" className="link" onClick={() => setMode(mode === 'login' ? 'register' : 'login')}>
          {mode === 'login' ? '首次使用？创建管理员' : '已有账号？去登录'}
        </button>
      </form>
    </div>
  );
}
