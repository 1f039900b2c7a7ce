import type React from 'react';
import { useCallback, useEffect, useState } from 'react';
import { api, type Page } from '../api';
import type { ApiError } from '../../../shared/http';

/**
 * Orders ids as the server does (numerically): by length, then as strings. Ids have up to 19
 * digits, beyond what a JavaScript number holds exactly.
 */
export const compareIds = (a: string, b: string): number => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

/** Display order as the server lists it: sortOrder, then id. */
export const bySortOrder = (x: { id: string; sortOrder: number }, y: { id: string; sortOrder: number }): number => x.sortOrder - y.sortOrder || compareIds(x.id, y.id);

/** Loads `path`; `reload()` fetches again. */
export function useLoad<T>(path: string | null) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState('');
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!path) return;
    let live = true;
    setError('');
    api
      .get<T>(path)
      .then((d) => live && setData(d))
      .catch((e) => live && setError(errorText(e)));
    return () => {
      live = false;
    };
  }, [path, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, error, reload, setData };
}

export function ErrorLine({ error }: { error: string }) {
  return error ? <div className="error" role="alert">{error}</div> : null;
}

/** What the administrator is told for the API's error codes; the API's own message follows in brackets. */
const CODE_TEXT: Record<string, string> = {
  'GOOD.EXISTS_FOR_LINK': '该链接已有商品',
  'GOOD.UNKNOWN_ORIGIN': '链接不存在',
  'GOOD.PRIMARY_AS_SECONDARY': '主链接不能同时作为次要链接',
  'GOOD.NAME_REQUIRED': '自定义商品需要名称',
  'UPLOAD.UNSUPPORTED_TYPE': '不支持的文件类型，只接受 png、jpg、webp、gif 图片',
  'UPLOAD.TOO_LARGE': '文件太大',
  'FAMILY.NOT_EMPTY': '系列仍有成员或商品，不能删除',
  'FAMILY.NOT_A_CUSTOM_GOOD': '只有自定义商品（没有来源链接）才能作为自定义成员',
  'FAMILY.OVERRIDE_KEY_INVALID': '覆盖价的格子不存在',
  'CATEGORY.HAS_CHILDREN': '类目仍有下级类目，请先删除或移走它们',
  'CATEGORY.UNKNOWN_PARENT': '上级类目不存在',
  'COUNTRY.CODE_TAKEN': '已有国家使用这个代码',
  'UNKNOWN_REFERENCE': '引用的类目、国家或标签不存在',
  'CATEGORIES.NOT_A_PERMUTATION': '类目已变化，请刷新后再排序',
  'COUNTRIES.NOT_A_PERMUTATION': '国家已变化，请刷新后再排序',
  'TAGS.NOT_A_PERMUTATION': '标签已变化，请刷新后再排序',
  'TAG.NAME_TAKEN': '同组已有同名标签',
  'TAG.ALREADY_EXISTS': '同组已有同名标签',
  'TAG_GROUP.ALREADY_EXISTS': '已有同名标签组',
  'TAG_GROUP.DIMENSION_TAKEN': '该维度已有标签组',
  'TAG_GROUP.HAS_TAGS': '标签组仍有标签，不能删除',
  'POSITION.DUPLICATE_GOODS': '同一商品在展示位中只能出现一次',
  'ORIGIN_GOOD.UNPARSEABLE': '链接名称无法解析，不能自动派生标签',
  'ORGANISE.ALREADY_RUNNING': '整理正在进行',
  'SYNC.ALREADY_RUNNING': '同步正在进行',
  'EVENT_STORE.WRONG_REVISION': '数据已被他人修改，请刷新后重试',
};

/** An error as the page shows it: the API's message, after a Chinese summary when the code is known. */
export function errorText(e: unknown): string {
  const err = e as Partial<ApiError> & Error;
  const known = err.code ? CODE_TEXT[err.code] : undefined;
  return known ? `${known}（${err.message}）` : err.message;
}

/**
 * Runs an action, showing its error; `run` answers whether the action succeeded (it never
 * rejects: the error is in the state).
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [message, setMessage] = useState('');
  const run = async (f: () => Promise<unknown>, ok?: string): Promise<boolean> => {
    setBusy(true);
    setError('');
    setMessage('');
    try {
      await f();
      if (ok) setMessage(ok);
      return true;
    } catch (e) {
      setError(errorText(e));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, message, run };
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

export const fmtTime = (s: string | null | undefined) => (s ? new Date(s).toLocaleString('zh-CN') : '—');

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

type NameKind = 'goods' | 'origin-goods';
const NOT_FOUND = '（不存在）';
/** The lists take at most this many ids (and answer at most this many rows) per request. */
const IDS_PER_REQUEST = 1000;

/**
 * Names of resources by id, fetched once per page load: the ids not yet known in one request
 * (`GET /goods?ids=…`, `GET /origin-goods?ids=…`). An id the answer leaves out does not exist; a
 * failed request is forgotten, so a later render asks again.
 */
const nameCache = new Map<string, Promise<string>>();
const nameKey = (kind: NameKind, id: string) => `${kind}/${id}`;

function fetchNames(kind: NameKind, ids: string[]): void {
  for (let i = 0; i < ids.length; i += IDS_PER_REQUEST) {
    const chunk = ids.slice(i, i + IDS_PER_REQUEST);
    const answer = api
      .get<Page<{ id: string; name: string }>>(`/${kind}?ids=${chunk.join(',')}&pageSize=${IDS_PER_REQUEST}`)
      .then((p) => new Map(p.items.map((x) => [x.id, x.name])));
    for (const id of chunk) {
      const k = nameKey(kind, id);
      const name = answer.then((m) => m.get(id) ?? NOT_FOUND);
      nameCache.set(k, name);
      name.catch(() => {
        if (nameCache.get(k) === name) nameCache.delete(k);
      });
    }
  }
}

export function useNames(kind: NameKind, ids: readonly string[]): Record<string, string> {
  const [names, setNames] = useState<Record<string, string>>({});
  const key = ids.join(',');
  useEffect(() => {
    let live = true;
    const wanted = [...new Set(ids)];
    fetchNames(kind, wanted.filter((id) => !nameCache.has(nameKey(kind, id))));
    void Promise.allSettled(wanted.map((id) => nameCache.get(nameKey(kind, id))!)).then((rs) => {
      if (!live) return;
      const known: Record<string, string> = {};
      rs.forEach((r, i) => {
        if (r.status === 'fulfilled') known[wanted[i]!] = r.value;
      });
      setNames((m) => (Object.entries(known).every(([id, n]) => m[id] === n) ? m : { ...m, ...known }));
    });
    return () => {
      live = false;
    };
  }, [kind, key]);
  return names;
}
/** Remember a name already known (a search result), so a picked item shows it at once. */
export const rememberName = (kind: NameKind, id: string, name: string) => nameCache.set(nameKey(kind, id), Promise.resolve(name));
