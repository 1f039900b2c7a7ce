import type React from 'react';
import { useEffect, useId, useState } from 'react';
import { flushSync } from 'react-dom';
import { api, setOnLoggedOut } from './api';
import type { User } from '../../../src/contract/auth';
import { FieldError } from './common/components';
import { DialogHost } from './common/dialog';
import { errorText } from './common/error-text';
import { useRoute } from './common/route';
import { SkipLinks } from './common/skip-links';
import { OverviewPage } from './pages/overview';
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

interface PageDef {
  path: string;
  label: string;
  el: () => React.ReactElement;
}

/** The menu, grouped as a merchant thinks of the work; the words are the README's glossary. */
const GROUPS: { label: string; pages: PageDef[] }[] = [
  {
    label: '商品目录',
    pages: [
      { path: 'families', label: '商品系列', el: () => <FamiliesPage /> },
      { path: 'goods', label: '商品', el: () => <GoodsPage /> },
      { path: 'batch-goods', label: '批量创建商品', el: () => <BatchGoodsPage /> },
      { path: 'tree', label: '按国家和类目浏览', el: () => <GoodsTreePage /> },
      { path: 'categories', label: '类目', el: () => <CategoriesPage /> },
      { path: 'countries', label: '国家', el: () => <CountriesPage /> },
      { path: 'tag-groups', label: '标签', el: () => <TagGroupsPage /> },
    ],
  },
  {
    label: '供应商',
    pages: [
      { path: 'links', label: '货源', el: () => <LinksPage /> },
      { path: 'stats', label: '货源统计', el: () => <StatsPage /> },
      { path: 'sync', label: '同步供应商数据', el: () => <SyncPage /> },
    ],
  },
  {
    label: '店铺',
    pages: [
      { path: 'positions', label: '首页展示位', el: () => <PositionsPage /> },
      { path: 'sorting', label: '店铺排序', el: () => <SortingPage /> },
    ],
  },
  {
    label: '运营',
    pages: [
      { path: 'organise', label: '整理货源', el: () => <OrganisePage /> },
      { path: 'projections', label: '系统状态', el: () => <ProjectionsPage /> },
    ],
  },
];
const OVERVIEW: PageDef = { path: 'overview', label: '概览', el: () => <OverviewPage /> };
const PAGES = [OVERVIEW, ...GROUPS.flatMap((g) => g.pages)];

export function App() {
  const [user, setUser] = useState<User | null | undefined>(undefined);
  const { page: route } = useRoute();
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => {
    setOnLoggedOut(() => setUser(null));
    api
      .get<{ user: User }>('/auth/me')
      .then((r) => setUser(r.user))
      .catch(() => setUser(null));
  }, []);
  const page = PAGES.find((p) => p.path === route) ?? OVERVIEW;
  useEffect(() => {
    document.title = `${page.label} · 商品目录后台`;
    setMenuOpen(false);
  }, [page.path]);
  if (user === undefined)
    return (
      <main className="center muted" role="status">
        正在恢复登录…
      </main>
    );
  if (user === null)
    return (
      <>
        <Login onLoggedIn={setUser} />
        <DialogHost />
      </>
    );
  const navLink = (p: PageDef) => (
    <a key={p.path} href={`#/${p.path}`} className={p === page ? 'active' : ''} aria-current={p === page ? 'page' : undefined} data-testid={`nav-${p.path}`}>
      {p.label}
    </a>
  );
  return (
    <div className="layout">
      <SkipLinks />
      <header className="side">
        <div className="brand-row">
          <span className="brand">商品目录后台</span>
          <button type="button" className="menu-button" aria-expanded={menuOpen} aria-controls="main-nav" onClick={() => setMenuOpen((o) => !o)}>
            菜单
          </button>
        </div>
        <nav id="main-nav" aria-label="主菜单" className={menuOpen ? 'open' : undefined}>
          {navLink(OVERVIEW)}
          {GROUPS.map((g) => (
            <div key={g.label} className="nav-group" role="group" aria-labelledby={`nav-group-${g.label}`}>
              <div className="nav-group-label" id={`nav-group-${g.label}`}>
                {g.label}
              </div>
              {g.pages.map(navLink)}
            </div>
          ))}
          <div className="who">
            <span data-testid="current-user">{user.username}</span>
            <button
              type="button"
              className="link"
              onClick={async () => {
                await api.request('POST', '/auth/logout').catch(() => undefined);
                setUser(null);
              }}
            >
              退出登录
            </button>
          </div>
        </nav>
      </header>
      <main className="content" id="main" tabIndex={-1} data-testid={`page-${page.path}`}>
        <h1>{page.label}</h1>
        {page.el()}
      </main>
      <DialogHost />
    </div>
  );
}

