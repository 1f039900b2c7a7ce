import type React from 'react';
import { useState } from 'react';
import type { Page } from '../../../shared/responses/page';
import { errorText } from './error-text';

export function ErrorLine({ error }: { error: string }) {
  return error ? <div className="error" role="alert">{error}</div> : null;
}

export function Status({ a }: { a: { error: string; message: string } }) {
  return (
    <>
      {a.error && <span className="error" role="alert">{a.error}</span>}
      {a.message && <span className="ok">{a.message}</span>}
    </>
  );
}

/** Previous / next under a paged list, with where the list stands: "第 2 页 / 共 5 页 · 93 个". */
export function Pager({ page, setPage, list }: { page: number; setPage: (p: number) => void; list: Pick<Page<unknown>, 'total' | 'pageSize'> }) {
  const pages = Math.max(1, Math.ceil(list.total / list.pageSize));
  return (
    <div className="row">
      <button className="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>上一页</button>
      <span>第 {page} 页 / 共 {pages} 页 · {list.total} 个</span>
      <button className="secondary" disabled={page * list.pageSize >= list.total} onClick={() => setPage(page + 1)}>下一页</button>
    </div>
  );
}

/** Edit and delete at the end of a table row; delete asks for confirmation first. */
export function RowActions({ busy, onEdit, confirmText, onDelete }: { busy: boolean; onEdit: () => void; confirmText: string; onDelete: () => void }) {
  return (
    <td style={{ width: 150 }}><div className="row" style={{ justifyContent: 'flex-end' }}>
      <button className="secondary" disabled={busy} onClick={onEdit}>编辑</button>
      <button className="danger" disabled={busy} onClick={() => confirm(confirmText) && onDelete()}>删除</button>
    </div></td>
  );
}

/** The keyword search above each admin list: submitting goes back to page 1. */
export function KeywordSearch({ keyword, setKeyword, onSearch }: { keyword: string; setKeyword: (v: string) => void; onSearch: () => void }) {
  return (
    <form className="row" onSubmit={(e) => { e.preventDefault(); onSearch(); }}>
      <input placeholder="关键词" value={keyword} onChange={(e) => setKeyword(e.target.value)} />
      <button type="submit">搜索</button>
    </form>
  );
}

/**
 * Search box with results, each with an add button: for goods, links and the like.
 * `search` answers the candidates for a keyword; `exclude` hides those already chosen.
 */
export function SearchPicker<T extends { id: string }>({
  search, onPick, render, exclude = [], placeholder = '关键词', testId, disabled,
}: {
  search: (keyword: string) => Promise<T[]>;
  onPick: (item: T) => void;
  render: (item: T) => React.ReactNode;
  exclude?: readonly string[];
  placeholder?: string;
  testId?: string;
  disabled?: boolean;
}) {
  const [keyword, setKeyword] = useState('');
  const [results, setResults] = useState<T[] | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
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
      <form className="row" onSubmit={(e) => { e.preventDefault(); void run(); }}>
        <input placeholder={placeholder} value={keyword} onChange={(e) => setKeyword(e.target.value)} style={{ flex: 1 }} />
        <button type="submit" className="secondary" disabled={busy || disabled}>搜索</button>
      </form>
      <ErrorLine error={error} />
      {shown && (
        <ul className="results" data-testid={testId ? `${testId}-results` : undefined}>
          {shown.length === 0 && <li className="muted">没有匹配的结果</li>}
          {shown.map((r) => (
            <li key={r.id} className="row">
              <span style={{ flex: 1 }}>{render(r)}</span>
              <button type="button" className="secondary" disabled={disabled} onClick={() => { onPick(r); setResults((xs) => (xs && xs.length > 1 ? xs : null)); }}>添加</button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
