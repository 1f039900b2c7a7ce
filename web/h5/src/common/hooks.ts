import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../api';
import { browserEnv } from './browser-env';
import type { Failure } from './failure';
import { Retrier, type Waiting } from './retrier';

/**
 * The last answer of each public read this page has seen. A page opened again (back from a
 * product, a tab tapped again) shows it at once and asks again behind it, so going back is instant
 * and its scroll position can be restored; the public reads are cheap to ask again (an ETag, and a
 * 304 when nothing changed: docs/api.md, Public read caching).
 */
const lastAnswer = new Map<string, unknown>();

export interface Resource<T> {
  data: T | null;
  /** the last failure, while no later read succeeded */
  failure: Failure | null;
  /** what the failure waits for */
  waiting: Waiting | null;
  loading: boolean;
  /** the shopper's 重试 */
  retry(): void;
}

/** Reads `path` (null: nothing yet), with retries on a passing failure (./retrier.ts). */
export function useResource<T>(path: string | null): Resource<T> {
  type State = Omit<Resource<T>, 'retry'>;
  const initial = (): State => ({
    data: path !== null ? ((lastAnswer.get(path) as T | undefined) ?? null) : null,
    failure: null,
    waiting: null,
    loading: path !== null && !lastAnswer.has(path),
  });
  const [state, setState] = useState<State>(initial);
  const [shownPath, setShownPath] = useState(path);
  if (shownPath !== path) {
    setShownPath(path);
    setState(initial());
  }
  const retrier = useRef<Retrier<T> | null>(null);
  useEffect(() => {
    if (path === null) return;
    const r = new Retrier<T>(
      () => api.get<T>(path),
      {
        started: () => setState((s) => ({ ...s, loading: true, waiting: null })),
        succeeded: (data) => {
          lastAnswer.set(path, data);
          setState({ data, failure: null, waiting: null, loading: false });
        },
        failed: (failure, waiting) => setState((s) => ({ ...s, failure, waiting, loading: false })),
      },
      browserEnv,
    );
    retrier.current = r;
    r.request();
    return () => {
      r.dispose();
      retrier.current = null;
    };
  }, [path]);
  const retry = useCallback(() => retrier.current?.retryNow(), []);
  return { ...state, retry };
}

/** What the shop is called: the title of home, and the end of no other page's (WeChat's top bar is narrow). */
export const SHOP_NAME = '商城';

/**
 * The page's title, which WeChat shows in its top bar and a shared link carries: each page its own,
 * a product its name. Null: not known yet (the title stays what it was).
 */
export function usePageTitle(title: string | null): void {
  useEffect(() => {
    if (title !== null) document.title = title;
  }, [title]);
}
