import type React from 'react';
import { useEffect, useId, useState } from 'react';
import type { Page } from '../../../../src/contract/page';
import { errorText } from './error-text';

export function ErrorLine({ error, testId }: { error: string; testId?: string }) {
  return error ? (
    <div className="error" role="alert" data-testid={testId}>
      {error}
    </div>
  ) : null;
}

/** An action's outcome: its error (an alert) or its success (a polite status). */
export function Status({ a, testId }: { a: { error: string; message: string }; testId?: string }) {
  return (
    <span className="status" role="status" data-testid={testId}>
      {a.error && (
        <span className="error" role="alert">
          {a.error}
        </span>
      )}
      {a.message && <span className="ok">{a.message}</span>}
    </span>
  );
}

/** The message of a field, next to it (the field names it with aria-describedby). */
export function FieldError({ id, message }: { id: string; message?: string | undefined }) {
  return message ? (
    <span id={id} className="field-error" role="alert">
      {message}
    </span>
  ) : null;
}

/** A button that is on or off (a filter, a tab, a choice): its state is `aria-pressed`. */
export function Toggle({ on, onClick, children, testId, disabled }: { on: boolean; onClick: () => void; children: React.ReactNode; testId?: string; disabled?: boolean }) {
  return (
    <button type="button" className={on ? 'toggle on' : 'toggle'} aria-pressed={on} onClick={onClick} data-testid={testId} disabled={disabled}>
      {children}
    </button>
  );
}

/** Tabs of a detail: buttons, the chosen one pressed. */
export function Tabs<K extends string>({ value, onChange, tabs, label }: { value: K; onChange: (k: K) => void; tabs: [K, string][]; label: string }) {
  return (
    <div className="row tabs" role="group" aria-label={label}>
      {tabs.map(([k, l]) => (
        <Toggle key={k} on={value === k} onClick={() => onChange(k)}>
          {l}
        </Toggle>
      ))}
    </div>
  );
}

/**
 * Under a paged list: previous, next, and a page to jump to, with where the list stands
 * ("第 2 页 / 共 5 页 · 93 个").
 */
export function Pager({ page, setPage, list, unit = '个' }: { page: number; setPage: (p: number) => void; list: Pick<Page<unknown>, 'total' | 'pageSize'>; unit?: string }) {
  const pages = Math.max(1, Math.ceil(list.total / list.pageSize));
  const [jump, setJump] = useState(String(page));
  const id = useId();
  useEffect(() => setJump(String(page)), [page]);
  const target = Number(jump);
  const valid = Number.isInteger(target) && target >= 1 && target <= pages;
  return (
    <nav className="row pager" aria-label="分页" data-testid="pager">
      <button type="button" className="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
        上一页
      </button>
      <span>
        第 {page} 页 / 共 {pages} 页 · {list.total} {unit}
      </span>
      <button type="button" className="secondary" disabled={page >= pages} onClick={() => setPage(page + 1)}>
        下一页
      </button>
      {pages > 2 && (
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            if (valid && target !== page) setPage(target);
          }}
        >
          <label htmlFor={id} className="inline">
            跳到第
          </label>
          <input id={id} className="page-input" inputMode="numeric" value={jump} onChange={(e) => setJump(e.target.value.trim())} aria-invalid={!valid} data-testid="page-jump" />
          <span>页</span>
          <button type="submit" className="secondary" disabled={!valid || target === page}>
            跳转
          </button>
        </form>
      )}
    </nav>
  );
}

/** The keyword search above a list: submitting goes back to page 1. */
export function KeywordSearch({
  keyword,
  setKeyword,
  onSearch,
  label = '关键词',
  placeholder,
}: {
  keyword: string;
  setKeyword: (v: string) => void;
  onSearch: () => void;
  label?: string;
  placeholder?: string;
}) {
  const id = useId();
  return (
    <form
      className="row"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        onSearch();
      }}
    >
      <label htmlFor={id} className="inline">
        {label}
      </label>
      <input id={id} type="search" placeholder={placeholder} value={keyword} onChange={(e) => setKeyword(e.target.value)} />
      <button type="submit">搜索</button>
    </form>
  );
}

/**
 * Search box with results, each with an add button: for goods, links and the like.
 * `search` answers the candidates for a keyword; `exclude` hides those already chosen.
 */
export function SearchPicker<T extends { id: string }>({
  search,
  onPick,
  render,
  exclude = [],
  placeholder = '关键词',
  label,
  testId,
  disabled,
}: {
  search: (keyword: string) => Promise<T[]>;
  onPick: (item: T) => void;
  render: (item: T) => React.ReactNode;
  exclude?: readonly string[];
  placeholder?: string;
  label: string;
  testId?: string;
  disabled?: boolean;
}) {
  const [keyword, setKeyword] = useState('');
  const [results, setResults] = useState<T[] | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const id = useId();
  const run = async () => {
    setBusy(true);
    setError('');
    try {
      setResults(await search(keyword.trim()));
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  const shown = results?.filter((r) => !exclude.includes(r.id));
  return (
    <div className="picker" data-testid={testId}>
      <form
        className="row"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
      >
        <label htmlFor={id} className="visually-hidden">
          {label}
        </label>
        <input id={id} type="search" placeholder={placeholder} value={keyword} onChange={(e) => setKeyword(e.target.value)} style={{ flex: 1 }} />
        <button type="submit" className="secondary" disabled={busy || disabled}>
          搜索
        </button>
      </form>
      <ErrorLine error={error} />
      {shown && (
        <ul className="results" data-testid={testId ? `${testId}-results` : undefined} aria-label={`${label}：结果`}>
          {shown.length === 0 && <li className="muted">没有匹配的结果</li>}
          {shown.map((r) => (
            <li key={r.id} className="row">
              <span style={{ flex: 1 }}>{render(r)}</span>
              <button
                type="button"
                className="secondary"
                disabled={disabled}
                onClick={() => {
                  onPick(r);
                  setResults((xs) => (xs && xs.length > 1 ? xs : null));
                }}
              >
                添加
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** A count as a figure with its label, optionally a link to the list behind it. */
export function Stat({ value, label, href, tone, testId }: { value: React.ReactNode; label: string; href?: string; tone?: 'warn' | 'bad' | 'good'; testId?: string }) {
  const body = (
    <>
      <b>{value}</b>
      <span>{label}</span>
    </>
  );
  return href ? (
    <a className={`stat ${tone ?? ''}`} href={href} data-testid={testId}>
      {body}
    </a>
  ) : (
    <span className={`stat ${tone ?? ''}`} data-testid={testId}>
      {body}
    </span>
  );
}

/** A loading line for a region that has nothing to show yet. */
export const Loading = ({ text = '加载中…' }: { text?: string }) => (
  <div className="muted" role="status">
    {text}
  </div>
);

/** A link (货源) as lists name it: its name, and whether it is delisted or not organised yet. */
export const LinkName = ({ link }: { link: { name: string; delisted: boolean; parsed: unknown } }) => (
  <>
    {link.name}
    {link.delisted && <span className="badge red">已下架</span>}
    {!link.parsed && <span className="badge amber">未整理</span>}
  </>
);

/** A filter the address applies (a country, a category, a tag…), named, with × to lift it. */
export const ScopeChip = ({ text, onClear, testId }: { text: string; onClear: () => void; testId: string }) => (
  <span className="badge blue" data-testid={testId}>
    {text}{' '}
    <button type="button" className="link" aria-label={`取消筛选 ${text}`} onClick={onClear}>
      ×
    </button>
  </span>
);