/**
 * Sign-in, and on a fresh install the first administrator's registration. Registration does not sign
 * in (the API keeps them apart, docs/api.md, Auth); the page signs the new administrator in at once
 * with what was just typed.
 */
function Login({ onLoggedIn }: { onLoggedIn: (u: User) => void }) {
  const [mode, setMode] = useState<'login' | 'register'>('login');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [fields, setFields] = useState<{ username?: string; password?: string }>({});
  const [busy, setBusy] = useState(false);
  const userId = useId();
  const passId = useId();
  const hintId = useId();
  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setError('');
    // The form's own checks, in words beside each field (the browser's would be a bubble in its own
    // language that disappears): registration's rules are the server's (docs/security.md).
    const name = username.trim();
    const found: typeof fields = {};
    if (!name) found.username = '请填写用户名';
    else if (mode === 'register' && name.length < 3) found.username = `用户名至少 3 个字符（现在 ${name.length} 个）`;
    if (!password) found.password = '请填写密码';
    else if (mode === 'register' && password.length < 12) found.password = `密码至少 12 个字符（现在 ${password.length} 个）`;
    // Drawn before the focus moves, so the field is read out with its message.
    flushSync(() => setFields(found));
    if (found.username || found.password) {
      document.getElementById(found.username ? userId : passId)?.focus();
      return;
    }
    setBusy(true);
    try {
      // The name as checked: registration trims it, and the sign-in that follows must use the same.
      if (mode === 'register') await api.request('POST', '/auth/register', { username: name, password });
      const r = await api.request<{ user: User }>('POST', '/auth/login', { username: name, password });
      onLoggedIn(r.user);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }
  return (
    <main className="center">
      <form className="card login" onSubmit={submit} aria-labelledby="login-title" noValidate>
        <h1 id="login-title">{mode === 'login' ? '管理员登录' : '首次使用：创建管理员'}</h1>
        {mode === 'register' && <p className="muted">这是第一个、也是唯一的管理员账号。创建后会直接登录。</p>}
        <label htmlFor={userId}>用户名</label>
        <input
          id={userId}
          name="username"
          value={username}
          onChange={(e) => {
            setUsername(e.target.value);
            setFields((f) => ({ ...f, username: undefined }));
          }}
          autoComplete="username"
          aria-required="true"
          aria-invalid={fields.username ? true : undefined}
          aria-describedby={fields.username ? `${userId}-err` : undefined}
        />
        <FieldError id={`${userId}-err`} message={fields.username} />
        <label htmlFor={passId}>密码</label>
        <input
          id={passId}
          name="password"
          type="password"
          value={password}
          onChange={(e) => {
            setPassword(e.target.value);
            setFields((f) => ({ ...f, password: undefined }));
          }}
          autoComplete={mode === 'login' ? 'current-password' : 'new-password'}
          aria-required="true"
          aria-invalid={fields.password ? true : undefined}
          aria-describedby={fields.password ? `${passId}-err` : mode === 'register' ? hintId : undefined}
        />
        <FieldError id={`${passId}-err`} message={fields.password} />
        {mode === 'register' && !fields.password && (
          <span id={hintId} className="muted">
            至少 12 个字符
          </span>
        )}
        {error && (
          <div className="error" role="alert">
            {error}
          </div>
        )}
        <button type="submit" disabled={busy}>
          {mode === 'login' ? '登录' : busy ? '正在创建…' : '创建并登录'}
        </button>
        <button
          type="button"
          className="link"
          onClick={() => {
            setError('');
            setFields({});
            setMode(mode === 'login' ? 'register' : 'login');
          }}
        >
          {mode === 'login' ? '首次使用？创建管理员' : '已有账号？去登录'}
        </button>
      </form>
    </main>
  );
}
