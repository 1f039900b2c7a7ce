import { useEffect, useState } from 'react';
import { confirmDialog } from './dialog';

/**
 * The admin's address is its state: `#/<page>?<params>` names the page, the selected item (`id`)
 * and a list's search, filters, order and page, so back, forward, reload and bookmarks return to the
 * same screen. Every change of the address goes through the browser's history (a hash change), and a
 * page with unsaved edits is asked about first, whichever way the address changes (a link, a
 * selected row, back or forward).
 */

export interface Route {
  page: string;
  params: URLSearchParams;
}

export const readRoute = (): Route => {
  const h = window.location.hash.replace(/^#\/?/, '');
  const [page = '', query = ''] = h.split('?');
  return { page, params: new URLSearchParams(query) };
};

export const hrefOf = (page: string, params?: Record<string, string | null | undefined> | URLSearchParams): string => {
  const p = params instanceof URLSearchParams ? new URLSearchParams(params) : new URLSearchParams();
  if (params && !(params instanceof URLSearchParams)) for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== '') p.set(k, v);
  const q = p.toString();
  return `#/${page}${q ? `?${q}` : ''}`;
};

// ---- unsaved edits ------------------------------------------------------------------------------

const dirty = new Set<symbol>();
/** Whether some form on the page holds edits not saved yet. */
export const hasUnsavedEdits = () => dirty.size > 0;

/** While `isDirty`, leaving the page or the item (or closing the tab) asks first. */
export function useUnsavedEdits(isDirty: boolean): void {
  useEffect(() => {
    if (!isDirty) return;
    const key = Symbol('unsaved');
    dirty.add(key);
    return () => {
      dirty.delete(key);
    };
  }, [isDirty]);
}

window.addEventListener('beforeunload', (e) => {
  if (!hasUnsavedEdits()) return;
  e.preventDefault();
  // Older browsers show the dialog only when a value is set.
  e.returnValue = '';
});

const askToLeave = () =>
  confirmDialog({
    title: '放弃未保存的修改？',
    body: '当前页面有尚未保存的修改，离开后这些修改会丢失。',
    confirm: '放弃修改并离开',
    cancel: '留在此页',
    danger: true,
  });

// ---- the address --------------------------------------------------------------------------------

let current = window.location.hash;
let allowNext = false;
const listeners = new Set<(r: Route) => void>();

window.addEventListener('hashchange', () => {
  const wanted = window.location.hash;
  if (wanted === current) return;
  if (allowNext || !hasUnsavedEdits()) {
    allowNext = false;
    current = wanted;
    const r = readRoute();
    for (const l of listeners) l(r);
    return;
  }
  // Edits not saved: stay on the address the page shows until the administrator decides.
  const stay = current;
  window.history.replaceState(window.history.state, '', stay || '#/');
  void askToLeave().then((leave) => {
    if (!leave) return;
    dirty.clear();
    allowNext = true;
    window.location.hash = wanted;
  });
});

/**
 * Goes to an address (a new history entry; `replace` rewrites the present one). `force`: the edits
 * are dealt with (saved, or their item deleted), so nothing is asked.
 */
export async function navigate(href: string, opts: { replace?: boolean; force?: boolean } = {}): Promise<void> {
  if (href === window.location.hash) return;
  if (opts.force) dirty.clear();
  if (hasUnsavedEdits()) {
    if (!(await askToLeave())) return;
    dirty.clear();
  }
  allowNext = true;
  if (opts.replace) {
    window.history.replaceState(window.history.state, '', href);
    allowNext = false;
    current = window.location.hash;
    const r = readRoute();
    for (const l of listeners) l(r);
  } else window.location.hash = href;
}

export function useRoute(): Route {
  const [route, setRoute] = useState(readRoute);
  useEffect(() => {
    listeners.add(setRoute);
    setRoute(readRoute());
    return () => {
      listeners.delete(setRoute);
    };
  }, []);
  return route;
}

/**
 * The present page's parameters, and a setter that writes the given ones into the address (null or
 * '' removes one). A change of the search or a filter goes back to page 1 unless the patch names a page.
 */
export function useParams(): [URLSearchParams, (patch: Record<string, string | null | undefined>, opts?: { replace?: boolean; force?: boolean }) => void] {
  const { page, params } = useRoute();
  const set = (patch: Record<string, string | null | undefined>, opts: { replace?: boolean; force?: boolean } = {}) => {
    const next = new URLSearchParams(readRoute().params);
    for (const [k, v] of Object.entries(patch)) {
      if (v === null || v === undefined || v === '') next.delete(k);
      else next.set(k, v);
    }
    void navigate(hrefOf(page, next), opts);
  };
  return [params, set];
}

/**
 * A list page's address (`#/<page>?q=…&page=…&id=…` and its filters): the search as typed and as
 * applied, the page, and the addresses of an item and of the list without one, all keeping the rest.
 */
export function useListAddress(page: string) {
  const [params, setParams] = useParams();
  const q = params.get('q') ?? '';
  const [keyword, setKeyword] = useState(q);
  useEffect(() => setKeyword(q), [q]);
  const at = (id: string | null) => {
    const p = new URLSearchParams(params);
    if (id) p.set('id', id);
    else p.delete('id');
    p.delete('tab');
    return hrefOf(page, p);
  };
  return {
    params,
    setParams,
    q,
    page: Number(params.get('page') ?? '1') || 1,
    selected: params.get('id'),
    keyword,
    setKeyword,
    search: () => setParams({ q: keyword.trim(), page: null }),
    setPage: (p: number) => setParams({ page: String(p) }),
    itemHref: (id: string) => at(id),
    listHref: at(null),
  };
}
