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

/**
 * Each history entry's place in the tab's history (`history.state.place`), so a Back or Forward that
 * unsaved edits hold up can be undone by going as far the other way, leaving every entry as it was:
 * after 留在此页 Back goes where it went before, and after 放弃修改并离开 the step is taken again.
 * (Rewriting the entry gone to would lose the address it held.) An entry is given its place when it
 * is first shown; a new entry is the last one of the history.
 */
const placeOf = (state: unknown): number | null => {
  const place = state && typeof state === 'object' ? (state as { place?: unknown }).place : undefined;
  return typeof place === 'number' ? place : null;
};
function placeHere(): number {
  const known = placeOf(window.history.state);
  if (known !== null) return known;
  const place = window.history.length - 1;
  const state: unknown = window.history.state;
  window.history.replaceState({ ...(state && typeof state === 'object' ? state : {}), place }, '', window.location.href);
  return place;
}
let place = placeHere();
/** Set while a step held up by unsaved edits is being undone: called once the page's own address is back. */
let undone: (() => void) | null = null;

const announce = () => {
  const r = readRoute();
  for (const l of listeners) l(r);
};

window.addEventListener('hashchange', () => {
  const wanted = window.location.hash;
  const to = placeHere();
  if (wanted === current) {
    place = to;
    undone?.();
    undone = null;
    return;
  }
  if (allowNext || !hasUnsavedEdits()) {
    allowNext = false;
    current = wanted;
    place = to;
    announce();
    return;
  }
  // Edits not saved: back to the entry the page shows, by as many steps the other way, until the
  // administrator decides; then, to leave, the same step again.
  const steps = place - to;
  const back = new Promise<void>((resolve) => {
    undone = resolve;
    // A history that cannot go back there (it changed meanwhile) must not keep the question away.
    window.setTimeout(resolve, 1000);
  });
  window.history.go(steps === 0 ? -1 : steps);
  void back.then(askToLeave).then((leave) => {
    if (!leave) return;
    dirty.clear();
    allowNext = true;
    if (steps === 0) window.location.hash = wanted;
    else window.history.go(-steps);
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
    announce();
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
