import { useCallback, useEffect, useState } from 'react';
import { api } from '../api';

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
      .catch((e) => live && setError(e.message));
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

/** Runs an action, showing its error; returns a wrapped function and the state. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [message, setMessage] = useState('');
  const run = async (f: () => Promise<unknown>, ok?: string) => {
    setBusy(true);
    setError('');
    setMessage('');
    try {
      await f();
      if (ok) setMessage(ok);
    } catch (e) {
      setError((e as Error).message);
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
